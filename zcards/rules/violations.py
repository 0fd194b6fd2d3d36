"""The violation kinds the audit detects: stable ids, the rule each cites, one-line meaning.

The ids are a public contract (JSON output, the simulator's mutators, tests key on them);
rule numbers refer to ``docs/rules.md``. A finding may cite a more specific rule than its
kind's primary one (``rules`` lists every rule a kind can cite).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """Stable violation ids."""

    DRAW_COUNT = "draw-count"
    RESOURCE_PLAY = "resource-play"
    CARD_PLAY = "card-play"
    OPENING_SURVIVORS = "opening-survivors"
    PHASE_ORDER = "phase-order"
    ILLEGAL_ATTACKER = "illegal-attacker"
    COMBAT_RESULT = "combat-result"
    FOOD_UPKEEP = "food-upkeep"
    INFECTION_WOUND = "infection-wound"
    ZOMBIE_UPGRADE = "zombie-upgrade"
    SCAVENGE_FOOD = "scavenge-food"
    ABILITY_USE = "ability-use"
    ACTION_AFTER_LOSS = "action-after-loss"
    DEAD_SURVIVOR = "dead-survivor"
    FOOD_TOTAL = "food-total"
    BID_RANGE = "bid-range"
    BID_FOOD = "bid-food"
    OPENING_SHUFFLE = "opening-shuffle"
    TURN_ORDER = "turn-order"
    COMBAT_MOVE = "combat-move"
    SCAVENGE_PENALTY = "scavenge-penalty"
    DECK_TO_RESOURCE = "deck-to-resource"


@dataclass(frozen=True)
class ViolationKind:
    kind: Kind
    number: int  # its row in the table of violations at the end of docs/rules.md
    rule: str  # primary rule in docs/rules.md
    rules: tuple[str, ...]  # every rule a finding of this kind may cite
    description: str


VIOLATION_KINDS: tuple[ViolationKind, ...] = (
    ViolationKind(
        Kind.DRAW_COUNT,
        1,
        "R5.1",
        ("R5.1", "R5.2"),
        "a player draws other than 2, or discards other than 1, in a Draw phase",
    ),
    ViolationKind(
        Kind.RESOURCE_PLAY,
        2,
        "R6.1",
        ("R6.1", "R6.2"),
        "two resource plays by one player in a turn, or a resource play outside Build",
    ),
    ViolationKind(
        Kind.CARD_PLAY,
        3,
        "R7.3",
        ("R7.1", "R7.2", "R7.3"),
        "a survivor or item played with fewer spends than its cost, by a non-active"
        " player, or outside the Build phase",
    ),
    ViolationKind(
        Kind.OPENING_SURVIVORS,
        4,
        "R2.4",
        ("R2.4",),
        "opening survivors costing more than 6 in total, or a non-survivor (or a card"
        " not from the deck) put out at setup",
    ),
    ViolationKind(
        Kind.PHASE_ORDER,
        5,
        "R3.2",
        ("R3.2",),
        "phases out of order (skipped or repeated); moving back is only a warning",
    ),
    ViolationKind(
        Kind.ILLEGAL_ATTACKER,
        6,
        "R10.1",
        ("R10.1",),
        "a spent zombie, or one not in the combat zone, taking part in an attack",
    ),
    ViolationKind(
        Kind.COMBAT_RESULT,
        7,
        "R10.8",
        ("R10.5", "R10.8"),
        "a survivor wounded or killed in the Attack phase with no attackers able to cause it",
    ),
    ViolationKind(
        Kind.FOOD_UPKEEP,
        8,
        "R12.5",
        ("R12.5",),
        "food upkeep not paid at the end of Recoup, or starvation wounds missing",
    ),
    ViolationKind(
        Kind.INFECTION_WOUND,
        9,
        "R4.2",
        ("R4.2",),
        "an infected survivor not wounded in the Ready phase",
    ),
    ViolationKind(
        Kind.ZOMBIE_UPGRADE,
        10,
        "R8.1",
        ("R8.1", "R8.2", "R8.3"),
        "a zombie upgraded (flipped face up) without its requirement or outside"
        " Build, or a non-zombie flipped",
    ),
    ViolationKind(
        Kind.SCAVENGE_FOOD,
        11,
        "R12.2",
        ("R12.2",),
        "a Scavenger roll of 1 credited with food, or food gained without a successful roll",
    ),
    ViolationKind(
        Kind.ABILITY_USE,
        12,
        "R12.1",
        ("R12.1",),
        "a Medic or Scavenger ability used outside Recoup or without spending the ready survivor",
    ),
    ViolationKind(
        Kind.ACTION_AFTER_LOSS,
        13,
        "R14.2",
        ("R14.2",),
        "an action by a player after he lost (no survivors, or empty deck)",
    ),
    ViolationKind(
        Kind.DEAD_SURVIVOR,
        14,
        "R11.1",
        ("R11.1",),
        "a survivor that reached its Health in wounds stays in play",
    ),
    ViolationKind(
        Kind.FOOD_TOTAL,
        15,
        "R1.8",
        ("R1.8",),
        "a food change whose 'from' value contradicts the tracked food total (an unlogged"
        " change: only ever unverifiable, R17.4)",
    ),
    ViolationKind(
        Kind.BID_RANGE,
        16,
        "R2.1",
        ("R2.1",),
        "a bid below 0 or above 10",
    ),
    ViolationKind(
        Kind.BID_FOOD,
        17,
        "R2.2",
        ("R2.2",),
        "the bid winner's starting food is not his bid, or another player's is not 10",
    ),
    ViolationKind(
        Kind.OPENING_SHUFFLE,
        18,
        "R2.4",
        ("R2.4",),
        "a player who put out opening survivors did not shuffle his deck afterwards",
    ),
    ViolationKind(
        Kind.TURN_ORDER,
        19,
        "R3.4",
        ("R3.4",),
        "a turn taken by another player than the next one in turn order who has not lost",
    ),
    ViolationKind(
        Kind.COMBAT_MOVE,
        20,
        "R9.1",
        ("R9.1",),
        "a zombie moved to the combat zone outside the Recoup phase of its controller's own"
        " turn, or without being spent",
    ),
    ViolationKind(
        Kind.SCAVENGE_PENALTY,
        21,
        "R12.2",
        ("R12.2",),
        "after a Scavenger roll of 1, a zombie player did not put the top card of his deck"
        " into his resource zone",
    ),
    ViolationKind(
        Kind.DECK_TO_RESOURCE,
        22,
        "R6.3",
        ("R6.3", "R12.2"),
        "a face-down card put from a deck onto the table that no Scavenger roll of 1 owed",
    ),
)

KINDS: dict[Kind, ViolationKind] = {entry.kind: entry for entry in VIOLATION_KINDS}


def kind_info(kind: Kind | str) -> ViolationKind:
    """The table entry for a kind id (``"draw-count"`` or ``Kind.DRAW_COUNT``)."""
    return KINDS[Kind(kind)]
