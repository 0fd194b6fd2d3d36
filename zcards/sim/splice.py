"""Building blocks of the mutators: where a log may be cut, and how a cut is recorded."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from zcards.model import Card
from zcards.rules.cards import Effect, text_effects
from zcards.rules.violations import Kind as Violation
from zcards.sim.logview import final

FACE_DOWN = "a face-down card"


@dataclass(frozen=True)
class Mutation:
    """A mutated log and the 1-based line of the injected violation."""

    kind: Violation
    events: tuple[ev.Event, ...]
    line: int
    note: str


@dataclass(frozen=True)
class Book:
    """What a mutator knows besides the log: the card data and, when known, deck sizes."""

    cards: Mapping[str, Card]
    decks: Mapping[str, int] | None = None

    def flagged(self, *effects: Effect) -> set[str]:
        """Cards whose text the audit reads as possibly having one of ``effects`` (R16.1)."""
        return {name for name, card in self.cards.items() if text_effects(card.text) & set(effects)}

    def plain(self, card_type: str) -> list[str]:
        """Cards of a type whose text the audit cannot read as bending any rule."""
        return sorted(
            name
            for name, card in self.cards.items()
            if card.type == card_type and not text_effects(card.text)
        )

    def cost(self, name: str) -> int:
        card = self.cards.get(name)
        return card.cost or 0 if card else 0

    def deck_room(self, events: Sequence[ev.Event], player: str) -> int:
        """Cards left in ``player``'s deck at the end of the log (0 when sizes are unknown)."""
        if not self.decks or player not in self.decks:
            return 0
        side = final(events)[1].get(player)
        return self.decks[player] - (side.taken if side else 0)


Site = tuple[Callable[[], tuple[list[ev.Event], int]], str]


def insert(events: Sequence[ev.Event], index: int, *new: ev.Event) -> tuple[list, int]:
    """Put ``new`` before line ``index``; the violation is on the first new line."""
    return [*events[:index], *new, *events[index:]], index


def swap(events: Sequence[ev.Event], index: int, event: ev.Event) -> tuple[list, int]:
    return [*events[:index], event, *events[index + 1 :]], index


def delete(events: Sequence[ev.Event], index: int, report_at: int) -> tuple[list, int]:
    """Drop line ``index``; the violation shows at ``report_at`` (an index before deletion)."""
    return [*events[:index], *events[index + 1 :]], report_at - (report_at > index)


def pick(kind: Violation, sites: list[Site], rng: random.Random) -> Mutation | None:
    """Apply one of the candidate sites, numbering the lines of the new log from 1."""
    if not sites:
        return None
    make, note = rng.choice(sites)
    events, index = make()
    numbered = tuple(replace(event, line=number) for number, event in enumerate(events, 1))
    return Mutation(kind, numbered, index + 1, note)


def next_phase_line(events: Sequence[ev.Event], start: int) -> int | None:
    """The first phase change at or after ``start``, where end-of-phase checks report."""
    return next(
        (j for j in range(start, len(events)) if isinstance(events[j], ev.PhaseChange)), None
    )


def is_phase(event: ev.Event | None, new: str) -> bool:
    return isinstance(event, ev.PhaseChange) and event.new == new


def is_spend(event: ev.Event, player: str) -> bool:
    return (
        isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND and event.player == player
    )


def on_table(event: ev.Event, card: str) -> bool:
    """True for a line that acts on a table card named ``card`` (counters, functions, death)."""
    return isinstance(event, ev.CounterChange | ev.Perform | ev.TableToZone) and event.card == card


def acted_on(events: Sequence[ev.Event], start: int, card: str) -> bool:
    return any(on_table(event, card) for event in events[start:])
