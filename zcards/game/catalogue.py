"""The rule catalogue: every violation kind the audit reports and every warning topic, once.

Each kind has a stable id (a public contract: the JSON output, the simulator's mutators and
the tests key on it), the rule of ``docs/rules.md`` it cites first, every rule a finding of
that kind may cite, a short text and where in a log it is reported. The tables of
``docs/rules.md`` and ``docs/audit.md`` and the kind list of ``docs/audit-schema.json`` are
generated from this module (``python scripts/rule_docs.py --write``); a test fails when they
are out of date. Kinds and topics are enums, so a misspelt one is a type error.
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
    OPENING_HAND = "opening-hand"
    FOOD_LOSS = "food-loss"
    READYING = "readying"


@dataclass(frozen=True)
class ViolationKind:
    """One kind: the rule it cites first, every rule it may cite, what it means, and the
    line a finding of it is reported at."""

    kind: Kind
    rule: str
    rules: tuple[str, ...]
    text: str
    reported_at: str


VIOLATION_KINDS: tuple[ViolationKind, ...] = (
    ViolationKind(
        Kind.DRAW_COUNT,
        "R5.1",
        ("R5.1", "R5.2", "R5.3"),
        "a player draws other than 2 (R5.1), or discards other than 1 (R5.2), in a Draw "
        "phase, or draws outside it without card text (R5.3)",
        "the third draw / second discard; missing ones at the line ending the Draw phase; a "
        "draw outside the Draw phase at its line",
    ),
    ViolationKind(
        Kind.RESOURCE_PLAY,
        "R6.1",
        ("R6.1", "R6.2"),
        "a second resource play in a turn (R6.1), or one outside Build (R6.2)",
        "the second face-down play from the hand in a turn, or one outside Build",
    ),
    ViolationKind(
        Kind.CARD_PLAY,
        "R7.3",
        ("R7.1", "R7.2", "R7.3"),
        "a survivor or item played with too few ready zombies spent (R7.3), by a non-active "
        "player (R7.1) or outside Build (R7.2)",
        "the play line; underpayment when Build ends, at the first spend of a card that was "
        "not ready, else at the play",
    ),
    ViolationKind(
        Kind.OPENING_SURVIVORS,
        "R2.4",
        ("R2.4",),
        "opening survivors costing more than 6, a non-survivor, or one not from the deck",
        "the opening play that breaks the budget, a non-survivor, or a play from the hand",
    ),
    ViolationKind(
        Kind.PHASE_ORDER,
        "R3.2",
        ("R3.2",),
        "a phase skipped or repeated (moving back is a warning, R3.3)",
        "the phase or turn line that skips or repeats a phase",
    ),
    ViolationKind(
        Kind.ILLEGAL_ATTACKER,
        "R10.1",
        ("R10.1",),
        "a spent zombie, or one outside the combat zone, taking part in an attack",
        "a zombie player's spend in the Attack phase with no such ready zombie in his combat zone",
    ),
    ViolationKind(
        Kind.COMBAT_RESULT,
        "R10.5",
        ("R10.5", "R10.6", "R10.8", "R16.1"),
        "fight results no assignment of the attackers to fights can give: a wound, kill or "
        "lost fight the attackers cannot cause (R10.8), an overwhelmed survivor only wounded "
        "or a Fierce wound missing (R10.5), a zombie that lost its fight winning another "
        "(R10.6), an Infected token on a survivor whose text forbids it (R16.1); a wound no "
        "fight, infection, starvation or card text explains (R10.8)",
        "the line no assignment can explain; a result left incomplete at the line ending the "
        "Attack phase; an unexplained wound outside the Attack phase, or a forbidden Infected "
        "token, at its line",
    ),
    ViolationKind(
        Kind.FOOD_UPKEEP,
        "R12.5",
        ("R12.5",),
        "upkeep food not paid at the end of Recoup, starvation wounds missing, or more "
        "wounds in the active player's Recoup than starvation and card text give",
        "the line ending the Recoup phase; the first wound beyond what is owed",
    ),
    ViolationKind(
        Kind.INFECTION_WOUND,
        "R4.2",
        ("R4.2",),
        "an infected survivor not wounded in the Ready phase, or taken over in it without "
        "that wound, or a Ready-phase wound no Infected token gives",
        "the line ending the Ready phase, or the take-over line of a survivor that did not get it",
    ),
    ViolationKind(
        Kind.ZOMBIE_UPGRADE,
        "R8.1",
        ("R8.1", "R8.2", "R8.3"),
        "a zombie upgraded without its requirement (R8.1), outside Build (R8.2), or a "
        "non-zombie flipped (R8.3)",
        "the `Flip` line",
    ),
    ViolationKind(
        Kind.SCAVENGE_FOOD,
        "R12.2",
        ("R12.2", "R16.1"),
        "a Scavenger roll of 1 credited with food, or food gained without a successful roll "
        "(R12.2) or with card text whose cost was not paid (Chef Antoine's Item, R16.1)",
        "the food line",
    ),
    ViolationKind(
        Kind.ABILITY_USE,
        "R12.1",
        ("R12.1", "R12.3", "R16.1"),
        "a Medic or Scavenger ability used outside Recoup or without spending the ready "
        "survivor (R12.1, R12.3), a Medic removing a wound card text forbids it to (Ex-Con "
        "Dwayne), or a Scavenger attracting attention where card text forbids it (Carrion "
        "Crows, R16.1)",
        "the `Heal` line, the food line of a roll made outside Recoup or without a "
        "Scavenger spend, or the roll card text forbids",
    ),
    ViolationKind(
        Kind.ACTION_AFTER_LOSS,
        "R14.2",
        ("R14.2",),
        "any game action by a player after he lost",
        "every game action of a player after he lost",
    ),
    ViolationKind(
        Kind.DEAD_SURVIVOR,
        "R11.1",
        ("R11.1", "R11.3"),
        "a survivor whose wounds reached its Health stays in play (R11.1), an infected "
        "survivor that died goes to the discard pile instead of its infecter, or a survivor "
        "taken over that was not infected or is alive (R11.3)",
        "the end of the phase (or a spend or heal of the dead survivor); the discard line; the "
        "`Take Control` line",
    ),
    ViolationKind(
        Kind.FOOD_TOTAL,
        "R1.8",
        ("R1.8",),
        'a food change whose "from" value contradicts the tracked food total: an unlogged '
        "change (R17.4), only ever *unverifiable*",
        'never a violation: the food line whose "from" value is wrong is unverifiable (R17.4)',
    ),
    ViolationKind(
        Kind.BID_RANGE,
        "R2.1",
        ("R2.1",),
        "a bid below 0 or above 10",
        "the chat line of the bid",
    ),
    ViolationKind(
        Kind.BID_FOOD,
        "R2.2",
        ("R2.2",),
        "the bid winner's starting food is not his bid, or another player's is not 10",
        "the setup `Food` line that sets a wrong starting food; if none sets it, the line "
        "that ends setup",
    ),
    ViolationKind(
        Kind.OPENING_SHUFFLE,
        "R2.4",
        ("R2.4",),
        "a player who put out opening survivors did not shuffle his deck afterwards",
        "the line that ends setup",
    ),
    ViolationKind(
        Kind.TURN_ORDER,
        "R13.2",
        ("R13.2",),
        "a turn taken by another player than the next one in turn order who has not lost",
        "the turn line",
    ),
    ViolationKind(
        Kind.COMBAT_MOVE,
        "R9.1",
        ("R9.1",),
        "a zombie moved to the combat zone outside the Recoup phase of its controller's "
        "turn, or without being spent",
        "the `To Combat` line",
    ),
    ViolationKind(
        Kind.SCAVENGE_PENALTY,
        "R12.2",
        ("R12.2",),
        "after a Scavenger roll of 1, a zombie player did not put his deck's top card into "
        "his resource zone",
        "the line ending that Recoup phase",
    ),
    ViolationKind(
        Kind.DECK_TO_RESOURCE,
        "R6.3",
        ("R6.3", "R12.2"),
        "a face-down card put from a deck onto the table that no Scavenger roll of 1 (or "
        "card text) owed (R6.3, R12.2)",
        "the `plays a face down card from the top of his Deck.` line",
    ),
    ViolationKind(
        Kind.OPENING_HAND,
        "R2.3",
        ("R2.3",),
        "an opening hand of more than 7 cards",
        "the setup draw that goes past 7 cards",
    ),
    ViolationKind(
        Kind.FOOD_LOSS,
        "R12.5",
        ("R1.8", "R12.5"),
        "food lost without upkeep or card text: upkeep paid by a non-active player, twice or "
        "more than 1 (R12.5), or food taken below 0 (R1.8, R12.5)",
        "the food line",
    ),
    ViolationKind(
        Kind.READYING,
        "R4.1",
        ("R4.1",),
        "a card readied outside the Ready phase without card text: spent in an earlier phase, "
        "or a zombie that is not Fast readied as it arrives in the combat zone (R4.1, R9.2)",
        "the `Ready` line",
    ),
)

KINDS: dict[Kind, ViolationKind] = {entry.kind: entry for entry in VIOLATION_KINDS}


def kind_info(kind: Kind | str) -> ViolationKind:
    """The catalogue entry of a kind id (``"draw-count"`` or ``Kind.DRAW_COUNT``)."""
    return KINDS[Kind(kind)]


class Topic(StrEnum):
    """Warning topics: what breaks no rule but is worth saying."""

    CORRECTION = "correction"
    RESYNC = "resync"
    PHASE_LAG = "phase-lag"
    PHASE_BACK = "phase-back"
    SAVED_GAME = "saved-game"
    MID_GAME = "mid-game"
    READY_ALL = "ready-all"
    TABLE = "table"
    TURN_NUMBER = "turn-number"
    TURN_LINE = "turn-line"
    PHASE_SYNC = "phase-sync"
    CARD_EFFECT = "card-effect"
    FLIP = "flip"
    FUNCTION = "function"
    SPAWN = "spawn"
    FOOD = "food"
    PHASE = "phase"


TOPICS: dict[Topic, str] = {
    Topic.CORRECTION: "a misclick undone at once, R17.3",
    Topic.RESYNC: "an unlogged change, R17.4",
    Topic.PHASE_LAG: "an action logged just before its phase line, R17.5",
    Topic.PHASE_BACK: "R3.3",
    Topic.SAVED_GAME: "R17.8",
    Topic.MID_GAME: "the log does not show the game's start, R17.9",
    Topic.READY_ALL: "a missing `Ready All`, or one outside the Ready phase",
    Topic.TABLE: "a line about a card not seen on the table",
    Topic.TURN_NUMBER: "a turn number out of sequence",
    Topic.TURN_LINE: "a turn line naming the wrong player, read as a misclick, R17.10",
    Topic.PHASE_SYNC: "phase lines missing",
    Topic.CARD_EFFECT: "a card put on the table by card text",
    Topic.FLIP: "a face change the audit cannot follow",
    Topic.FUNCTION: "an unknown card function",
    Topic.SPAWN: "a spawned card",
    Topic.FOOD: "a food line the audit cannot follow",
    Topic.PHASE: "an unknown phase name",
}


# The short text of every rule a finding may cite, quoted word for word from docs/rules.md
# (emphasis left out); a finding quotes its rule with it (``zcards audit``, ``zcards replay``).
# tests/test_rule_docs.py checks each quote against its rule's text.
RULE_TEXTS: dict[str, str] = {
    "R1.8": "Food is a per-player total. It changes only by the rules: the starting bid (R2.2), "
    "Scavenger successes (R12.2), upkeep (R12.5) and card text. It never goes below 0",
    "R2.1": "in turn order each player bids a starting food total, an integer from 0 to 10",
    "R2.2": "The lowest bid wins; on a tie the earlier bid wins. The winner starts with food "
    "equal to his bid and chooses who takes the first turn; every other player starts with 10.",
    "R2.3": "Each player draws exactly 7 cards: his opening hand.",
    "R2.4": "each player puts Survivor cards from his deck (not his hand) into his survivor "
    "zone, with a combined cost of at most 6, then shuffles his deck (before turn 1 starts).",
    "R2.5": "Putting out no survivor is legal, but that player has then already lost (R14.1).",
    "R3.1": "Every turn has these phases, in this order: Ready, Draw, Build, Attack, Recoup, End.",
    "R3.2": "Each phase happens exactly once per turn: skipping a phase or repeating one is a "
    "violation.",
    "R3.3": "Moving back a phase is a correction, not a play: it is a warning, and play is "
    "replayed from the earlier phase.",
    "R4.1": "Every player readies all his spent cards. Readying at any other time needs card text",
    "R4.2": "Then every survivor with an Infected token gets exactly one wound.",
    "R5.1": "Every player still in the game (not only the active one) draws exactly 2 cards.",
    "R5.2": "Then each of them discards exactly 1 card from his hand.",
    "R5.3": "Cards are drawn only in the Draw phase and for the opening hand (R2.3), unless card "
    "text says otherwise.",
    "R6.1": "Each player, active or not, may play at most one card per turn from his hand to his "
    "resource zone, face down",
    "R6.2": "Resource plays happen only in the Build phase",
    "R6.3": "Cards reach the table face down from a deck only when a rule or a card says so (a "
    "Scavenger roll of 1, R12.2).",
    "R7.1": "Only the active player plays Survivor and Item cards from his hand.",
    "R7.2": "Only in the Build phase of his own turn",
    "R7.3": "To play a card he spends ready zombie cards of his own (face down or face up, in his "
    "resource or combat zone) equal in number to the card's cost. Survivors cannot pay.",
    "R7.4": "Any additional requirement printed on the card must hold.",
    "R8.1": "A player may turn a face-down card in his resource or combat zone face up if it is "
    "a Zombie card whose requirement he meets",
    "R8.2": "Upgrading happens only in a Build phase and costs nothing",
    "R8.3": "A non-Zombie card in a resource or combat zone can never be turned face up.",
    "R9.1": "In the Recoup phase of his own turn, a player may spend ready zombies he controls "
    "and move them to his combat zone",
    "R10.1": "A zombie is attacking if it is in its controller's combat zone and ready when "
    "defenders are declared; only attacking zombies take part in fights.",
    "R10.5": "He gets 1 wound, plus 1 wound for each Fierce zombie in the fight. If the zombies' "
    "total power is at least double the survivor's power he is instead killed (overwhelmed).",
    "R10.6": "Each zombie in that fight is spent.",
    "R10.8": "Only the active player's survivors are attacked, and only by attacking zombies.",
    "R11.1": "A survivor whose wounds reach its Health dies at once and leaves play",
    "R11.3": "If it was infected, the player who infected it gains control of it instead",
    "R12.1": "Medic and Scavenger abilities are used only in the Recoup phase, and only by "
    "spending the ready survivor that has the symbol.",
    "R12.2": "On 2–6 the roll succeeds and its owner gains 1 food; on a 1 it fails, no food is "
    "gained, and each zombie player puts the top card of his deck into his resource zone face "
    "down",
    "R12.3": "Spend the survivor to remove one wound from a target survivor.",
    "R12.5": "At the end of the Recoup phase the active player loses 1 food (food never goes "
    "below 0). Then, if he has more survivors than food, he puts one wound on one of his "
    "survivors (one at a time) for each survivor in excess",
    "R13.2": "The next player in turn order who has not lost becomes the active player, and a "
    "new turn starts in its Ready phase.",
    "R14.1": "A player loses when he controls no survivors (after setup), or when his deck has "
    "no cards",
    "R14.2": "A player who has lost takes no further game action (draws, plays, moves, card "
    "functions, stat changes, die rolls); his cards no longer attack.",
    "R16.1": "Card text can change any rule above for the cards it names.",
    "R17.1": "A violation is reported only when every reading of the log consistent with it "
    "breaks the rule",
    "R17.3": "An action undone by its exact inverse before any other game action",
    "R17.4": 'A stat line whose "from" value differs from the tracked total, or a turn number '
    "lower than the last one, shows a change the log did not record",
    "R17.5": "An action logged just before the phase line that makes it legal, with no action of "
    "the old phase in between",
    "R17.6": "Every player seen from the start has 10 food",
    "R17.7": "A new game starts at `starts a new game.`, at `clears the table.` followed by deck "
    "loads, or at deck loads after turns were played (a rematch).",
    "R17.8": "Loading a saved game the log earlier showed being saved (`saves the game as F`, "
    "then `loads a saved game from F`) restores the game of that moment",
    "R17.9": "When no setup is seen, the rules wait for the first turn line.",
    "R17.10": "Lackey's turn counter starts at 1, so a log may show no turn-1 line.",
}


def rule_text(rule: str | None) -> str:
    """The short text of a rule number (empty for none or an uncited rule)."""
    return RULE_TEXTS.get(rule or "", "")
