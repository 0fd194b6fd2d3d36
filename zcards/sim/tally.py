"""The counts a balance run keeps of its games: a few numbers per matchup and per card.

Every figure of the balance report is a sum over games, so a share of the games gives a
:class:`Tally` and tallies add up: however the games are split between processes, the sum
is the same, and memory does not grow with the number of games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from zcards.sim.game import GameResult

BIDDING = "bidding"  # the game as written: players bid for their opening food
EQUAL_FOOD = "equal food"  # no bids: both keep the starting food, the first seat goes first
SETUPS = (BIDDING, EQUAL_FOOD)
FIGURES = ("deck", "drawn", "opening", "played", "used")
"""Per card of a deck, the player-games it was in the deck, drawn, in the opening hand,
played, and its text used; each split by whether that player won. (A card is counted per deck:
pooled over decks, its figures would mostly say which deck holds it.)"""

Key = tuple[str | int, ...]


class Tally:
    """Counts by key; ``counts[("games", setup, seat 1 deck, seat 2 deck)]`` and so on."""

    __slots__ = ("counts",)

    def __init__(self, counts: Counter[Key] | None = None) -> None:
        self.counts: Counter[Key] = counts if counts is not None else Counter()

    def __getitem__(self, key: Key) -> int:
        return self.counts[key]

    def add(self, other: Tally) -> None:
        self.counts.update(other.counts)

    def count(self, setup: str, result: GameResult, cards: Mapping[str, frozenset[str]]) -> None:
        """One game's figures; ``cards`` names the cards of each deck. Per-card figures come
        from the games as written only."""
        pair = (setup, *result.decks)
        counts = self.counts
        counts[("games", *pair)] += 1
        counts[("turns", *pair)] += result.turns
        for loser, reason, _turn in result.losses:
            counts[("ended", *pair, result.players.index(loser), reason)] += 1
        if result.survivor is None:
            counts[("cap", *pair)] += 1
        else:
            counts[("wins", *pair, result.players.index(result.survivor))] += 1
            if result.survivor == result.first_player:
                counts[("first wins", *pair)] += 1
        if result.opening_food and result.first_player in result.players:
            first = result.players.index(result.first_player)
            counts[("first food", setup)] += result.opening_food[first]
            counts[("second food", setup)] += result.opening_food[1 - first]
            counts[("food games", setup)] += 1
        if setup == BIDDING:
            self._cards(result, cards)

    def _cards(self, result: GameResult, cards: Mapping[str, frozenset[str]]) -> None:
        counts = self.counts
        for player, deck, figures in zip(result.players, result.decks, result.cards, strict=True):
            won = int(player == result.survivor)
            seen = (
                ("deck", cards[deck]),
                ("drawn", figures.drawn),
                ("opening", figures.opening),
                ("played", figures.played),
            )
            for figure, names in seen:
                for name in names:
                    counts[("card", deck, name, figure, won)] += 1
            for name, uses in figures.used:
                counts[("card", deck, name, "used", won)] += 1
                counts[("uses", deck, name)] += uses

    def paired(self, setup: str, result: GameResult, printed: GameResult) -> None:
        """Compare one game with the same game (same seed and seats) played with the cards
        as printed: whether its winner changed, and whether any figure of the report did (the
        winner, the length, how it ended, each player's cards drawn, played and used)."""
        pair = (setup, *result.decks)
        self.counts[("paired", *pair)] += 1
        if result.survivor != printed.survivor:
            self.counts[("winner changed", *pair)] += 1
        if _outcome(result) != _outcome(printed):
            self.counts[("game changed", *pair)] += 1

    def deck_cards(self) -> list[tuple[str, str]]:
        """(deck, card) for every card of every deck, sorted."""
        return sorted({(str(key[1]), str(key[2])) for key in self.counts if key[0] == "card"})

    def decks(self) -> list[str]:
        return sorted({str(name) for key in self.counts if key[0] == "games" for name in key[2:4]})


def _outcome(result: GameResult) -> tuple[object, ...]:
    return (result.survivor, result.turns, result.losses, result.cards)


def total(tallies: Iterable[Tally]) -> Tally:
    whole = Tally()
    for tally in tallies:
        whole.add(tally)
    return whole
