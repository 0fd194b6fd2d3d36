"""``zcards balance`` as a library: play the lab's games for the cards as printed and each
change, and report them as JSON or text (:mod:`zcards.sim.balance_html` draws the page)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.effects import Timing
from zcards.sim.ablation import ablations
from zcards.sim.balance import Endings, Figures, Moves, RateMove, figures, moves
from zcards.sim.changes import Change, apply_changes, check_changes, parse_change
from zcards.sim.game import DEFAULT_TURN_CAP, DeckList
from zcards.sim.lab import Plan, check_decks, run
from zcards.sim.report import Rate
from zcards.sim.search import STRATEGIES
from zcards.sim.tally import BIDDING, EQUAL_FOOD

AS_PRINTED = "as printed"
USE = {
    "choice": "the players choose to use it (an ability, a one-shot item, Medic or Scavenger)",
    "trigger": "it acts by itself when its moment comes (a fight won or lost, a death, ...)",
    "always": "always on while in play: nothing to use",
    "": "no text to use",
}
"""What a card's text asks of the players, so "used 0 times" reads as "never used by the
players" only for a card they could have used."""
TRIGGERS = frozenset(Timing) - {Timing.STATIC, Timing.ACTIVATED, Timing.ONE_SHOT}


@dataclass(frozen=True)
class BalanceReport:
    """The lab's findings: ``variants[0]`` is the cards as printed, then each change alone,
    then all changes together (when there are several); ``moves`` compares each with the
    first."""

    plan: Plan
    labels: list[str]
    variants: list[Figures]
    moves: list[Moves]
    notes: tuple[str, ...] = ()  # what the changes did that the designer may not expect
    ablation: str | None = None  # "cards", "keywords" or "abilities": variants are ablations

    @property
    def policy(self) -> dict[str, str]:
        return STRATEGIES[self.plan.strategy].policy

    def to_json(self) -> dict:
        return {
            "seed": self.plan.seed,
            "games_per_pair": self.plan.games,
            "games": self.plan.total(),
            "max_turns": self.plan.max_turns,
            "setups": {
                BIDDING: "the game as written: players bid for their opening food",
                EQUAL_FOOD: "no bids: both players keep 10 food and the first seat goes first",
            },
            "players": {"strategy": self.plan.strategy, **self.policy},
            "decks": self.variants[0].decks,
            "notes": list(self.notes),
            "ablation": self.ablation,
            "uses": USE,
            "variants": [
                {"name": label, **_figures_json(found)}
                for label, found in zip(self.labels, self.variants, strict=True)
            ],
            "moves": [_moves_json(found) for found in self.moves],
        }


@dataclass(frozen=True)
class Lab:
    """A planned balance run: the games to play and the name of each version of the cards."""

    plan: Plan
    labels: list[str]
    notes: tuple[str, ...] = ()
    ablation: str | None = None

    def run(
        self, jobs: int | None = None, on_games: Callable[[int], None] | None = None
    ) -> BalanceReport:
        """Play it on ``jobs`` processes (every core by default); ``on_games`` is told how
        many games each finished share played."""
        index = CardIndex(card for deck in self.plan.variants[0] for card in deck.cards)
        uses = {info.name: card_use(info) for info in index.infos()}
        tallies = run(self.plan, jobs, on_games)
        found = [figures(tally, uses) for tally in tallies]
        return BalanceReport(
            self.plan,
            self.labels,
            found,
            [
                moves(label, found[0], after, tally)
                for label, after, tally in zip(self.labels[1:], found[1:], tallies[1:], strict=True)
            ],
            self.notes,
            self.ablation,
        )


def ranked_ablations(report: BalanceReport) -> list[tuple[Moves, RateMove]]:
    """Each variant with the deck whose win rate it moved most, largest move first; those
    that changed no game last."""
    found = [(m, max(m.decks, key=lambda d: abs(d.change))) for m in report.moves if m.decks]
    return sorted(found, key=lambda f: (f[0].changes_nothing, -abs(f[1].change), f[0].variant))


def card_use(info: CardInfo) -> str:
    """What the card's text asks of the players: a key of :data:`USE`."""
    if info.rows(Timing.ACTIVATED) or info.rows(Timing.ONE_SHOT):
        return "choice"
    if info.has_symbol("Medic") or info.has_symbol("Scavenger"):
        return "choice"
    if any(row.timing in TRIGGERS for row in info.rows()):
        return "trigger"
    return "always" if info.rows() or info.keywords else ""


def plan_balance(
    decks: Sequence[DeckList],
    changes: Sequence[str] = (),
    *,
    games: int = 100,
    seed: int = 0,
    strategy: str = "greedy",
    max_turns: int = DEFAULT_TURN_CAP,
    others: Sequence[tuple[str, Sequence[DeckList]]] = (),
    ablate: str | None = None,
    compare: str | None = None,
) -> Lab:
    """Every pair of ``decks`` in both seats, ``games`` games each, under both setups, for
    the cards as printed and with each change in ``changes`` (``'Card.field=value'``), one
    at a time and, when there are several, together; then each of ``others``: the same
    decks with other cards (named by where they come from); with ``ablate``, each ablation
    of that kind (:mod:`zcards.sim.ablation`); with ``compare``, the cards as printed under
    that strategy's players, which says how much the players move each figure."""
    check_decks(decks)
    names = sorted({card.name for deck in decks for card in deck.cards})
    parsed = [parse_change(spec, names) for spec in changes]
    notes = check_changes(parsed, decks)
    chosen: list[tuple[str, list[Change]]] = [(change.label, [change]) for change in parsed]
    if len(parsed) > 1:
        chosen.append((" and ".join(change.label for change in parsed), parsed))
    variants = [(AS_PRINTED, list(decks))]
    variants += [(label, apply_changes(decks, made)) for label, made in chosen]
    variants += [(label, list(other)) for label, other in others]
    if ablate is not None:
        variants += ablations(decks, ablate)
    strategies = [""] * (len(variants) - 1)
    if compare is not None and compare != strategy:
        variants.append((f"{AS_PRINTED}, {compare} players", list(decks)))
        strategies.append(compare)
    plan = Plan(
        tuple(tuple(version) for _, version in variants),
        games,
        seed,
        strategy,
        max_turns,
        tuple(strategies),
    )
    return Lab(plan, [label for label, _ in variants], tuple(notes), ablate)


def _rate_json(found: Rate) -> dict:
    return {
        "wins": found.wins,
        "games": found.games,
        "rate": found.rate,
        "low": found.low,
        "high": found.high,
    }


def _figures_json(found: Figures) -> dict:
    return {
        "games": found.games,
        "by_deck": {deck: _rate_json(r) for deck, r in found.by_deck.items()},
        "matchups": [
            {
                "deck": m.deck,
                "opponent": m.opponent,
                "win": _rate_json(m.win),
                "seat1": _rate_json(m.seat1),
                "seat2": _rate_json(m.seat2),
                "turn_caps": m.turn_caps,
                "average_turns": m.average_turns,
                "endings": _endings_json(m.endings),
                "seat_endings": [_endings_json(e) for e in m.seat_endings],
            }
            for m in found.matchups
        ],
        "turn_order": {
            setup: {
                "first_player": _rate_json(order.first),
                "first_food": order.first_food,
                "second_food": order.second_food,
            }
            for setup, order in ((BIDDING, found.bidding), (EQUAL_FOOD, found.equal_food))
        },
        "equal_food_by_deck": {
            deck: {"first": _rate_json(first), "second": _rate_json(second)}
            for deck, (first, second) in found.first_by_deck.items()
        },
        "cards": [
            {
                "name": card.name,
                "deck": card.deck,
                "in_deck": _rate_json(card.held),
                "drawn": _rate_json(card.drawn),
                "not_drawn": _rate_json(card.not_drawn),
                "opening_hand": _rate_json(card.opening),
                "played": _rate_json(card.played),
                "play_rate": _rate_json(card.play_rate),
                "drawn_gap": card.gap,
                "drawn_gap_interval": list(card.gap_interval),
                "drawn_minus_deck": card.relative,
                "enough_games": card.enough_games,
                "ability_used_games": card.used_games,
                "ability_uses": card.uses,
                "use": card.use,
            }
            for card in found.cards
        ],
        "never_played": found.never_played(),
        "never_used": found.never_used(),
    }


def _endings_json(found: Endings) -> dict:
    return {"lost": found.lost, "beat": found.beat, "turn_caps": found.turn_caps}


def _move_json(move: RateMove) -> dict:
    return {
        "what": move.what,
        "before": _rate_json(move.before),
        "after": _rate_json(move.after),
        "change": move.change,
        "interval": list(move.interval),
        "significant": move.significant,
    }


def _moves_json(found: Moves) -> dict:
    return {
        "variant": found.variant,
        "paired_games": found.paired,
        "winner_changed": found.winner_changed,
        "game_changed": found.game_changed,
        "changes_nothing": found.changes_nothing,
        "matchups": [_move_json(m) for m in found.matchups],
        "decks": [_move_json(m) for m in found.decks],
        "turn_order": _move_json(found.turn_order),
        "cards_played": [_move_json(m) for m in found.played],
        "cards_when_drawn": [_move_json(m) for m in found.cards],
    }
