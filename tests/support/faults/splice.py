"""Building blocks of the mutators: where a log may be cut, and how a cut is recorded."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeGuard

from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.game.cardtext import read_text
from zcards.game.definition import Meaning
from zcards.game.effects import Effect, Timing

from .logview import final

FACE_DOWN = "a face-down card"
EVERYTHING = frozenset(Effect)
# What makes a fight end otherwise than by printed power: power, wounds, zombies moved.
FIGHT_TEXT = (
    Effect.WOUND,
    Effect.POWER,
    Effect.SET_POWER,
    Effect.NO_SOLO,
    Effect.TO_COMBAT,
    Effect.LEAVE_COMBAT,
    Effect.SPEND,
)


def _effects(card: Card) -> frozenset[Effect]:
    """What a card's text does, as the rows read it (markers aside)."""
    text = read_text(card)
    if not text.covered:
        return EVERYTHING
    return frozenset(row.effect for row in text.rows if row.timing is not Timing.MARKER)


@dataclass(frozen=True)
class Mutation:
    """A mutated log and the 1-based line of the injected violation."""

    kind: str  # a violation kind id (``zcards.game.catalogue.Kind`` or the contract's)
    events: tuple[ev.Event, ...]
    line: int
    note: str


@dataclass(frozen=True)
class Book:
    """What a mutator knows besides the log: the card data and, when known, deck sizes."""

    cards: Mapping[str, Card]
    decks: Mapping[str, int] | None = None

    def flagged(self, *effects: Effect) -> set[str]:
        """Cards whose text may have one of ``effects`` (their rows, or a text the rows do
        not cover: it may do anything, R16.1)."""
        return {name for name, card in self.cards.items() if _effects(card) & set(effects)}

    def plain(self, card_type: str) -> list[str]:
        """Cards of a type whose text bends no rule."""
        return sorted(
            name
            for name, card in self.cards.items()
            if card.type == card_type and not _effects(card)
        )

    def cost(self, name: str) -> int:
        card = self.cards.get(name)
        return card.cost or 0 if card else 0

    def power(self, name: str) -> int:
        card = self.cards.get(name)
        return card.power or 0 if card else 0

    def deck_room(self, events: Sequence[ev.Event], player: str) -> int:
        """Cards left in ``player``'s deck at the end of the log (0 when sizes are unknown)."""
        if not self.decks or player not in self.decks:
            return 0
        side = final(events)[1].get(player)
        return self.decks[player] - (side.taken if side else 0)


Cut = tuple[list[ev.Event], int]  # the mutated events and the index of the violation
Site = tuple[Callable[[], Cut], str]  # a cut made only when chosen, and what it does


def cut(
    events: Sequence[ev.Event],
    start: int,
    stop: int,
    *new: ev.Event,
    report_at: int | None = None,
) -> Cut:
    """Put ``new`` in place of lines ``start`` to ``stop`` (excluded); the violation shows at
    ``report_at`` (an index in the new list; the first new line by default)."""
    return [*events[:start], *new, *events[stop:]], start if report_at is None else report_at


def insert(events: Sequence[ev.Event], index: int, *new: ev.Event) -> Cut:
    """Put ``new`` before line ``index``; the violation is on the first new line."""
    return cut(events, index, index, *new)


def swap(events: Sequence[ev.Event], index: int, event: ev.Event) -> Cut:
    return cut(events, index, index + 1, event)


def delete(events: Sequence[ev.Event], index: int, report_at: int) -> Cut:
    """Drop line ``index``; the violation shows at ``report_at`` (an index before deletion)."""
    return cut(events, index, index + 1, report_at=report_at - (report_at > index))


def pick(kind: str, sites: list[Site], rng: random.Random) -> Mutation | None:
    """Apply one of the candidate sites, numbering the lines of the new log from 1."""
    if not sites:
        return None
    make, note = rng.choice(sites)
    events, index = make()
    return Mutation(kind, tuple(numbered(events)), index + 1, note)


def numbered(events: Sequence[ev.Event]) -> Iterator[ev.Event]:
    """Lines numbered from 1; in a stamped log an injected line takes the stamp before it."""
    stamp: ev.Event | None = None
    for number, event in enumerate(events, 1):
        if event.timestamp is None and stamp is not None:
            event = replace(event, timestamp=stamp.timestamp, seconds=stamp.seconds)
        stamp = event if event.timestamp is not None else stamp
        yield replace(event, line=number)


def next_phase_line(events: Sequence[ev.Event], start: int) -> int | None:
    """The first phase change at or after ``start``, where end-of-phase checks report."""
    return next(
        (j for j in range(start, len(events)) if isinstance(events[j], ev.PhaseChange)), None
    )


def is_phase(event: ev.Event | None, new: str) -> TypeGuard[ev.PhaseChange]:
    return isinstance(event, ev.PhaseChange) and event.new == new


def is_spend(event: ev.Event | None, player: str) -> TypeGuard[ev.Perform]:
    return (
        isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND and event.player == player
    )


def on_table(event: ev.Event, card: str) -> bool:
    """True for a line that acts on a table card named ``card`` (counters, functions, death)."""
    return isinstance(event, ev.CounterChange | ev.Perform | ev.TableToZone) and event.card == card


def acted_on(events: Sequence[ev.Event], start: int, card: str) -> bool:
    return any(on_table(event, card) for event in events[start:])
