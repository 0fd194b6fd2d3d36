"""The balance report of a batch of simulated games: lengths, endings and win rates.

Win rates come with a 95% Wilson score interval, which stays inside [0, 1] and behaves at
small counts and extreme rates, unlike the normal approximation.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

from zcards.game.cards import CardIndex
from zcards.sim.game import DeckList, GameResult

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``games`` with its 95% confidence interval."""

    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ((0, 1) when there are no games)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: int, games: int) -> Rate:
    return Rate(wins, games, *wilson(wins, games))


def difference(after: Rate, before: Rate) -> tuple[float, float]:
    """The 95% interval of ``after.rate - before.rate`` from the two Wilson intervals
    (Newcombe's hybrid score method, his method 10: it stays within [-1, 1] and keeps the
    Wilson interval's good behaviour at small counts and extreme rates)."""
    d = after.rate - before.rate
    return (
        d - math.hypot(after.rate - after.low, before.high - before.rate),
        d + math.hypot(after.high - after.rate, before.rate - before.low),
    )


@dataclass(frozen=True)
class Report:
    """Aggregates over games; a "win" is not losing (the one player who remained)."""

    games: int
    average_turns: float
    min_turns: int
    max_turns: int
    endings: dict[str, int]
    by_deck: dict[str, Rate]
    by_seat_order: dict[str, Rate]
    strategies: dict[str, int]
    never_used: list[str] = field(default_factory=list)  # cards whose abilities went unused

    def to_json(self) -> dict:
        data = asdict(self)
        for group in ("by_deck", "by_seat_order"):
            for name, entry in getattr(self, group).items():
                data[group][name]["rate"] = entry.rate
        return data


def with_abilities(decks: Sequence[DeckList]) -> frozenset[str]:
    """The names of the decks' cards whose text gives their player something to use."""
    index = CardIndex(card for deck in decks for card in deck.cards)
    return frozenset(info.name for info in index.infos() if info.has_abilities)


ORDINALS = ("first player", "second player", "third player", "fourth player")


class Summary:
    """The counts a report is made of, added one game at a time (memory flat in the number
    of games: ``simulate`` streams its games through one); of the cards in ``abilities``, it
    keeps those whose text some player used."""

    def __init__(self, abilities: frozenset[str] = frozenset()) -> None:
        self.games = 0
        self.turns = 0
        self.shortest: int | None = None
        self.longest = 0
        self.endings: Counter[str] = Counter()
        self.strategies: Counter[str] = Counter()
        self.deck_games: Counter[str] = Counter()
        self.deck_wins: Counter[str] = Counter()
        self.order_wins: Counter[str] = Counter()
        self.seats = 2
        self.abilities = abilities
        self.used: set[str] = set()

    def add(self, result: GameResult) -> None:
        self.games += 1
        self.turns += result.turns
        self.shortest = min(result.turns, self.shortest if self.shortest is not None else 1 << 30)
        self.longest = max(self.longest, result.turns)
        self.endings[result.ending] += 1
        self.strategies[" vs ".join(result.strategies)] += 1
        self.seats = max(self.seats, len(result.players))
        self.used.update(name for figures in result.cards for name, _ in figures.used)
        for player in result.players:
            self.deck_games[result.deck_of(player)] += 1
        if result.survivor is not None:
            self.deck_wins[result.deck_of(result.survivor)] += 1
            self.order_wins[ORDINALS[_turn_position(result)]] += 1

    def report(self) -> Report:
        return Report(
            games=self.games,
            average_turns=self.turns / self.games if self.games else 0.0,
            min_turns=self.shortest or 0,
            max_turns=self.longest,
            endings=dict(self.endings.most_common()),
            by_deck={
                deck: rate(self.deck_wins[deck], self.deck_games[deck])
                for deck in sorted(self.deck_games)
            },
            by_seat_order={
                order: rate(self.order_wins[order], self.games) for order in ORDINALS[: self.seats]
            },
            strategies=dict(self.strategies),
            never_used=sorted(self.abilities - self.used),
        )


def _turn_position(result: GameResult) -> int:
    """Where the survivor sat in turn order from the first player (0: the first player)."""
    players = list(result.players)
    start = players.index(result.first_player) if result.first_player in players else 0
    assert result.survivor is not None
    return (players.index(result.survivor) - start) % len(players)


def summarise_games(
    results: Iterable[GameResult], abilities: frozenset[str] = frozenset()
) -> Report:
    """Count how the games went, per deck and by turn order (the first player, the second,
    ...), one game at a time; of the cards in ``abilities``, those whose text was never used
    (a card the simulator cannot play, or never chose to)."""
    summary = Summary(abilities)
    for result in results:
        summary.add(result)
    return summary.report()


def format_report(report: Report) -> str:
    """The report as aligned text for a terminal."""
    lines = [
        f"games: {report.games}",
        f"average length: {report.average_turns:.1f} turns"
        f" (shortest {report.min_turns}, longest {report.max_turns})",
        "ended by: "
        + ", ".join(
            f"{ending} {count} ({_percent(count / report.games)})"
            for ending, count in report.endings.items()
        ),
        "players: " + ", ".join(f"{kinds} ({count})" for kinds, count in report.strategies.items()),
        "win rate by deck (did not lose; 95% Wilson interval):",
        *_rate_lines(report.by_deck),
        "win rate by turn order (the bid winner chose the first player, who may have started"
        " with less food; 'zcards balance' measures the turn order with equal food):",
        *_rate_lines(report.by_seat_order),
        "abilities never used: " + (", ".join(report.never_used) or "none"),
    ]
    return "\n".join(lines) + "\n"


def _rate_lines(rates: dict[str, Rate]) -> list[str]:
    width = max((len(name) for name in rates), default=0)
    return [
        f"  {name.ljust(width)}  {entry.wins:>5}/{entry.games:<5} {_percent(entry.rate):>6}"
        f"  [{_percent(entry.low)}, {_percent(entry.high)}]"
        for name, entry in rates.items()
    ]


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"
