"""The Zombie CCG game definition: the one source of truth for Lackey labels.

The plugin exporter renders ``plugininfo.txt`` from :data:`ZOMBIE_GAME`; the log parser and the
rules engine use the same object to learn what a logged label *means* (``performs Spend on X``
is a spend). Change a label here and both sides follow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Meaning(StrEnum):
    """What a plugin function or counter does in the rules, independent of its Lackey label."""

    SPEND = "spend"
    READY = "ready"
    WOUND = "wound"
    HEAL = "heal"
    INFECT = "infect"
    CURE = "cure"
    TO_COMBAT = "to_combat"
    LEAVE_COMBAT = "leave_combat"
    FLIP = "flip"
    TAKE_CONTROL = "take_control"
    NOTE = "note"
    DRAW = "draw"
    READY_ALL = "ready_all"
    NEXT_PHASE = "next_phase"
    NEXT_TURN = "next_turn"
    ROLL_D6 = "roll_d6"
    FLIP_COIN = "flip_coin"


@dataclass(frozen=True)
class Stat:
    label: str
    initial_value: int = 0
    meaning: str = ""


@dataclass(frozen=True)
class GameZone:
    label: str
    visible_to_owner: bool = False
    visible_to_others: bool = False
    shared: bool = False


@dataclass(frozen=True)
class DeckZone:
    label: str
    load_to: str
    shuffle: bool = True


@dataclass(frozen=True)
class Counter:
    """A coloured counter drawn on cards; ``meaning`` says what one counter of it stands for."""

    colour: str
    position_x: str
    position_y: str
    meaning: str


@dataclass(frozen=True)
class CardFunction:
    label: str
    kind: str
    meaning: Meaning
    description: str
    colour: str | None = None
    button: bool = True


@dataclass(frozen=True)
class GeneralFunction:
    label: str
    kind: str
    meaning: Meaning
    description: str
    button: bool = True


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

    @property
    def zone_labels(self) -> tuple[str, ...]:
        return tuple(zone.label for zone in self.game_zones)

    @property
    def stat_labels(self) -> tuple[str, ...]:
        return tuple(stat.label for stat in self.player_stats)

    def card_function(self, label: str) -> CardFunction | None:
        """The card function logged as ``label``, or None for a label this game does not have."""
        return _index(self.card_functions).get(label)

    def general_function(self, label: str) -> GeneralFunction | None:
        return _index(self.general_functions).get(label)

    def label_for(self, meaning: Meaning) -> str:
        """The Lackey label that performs ``meaning`` (the log writer needs the reverse lookup)."""
        for function in (*self.card_functions, *self.general_functions):
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


def _index(functions: Iterable[CardFunction | GeneralFunction]) -> dict:
    return {function.label: function for function in functions}


ZOMBIE_GAME = GameDefinition(
    name="zombieccg",
    player_stats=(Stat("Food", 10, "food total; upkeep and scavenging change it"),),
    phases=("Ready", "Draw", "Build", "Attack", "Recoup", "End"),
    game_zones=(
        GameZone("Hand", visible_to_owner=True),
        GameZone("Deck"),
        GameZone("Discard", visible_to_owner=True, visible_to_others=True),
        GameZone("Removed", visible_to_owner=True, visible_to_others=True),
    ),
    deck_zones=(DeckZone("Deck", load_to="Deck", shuffle=True),),
    counters=(
        Counter("red", ".75", ".04", "wounds on a survivor"),
        Counter("green", ".75", ".30", "infected token on a survivor"),
        Counter("orange", ".04", ".04", "the zombie stands in its owner's combat zone"),
    ),
    card_functions=(
        CardFunction(
            "Spend",
            "MAKERIGHT90DEGREES",
            Meaning.SPEND,
            "spend a card (pay a cost, use an ability, lose a fight)",
        ),
        CardFunction("Ready", "MAKERIGHT0DEGREES", Meaning.READY, "ready a spent card"),
        CardFunction("Wound", "ADDCOUNTER", Meaning.WOUND, "put a wound on a survivor", "red"),
        CardFunction("Heal", "REMOVECOUNTER", Meaning.HEAL, "remove a wound (Medic)", "red"),
        CardFunction(
            "Infect",
            "ADDCOUNTER",
            Meaning.INFECT,
            "put an Infected token on a survivor (Infectious)",
            "green",
        ),
        CardFunction("Cure", "REMOVECOUNTER", Meaning.CURE, "remove an Infected token", "green"),
        CardFunction(
            "To Combat",
            "ADDCOUNTER",
            Meaning.TO_COMBAT,
            "the zombie moves to its owner's combat zone",
            "orange",
        ),
        CardFunction(
            "Leave Combat",
            "REMOVECOUNTER",
            Meaning.LEAVE_COMBAT,
            "the zombie leaves the combat zone",
            "orange",
        ),
        CardFunction(
            "Flip", "TURNOVER", Meaning.FLIP, "turn a face-down zombie face up (upgrade it)"
        ),
        CardFunction(
            "Take Control",
            "CHANGEOWNER",
            Meaning.TAKE_CONTROL,
            "gain control of a card (an infected survivor that died)",
        ),
        CardFunction("Note", "EDITNOTE", Meaning.NOTE, "write a note on a card", button=False),
    ),
    general_functions=(
        GeneralFunction("Draw", "DRAWCARD", Meaning.DRAW, "draw one card"),
        GeneralFunction(
            "Ready All",
            "ALLYOURCARDSMAKERIGHT0DEGREES",
            Meaning.READY_ALL,
            "ready all your cards (Ready phase)",
        ),
        GeneralFunction("Next Phase", "NEXTPHASE", Meaning.NEXT_PHASE, "advance the phase"),
        GeneralFunction("Next Turn", "NEXTTURN", Meaning.NEXT_TURN, "pass the turn"),
        GeneralFunction("Roll d6", "ROLLD6", Meaning.ROLL_D6, "roll a die (Scavenger)"),
        GeneralFunction("Flip Coin", "FLIPCOIN", Meaning.FLIP_COIN, "flip a coin"),
    ),
    definitions=(Definition("ISYOURFACEDOWNVISIBLE", "yes"),),
)
