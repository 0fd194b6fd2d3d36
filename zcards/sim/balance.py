"""The balance report: matchups, the turn order, per-card figures and what each change moved.

Built from the tallies of :mod:`zcards.sim.lab`. A "win" is not losing (the one player who
remained); a game stopped at the turn cap is a win for neither. Every rate has a 95% Wilson
interval, every move (a rate after a change minus the rate before) a 95% Newcombe interval;
a move is significant when its interval leaves out 0. With dozens of cards, a few moves are
"significant" by chance at 95%: a designer re-runs with another seed before believing one.
"""

from __future__ import annotations

from dataclasses import dataclass

from zcards.sim.report import Rate, difference, rate
from zcards.sim.tally import BIDDING, EQUAL_FOOD, Tally

MIN_OUTLIER_GAMES = 20
"""Player-games a card needs both drawn and not drawn before it may head the outliers: below
that its gap is mostly chance, and it is listed after the cards that have them."""


@dataclass(frozen=True)
class Endings:
    """How games ended, from one deck's side: the losses of each side by their reason (no
    survivors, empty deck) and the games stopped at the turn cap."""

    lost: dict[str, int]  # reason -> games the deck lost that way
    beat: dict[str, int]  # reason -> games the opponent lost that way
    turn_caps: int

    def __add__(self, other: Endings) -> Endings:
        return Endings(
            _summed(self.lost, other.lost),
            _summed(self.beat, other.beat),
            self.turn_caps + other.turn_caps,
        )


def _summed(one: dict[str, int], other: dict[str, int]) -> dict[str, int]:
    return {key: one.get(key, 0) + other.get(key, 0) for key in sorted({*one, *other})}


@dataclass(frozen=True)
class Matchup:
    """``deck`` against ``opponent`` in both seats, and in each."""

    deck: str
    opponent: str
    win: Rate
    seat1: Rate  # the deck in the first seat
    seat2: Rate
    turn_caps: int
    average_turns: float
    endings: Endings  # over both seats
    seat_endings: tuple[Endings, Endings]  # the deck in the first seat, in the second


@dataclass(frozen=True)
class TurnOrder:
    """How often the first player won, and the food each side started with on average."""

    first: Rate
    first_food: float
    second_food: float

    @property
    def note(self) -> str:
        """What the first player's rate says when the bid may have chosen him."""
        if abs(self.first_food - self.second_food) < 0.5:
            return "the bid left the first player's food like the second's"
        return "that measures the bid, not the turn order"


@dataclass(frozen=True)
class CardFigure:
    """One card of one deck over the games as written where a player played that deck
    (17lands' figures)."""

    name: str
    deck: str
    held: Rate  # win rate of the player-games with it in the deck
    drawn: Rate
    not_drawn: Rate
    opening: Rate
    played: Rate
    used_games: int
    uses: int
    use: str = ""  # what its text asks of the players (see zcards.sim.balance_report.USE)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.deck})"

    @property
    def play_rate(self) -> Rate:
        """The share of its deck's player-games in which it was played."""
        return rate(self.played.games, self.held.games)

    @property
    def gap(self) -> float:
        """Win rate when drawn minus when not drawn (17lands' "improvement when drawn"); 0
        when either never happened."""
        if not (self.drawn.games and self.not_drawn.games):
            return 0.0
        return self.drawn.rate - self.not_drawn.rate

    @property
    def gap_interval(self) -> tuple[float, float]:
        return difference(self.drawn, self.not_drawn)

    @property
    def clear_gap(self) -> float:
        """How far the gap's interval lies from 0 (0 when it holds 0): an outlier measure that
        a card seen in few games, or drawn in nearly every game, does not top by chance."""
        low, high = self.gap_interval
        return max(low, -high, 0.0)

    @property
    def relative(self) -> float:
        """Win rate when drawn minus its deck's: what drawing it adds to the deck (0 when
        never drawn). Raw rates restate the deck (every card of a strong deck wins)."""
        return self.drawn.rate - self.held.rate if self.drawn.games else 0.0

    @property
    def enough_games(self) -> bool:
        """Seen drawn and not drawn often enough to be an outlier (MIN_OUTLIER_GAMES)."""
        return min(self.drawn.games, self.not_drawn.games) >= MIN_OUTLIER_GAMES


@dataclass(frozen=True)
class Figures:
    """The report of one version of the cards."""

    games: int
    decks: list[str]
    matchups: list[Matchup]
    by_deck: dict[str, Rate]
    bidding: TurnOrder  # the game as written: the bid decides food and the first player
    equal_food: TurnOrder  # the turn order alone
    first_by_deck: dict[str, tuple[Rate, Rate]]  # equal food: each deck going first, second
    cards: list[CardFigure]  # outliers first (see CardFigure.clear_gap)

    def matchup(self, deck: str, opponent: str) -> Matchup:
        return next(m for m in self.matchups if (m.deck, m.opponent) == (deck, opponent))

    def never_played(self) -> list[str]:
        return sorted(card.label for card in self.cards if not card.played.games)

    def never_used(self) -> list[str]:
        """Cards the players put into play whose text they could use and never did (a
        player's blind spot, or a card whose ability is not worth its cost)."""
        return sorted(
            card.label
            for card in self.cards
            if card.use == "choice" and card.played.games and not card.uses
        )


def figures(tally: Tally, uses: dict[str, str] | None = None) -> Figures:
    """The report of one version of the cards; ``uses`` says per card name what its text asks
    of the players (for the "used" column)."""
    uses = uses or {}
    decks = tally.decks()
    matchups = [
        _matchup(tally, deck, opponent) for deck in decks for opponent in decks if deck != opponent
    ]
    wins = {deck: sum(m.win.wins for m in matchups if m.deck == deck) for deck in decks}
    games = {deck: sum(m.win.games for m in matchups if m.deck == deck) for deck in decks}
    cards = [_card(tally, deck, name, uses.get(name, "")) for deck, name in tally.deck_cards()]
    cards.sort(
        key=lambda card: (not card.enough_games, -card.clear_gap, -abs(card.gap), card.label)
    )
    return Figures(
        games=sum(n for key, n in tally.counts.items() if key[0] == "games"),
        decks=decks,
        matchups=matchups,
        by_deck={deck: rate(wins[deck], games[deck]) for deck in decks},
        bidding=_turn_order(tally, BIDDING),
        equal_food=_turn_order(tally, EQUAL_FOOD),
        first_by_deck={deck: _seats(tally, deck, decks) for deck in decks},
        cards=cards,
    )


def _matchup(tally: Tally, deck: str, opponent: str) -> Matchup:
    first = (BIDDING, deck, opponent)
    second = (BIDDING, opponent, deck)
    seat1 = rate(tally[("wins", *first, 0)], tally[("games", *first)])
    seat2 = rate(tally[("wins", *second, 1)], tally[("games", *second)])
    games = seat1.games + seat2.games
    turns = tally[("turns", *first)] + tally[("turns", *second)]
    seats = (_endings(tally, first, 0), _endings(tally, second, 1))
    return Matchup(
        deck,
        opponent,
        rate(seat1.wins + seat2.wins, games),
        seat1,
        seat2,
        tally[("cap", *first)] + tally[("cap", *second)],
        turns / games if games else 0.0,
        seats[0] + seats[1],
        seats,
    )


def _endings(tally: Tally, pair: tuple[str, str, str], seat: int) -> Endings:
    """How the games of ``pair`` (setup, first seat's deck, second's) ended, from the side
    of the deck in ``seat``."""
    lost: dict[str, int] = {}
    beat: dict[str, int] = {}
    for key, n in tally.counts.items():
        if key[0] == "ended" and key[1:4] == pair:
            found = lost if key[4] == seat else beat
            found[str(key[5])] = found.get(str(key[5]), 0) + n
    return Endings(lost, beat, tally[("cap", *pair)])


def _seats(tally: Tally, deck: str, decks: list[str]) -> tuple[Rate, Rate]:
    """With equal food, the deck's win rate going first (the first seat) and second."""
    others = [other for other in decks if other != deck]
    first = [(EQUAL_FOOD, deck, other) for other in others]
    second = [(EQUAL_FOOD, other, deck) for other in others]
    return (
        rate(sum(tally[("wins", *p, 0)] for p in first), sum(tally[("games", *p)] for p in first)),
        rate(
            sum(tally[("wins", *p, 1)] for p in second), sum(tally[("games", *p)] for p in second)
        ),
    )


def _turn_order(tally: Tally, setup: str) -> TurnOrder:
    games = sum(n for key, n in tally.counts.items() if key[:2] == ("games", setup))
    first = sum(n for key, n in tally.counts.items() if key[:2] == ("first wins", setup))
    fed = tally[("food games", setup)] or 1
    return TurnOrder(
        rate(first, games),
        tally[("first food", setup)] / fed,
        tally[("second food", setup)] / fed,
    )


def _card(tally: Tally, deck: str, name: str, use: str) -> CardFigure:
    def of(figure: str) -> Rate:
        won = tally[("card", deck, name, figure, 1)]
        return rate(won, won + tally[("card", deck, name, figure, 0)])

    held, drawn = of("deck"), of("drawn")
    used = of("used")
    return CardFigure(
        name=name,
        deck=deck,
        held=held,
        drawn=drawn,
        not_drawn=rate(held.wins - drawn.wins, held.games - drawn.games),
        opening=of("opening"),
        played=of("played"),
        used_games=used.games,
        uses=tally[("uses", deck, name)],
        use=use,
    )


@dataclass(frozen=True)
class RateMove:
    """A rate before and after a change, the interval of the difference, and whether it is
    significant (the interval leaves out 0)."""

    what: str
    before: Rate
    after: Rate

    @property
    def change(self) -> float:
        return self.after.rate - self.before.rate

    @property
    def interval(self) -> tuple[float, float]:
        return difference(self.after, self.before)

    @property
    def significant(self) -> bool:
        low, high = self.interval
        return low > 0 or high < 0


@dataclass(frozen=True)
class Moves:
    """What one variant moved against the cards as printed (significant moves first)."""

    variant: str
    matchups: list[RateMove]
    decks: list[RateMove]  # each deck's win rate over all its games
    turn_order: RateMove
    played: list[RateMove]  # how often each card was played: what the change did to its use
    cards: list[RateMove]  # each card's win rate when drawn (it moves with its deck's)
    paired: int = 0  # games played both ways (the same seed and seats)
    winner_changed: int = 0  # of those, games whose winner the change changed
    game_changed: int = 0  # games in which anything at all went otherwise

    @property
    def changes_nothing(self) -> bool:
        """Every paired game went exactly as with the cards as printed."""
        return self.paired > 0 and self.game_changed == 0

    def significant(self) -> list[RateMove]:
        found = [*self.matchups, *self.decks, self.turn_order, *self.played, *self.cards]
        return [m for m in found if m.significant]


def moves(variant: str, before: Figures, after: Figures, tally: Tally | None = None) -> Moves:
    """Each matchup once (the first deck of the pair by name), each deck, the turn order
    with equal food, and per card how often it was played and its win rate when drawn;
    with the variant's ``tally``, in how many paired games the winner (or anything) changed."""
    counted = tally.counts if tally is not None else {}

    def paired(kind: str) -> int:
        return sum(n for key, n in counted.items() if key[0] == kind)

    matchups = [
        RateMove(f"{m.deck} vs {m.opponent}", m.win, after.matchup(m.deck, m.opponent).win)
        for m in before.matchups
        if m.deck < m.opponent
    ]
    cards_after = {card.label: card for card in after.cards}
    pairs = [(card, cards_after[card.label]) for card in before.cards if card.label in cards_after]
    return Moves(
        variant,
        _ranked(matchups),
        _ranked([RateMove(deck, r, after.by_deck[deck]) for deck, r in before.by_deck.items()]),
        RateMove("first player, equal food", before.equal_food.first, after.equal_food.first),
        _ranked([RateMove(old.label, old.play_rate, new.play_rate) for old, new in pairs]),
        _ranked([RateMove(old.label, old.drawn, new.drawn) for old, new in pairs]),
        paired("paired"),
        paired("winner changed"),
        paired("game changed"),
    )


def _ranked(found: list[RateMove]) -> list[RateMove]:
    return sorted(found, key=lambda m: (not m.significant, -abs(m.change), m.what))
