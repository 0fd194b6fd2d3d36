"""A Lackey game's definition as data: zones, phases, stats, counters and functions.

A plugin's ``plugininfo.txt`` is rendered from a :class:`GameDefinition`
(:mod:`lackey_plugin.plugininfo`), and the log parser learns from one what a logged label
*means*: each function may carry a ``meaning``, any value the application chooses (Zombie CCG
uses a string enum), and a parsed event carries the label and the meaning the definition
assigns to it. Nothing here knows a particular game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeVar

Options = tuple[tuple[str, str], ...]
"""Further child tags of a block, ``(tag, value)`` in file order, kept as they were (a
TRANSFERCARD's source and destination, say), so that a parsed plugininfo re-renders whole."""


@dataclass(frozen=True)
class Stat:
    """A player (or global) stat; ``meaning`` describes it for people. ``initial_value``
    None: the plugininfo names none (Lackey starts at 0)."""

    label: str
    initial_value: int | None = 0
    meaning: str = ""


@dataclass(frozen=True)
class GameZone:
    """A zone on the table. A flag of None is not written (Lackey's default applies), so a
    parsed plugininfo is rendered with exactly the tags it had."""

    label: str
    visible_to_owner: bool | None = False
    visible_to_others: bool | None = False
    shared: bool | None = None


@dataclass(frozen=True)
class DeckZone:
    """A deck section and the game zone it loads to. ``legacy_tag``: the plugin spells the
    target with the older ``<zonetoloadto>``; ``load_to`` None: no target tag at all."""

    label: str
    load_to: str | None
    shuffle: bool | None = True
    legacy_tag: bool = False


@dataclass(frozen=True)
class Counter:
    """A coloured counter drawn on cards; ``meaning`` says what one counter of it stands for."""

    colour: str
    position_x: str
    position_y: str
    meaning: str


@dataclass(frozen=True)
class CardFunction:
    """A card menu function; ``meaning`` says what it does in the rules (None: unknown)."""

    label: str
    kind: str
    meaning: str | None = None
    description: str = ""
    colour: str | None = None
    button: bool | None = True
    position: tuple[str, str] | None = None
    """Where its counter is drawn on the card (``PositionX``, ``PositionY``), if named."""


@dataclass(frozen=True)
class GeneralFunction:
    """A table function (a button); ``meaning`` as for :class:`CardFunction`."""

    label: str
    kind: str
    meaning: str | None = None
    description: str = ""
    button: bool | None = True
    options: Options = ()


@dataclass(frozen=True)
class Definition:
    kind: str
    value: str | None = None


@dataclass(frozen=True)
class GameDefinition:
    """Zones, phases, stats, counters and functions of one Lackey game."""

    name: str
    player_stats: tuple[Stat, ...]
    phases: tuple[str, ...]
    game_zones: tuple[GameZone, ...]
    deck_zones: tuple[DeckZone, ...]
    counters: tuple[Counter, ...]
    card_functions: tuple[CardFunction, ...]
    general_functions: tuple[GeneralFunction, ...]
    definitions: tuple[Definition, ...] = field(default_factory=tuple)
    global_stats: tuple[Stat, ...] = field(default_factory=tuple)

    @property
    def zone_labels(self) -> tuple[str, ...]:
        return tuple(zone.label for zone in self.game_zones)

    @property
    def stat_labels(self) -> tuple[str, ...]:
        return tuple(stat.label for stat in self.player_stats)

    def card_function(self, label: str) -> CardFunction | None:
        """The card function logged as ``label``, or None for a label this game does not have."""
        return _index(self.card_functions).get(label)

    @property
    def functions(self) -> tuple[CardFunction | GeneralFunction, ...]:
        """Every function, card functions first."""
        return (*self.card_functions, *self.general_functions)

    def meanings(self) -> dict[str, str]:
        """Label -> meaning of every function that has one (a card function wins a clash with
        a general function of the same label)."""
        functions: tuple[CardFunction | GeneralFunction, ...] = (
            *self.general_functions,
            *self.card_functions,
        )
        return {f.label: f.meaning for f in functions if f.meaning is not None}

    def label_for(self, meaning: str) -> str:
        """The Lackey label that performs ``meaning`` (the log writer needs the reverse lookup)."""
        for function in self.functions:
            if function.meaning == meaning:
                return function.label
        raise KeyError(meaning)

    def counter(self, colour: str) -> Counter:
        for counter in self.counters:
            if counter.colour == colour:
                return counter
        raise KeyError(colour)

    def phase_index(self, label: str) -> int:
        return self.phases.index(label)


FunctionT = TypeVar("FunctionT", CardFunction, GeneralFunction)


def _index(functions: Iterable[FunctionT]) -> dict[str, FunctionT]:
    return {function.label: function for function in functions}
