"""Card text as data: the typed vocabulary of card effects and the rows that use it.

Each row of ``effects.toml`` is one effect of one ability: the *clause* of card text it reads
(``{self}`` stands for the card's own name), when it happens (:class:`Timing`), what it costs
(:class:`Cost`), whom it concerns (:class:`Target`), what it does (:class:`Effect`, with an
``amount``) and under which :class:`Condition`. A row applies to every card whose text
contains its clause, so a new set adds rows, not code. Rows of one card with the same clause
are one ability (one use, several effects).

How a card's text is read into rows, sentence by sentence (rows, the grammar of common
phrasings, keywords restated, flavour), is :mod:`zcards.game.cardtext`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from zcards.cards.model import FACTIONS, KEYWORDS
from zcards.game.definition import PHASES

EFFECTS_FILE = Path(__file__).with_name("effects.toml")


class Timing(StrEnum):
    """When an effect happens."""

    STATIC = "static"  # while the card is face up on its controller's table
    ACTIVATED = "activated"  # its controller pays the cost, in ``phase``
    YOUR_PHASE = "your-phase"  # in ``phase`` of its controller's turn, while it is in play
    ONE_SHOT = "one-shot"  # a one-shot item, as it is played (then discarded)
    WINS_FIGHT = "wins-fight"  # when the card wins a fight
    LOSES_FIGHT = "loses-fight"  # when the card loses a fight
    DIES = "dies"  # when the survivor dies
    TURNED_UP = "turned-up"  # when the zombie is turned face up
    MOVED_TO_COMBAT = "moved-to-combat"  # when the zombie is moved to the combat zone
    BEGIN_ATTACK = "begin-attack"  # at the begin attack step
    HEALS = "heals"  # when the card removes a wound counter
    MARKER = "marker"  # what the card is (permanent, one-shot, barricade): nothing happens


class Cost(StrEnum):
    """What using an activated ability (or a triggered "you may ...: ") costs."""

    NONE = "none"
    SPEND_SELF = "spend-self"
    SPEND_SELF_AND_SURVIVOR = "spend-self-and-survivor"  # and a ready survivor you control
    SPEND_SELF_AND_SCAVENGER = "spend-self-and-scavenger"  # and a Scavenger survivor of yours
    SPEND_SELF_AND_DISCARD = "spend-self-and-discard"  # and discard a card from the hand
    SPEND_SELF_AND_DISCARD_ITEM = "spend-self-and-discard-item"  # and an Item from the hand
    DISCARD_SELF = "discard-self"


class Target(StrEnum):
    """Whom an effect concerns, seen from the card's controller."""

    SELF = "self"  # the card itself
    HOST = "host"  # the survivor the item is attached to
    YOU = "you"  # its controller (his food, hand, deck, resource zone)
    SURVIVOR_PLAYER = "survivor-player"  # the active player (his food)
    SURVIVOR = "survivor"  # a target survivor, anyone's
    YOUR_SURVIVOR = "your-survivor"  # a survivor of its controller
    YOUR_OTHER_SURVIVORS = "your-other-survivors"  # each other survivor of its controller
    INFECTED_SURVIVOR = "infected-survivor"  # a survivor with an Infected token
    INFECTED_SURVIVORS = "infected-survivors"  # every survivor with an Infected token
    DEFENDER = "defender"  # the survivor in the card's fight
    INFECTED_DEFENDER = "infected-defender"  # the survivor in its fight, if infected
    ATTACKING_ZOMBIE = "attacking-zombie"  # a ready zombie in a combat zone, this Attack
    ZOMBIE_IN_COMBAT = "zombie-in-combat"  # a zombie in a combat zone
    FIGHTING_ZOMBIES = "fighting-zombies"  # the zombies fighting this survivor
    WEIRD_FIGHTING = "weird-fighting"  # Weird zombies fighting this survivor
    FAST_FIGHTING_YOURS = "fast-fighting-yours"  # Fast zombies fighting its controller's
    FACE_DOWN_FIGHTING_YOURS = "face-down-fighting-yours"  # face-down ones, likewise
    YOUR_FACE_DOWN_IN_COMBAT = "your-face-down-in-combat"
    YOUR_EX_SURVIVORS = "your-ex-survivors"  # ex-survivor zombies (R11.3) of its controller
    SCAVENGERS = "scavengers"  # every Scavenger survivor
    BARRICADES = "barricades"  # Barricade items
    ITEMS = "items"  # every item


class Effect(StrEnum):
    """What an effect does; ``amount`` says how much where a number is involved."""

    POWER = "power"  # power + amount
    SET_POWER = "set-power"  # power becomes amount
    HEALTH = "health"  # Health + amount
    WOUND = "wound"  # amount wounds
    HEAL = "heal"  # amount wound counters removed
    CURE = "cure"  # the Infected token removed
    INFECT = "infect"  # an Infected token put on
    FOOD = "food"  # amount food gained (lost when negative)
    DRAW = "draw"  # amount cards drawn
    DISCARD = "discard"  # amount cards discarded from the hand
    DECK_TO_RESOURCE = "deck-to-resource"  # the deck's top card, face down, resource zone
    EXTRA_RESOURCE = "extra-resource"  # amount more cards from the hand to the resource zone
    DISCARD_TO_RESOURCE = "discard-to-resource"  # a Zombie from the discard pile, likewise
    ITEM_TO_HAND = "item-to-hand"  # an Item from the discard pile back to the hand
    SPEND = "spend"  # up to amount zombies spent
    DISCARD_ZOMBIE = "discard-zombie"  # up to amount zombies discarded
    LEAVE_COMBAT = "leave-combat"  # the zombie leaves the combat zone
    TO_COMBAT = "to-combat"  # the zombie moves to the combat zone, ready
    DISCARD_INSTEAD = "discard-instead"  # losing zombies are discarded, not spent
    KEYWORD = "keyword"  # gains ``keyword``
    LOOK = "look"  # looks at or reorders cards: nothing a rule or a log line shows
    PERMANENT = "permanent"  # marker: stays on the table
    ONE_SHOT = "one-shot"  # marker: discarded as soon as used (R7.5)
    BARRICADE = "barricade"  # marker: the item is a Barricade
    # Prohibitions: they only ever forbid.
    NO_MEDIC_HEAL = "no-medic-heal"  # Medic survivors cannot remove its wounds
    NO_INFECTION = "no-infection"  # cannot be infected
    NO_OVERWHELM = "no-overwhelm"  # zombies fighting it cannot overwhelm it
    NO_WEAK_DEFENDERS = "no-weak-defenders"  # survivors with 1 power cannot fight it
    NO_BLOCKING = "no-blocking"  # the survivor player cannot assign survivors to fight it
    NO_SOLO = "no-solo"  # cannot be the only zombie in a fight (else power ``amount``)
    MUST_FIGHT = "must-fight"  # a chosen survivor must fight it this turn
    NO_TARGETING = "no-targeting"  # survivor cards and items cannot target it
    NO_SURVIVOR_SPENDS = "no-survivor-spends"  # survivor cards cannot spend it
    NO_SCAVENGING = "no-scavenging"  # Scavenger survivors cannot attract attention
    NO_BARRICADES = "no-barricades"  # Barricade items have no effect on its fights
    NO_ITEM_POWER = "no-item-power"  # items give a survivor no power in its fights


class Condition(StrEnum):
    """When a static effect holds; ``count`` is its number where it has one."""

    ALWAYS = "always"
    FIGHTING_WOUNDED = "fighting-wounded"  # its fight's survivor has a wound
    FIGHTING_FAST = "fighting-fast"  # a Fast zombie is in its fight
    ANOTHER_OF_FACTION = "another-of-faction"  # another ``faction`` zombie in its fight
    PER_OTHER_OF_FACTION = "per-other-of-faction"  # for each other ``faction`` one there
    ALONE = "alone"  # the only zombie in its fight
    ZOMBIES_AT_LEAST = "zombies-at-least"  # its controller controls ``count`` zombies
    PER_OTHER_ZOMBIES = "per-other-zombies"  # for every ``count`` other zombies he controls
    SURVIVORS_AT_LEAST = "survivors-at-least"  # he controls ``count`` survivors
    ITEM_IN_DISCARD = "item-in-discard"  # an Item is in his discard pile
    FOOD_BELOW_SURVIVORS = "food-below-survivors"  # he has fewer food than survivors
    CONTROLS_BARRICADE = "controls-barricade"
    OTHER_SURVIVOR_READY = "other-survivor-ready"  # another survivor of his is ready
    NO_WOUNDED_SURVIVORS = "no-wounded-survivors"  # no survivor of his is wounded
    IN_COMBAT_ZONE = "in-combat-zone"  # the card is in a combat zone
    THIS_TURN = "this-turn"  # until the end of the turn it was used in


@dataclass(frozen=True)
class Row:
    """One effect of one ability of every card whose text contains ``clause``."""

    clause: str
    timing: Timing
    effect: Effect
    target: Target = Target.SELF
    amount: int = 0
    condition: Condition = Condition.ALWAYS
    count: int = 0
    faction: str | None = None
    keyword: str | None = None
    phase: str | None = None
    cost: Cost = Cost.NONE
    optional: bool = False
    note: str = ""

    def text_for(self, name: str) -> str:
        """The clause as it reads on the card called ``name``."""
        return self.clause.replace("{self}", name)


_ENUMS: dict[str, type[StrEnum]] = {
    "timing": Timing,
    "effect": Effect,
    "target": Target,
    "condition": Condition,
    "cost": Cost,
}
_FIELDS = {f.name for f in fields(Row)}


def parse_row(raw: object, where: str) -> Row:
    """One row of an effects file, validated; ``where`` names it in an error."""
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a row is a table of fields")
    unknown = set(raw) - _FIELDS
    if unknown:
        raise ValueError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    values: dict[str, Any] = dict(raw)
    for name, enum in _ENUMS.items():
        if name in values:
            try:
                values[name] = enum(str(values[name]))
            except ValueError:
                raise ValueError(
                    f"{where}: {name} {values[name]!r} is not one of {', '.join(enum)}"
                ) from None
    missing = {"clause", "timing", "effect"} - set(values)
    if missing:
        raise ValueError(f"{where}: no {sorted(missing)[0]!r}")
    try:
        row = Row(**values)
    except TypeError as error:
        raise ValueError(f"{where}: {error}") from None
    if row.phase is not None and row.phase not in PHASES:
        raise ValueError(f"{where}: phase {row.phase!r} is not a phase")
    if row.faction is not None and row.faction not in FACTIONS:
        raise ValueError(f"{where}: faction {row.faction!r} is not a faction")
    if row.keyword is not None and row.keyword not in KEYWORDS:
        raise ValueError(f"{where}: keyword {row.keyword!r} is not a keyword")
    if (row.timing in (Timing.ACTIVATED, Timing.YOUR_PHASE)) != (row.phase is not None):
        raise ValueError(
            f"{where}: an activated or your-phase ability, and only one, names its phase"
        )
    return row


def rows_of(data: str, where: str) -> tuple[Row, ...]:
    """The rows of an effects file's text (TOML, ``[[row]]`` tables)."""
    try:
        parsed = tomllib.loads(data)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{where}: {error}") from None
    raws = parsed.get("row", [])
    if not isinstance(raws, list):
        raise ValueError(f"{where}: 'row' must be a list of [[row]] tables")
    return tuple(parse_row(raw, f"{where}, row {i + 1}") for i, raw in enumerate(raws))


@cache
def load_rows(path: Path = EFFECTS_FILE) -> tuple[Row, ...]:
    """Every row of an effects file, validated (a misspelt name is an error naming the row)."""
    return rows_of(path.read_text(encoding="utf-8"), path.name)


def row_fields(row: Row) -> dict[str, object]:
    """A row as the fields an effects file gives it (defaults left out)."""
    values: dict[str, object] = {}
    for spec in fields(Row):
        value = getattr(row, spec.name)
        if value != spec.default:
            values[spec.name] = str(value) if isinstance(value, StrEnum) else value
    return values
