"""The Zombie CCG game definition: the one source of truth for its Lackey vocabulary.

Phases, zones, the food stat and every function label live here, once. The plugin export
renders ``plugininfo.txt`` from :data:`ZOMBIE_GAME`; the log parser is given the same object to
learn what a logged label *means* (``performs Spend on X`` is a :attr:`Meaning.SPEND`); the
rules engine and the simulator name phases and zones by the constants below. Change a label
here and all of them follow.
"""

from __future__ import annotations

from enum import StrEnum

from lackey_plugin.game import (
    CardFunction,
    Counter,
    DeckZone,
    Definition,
    GameDefinition,
    GameZone,
    GeneralFunction,
    Stat,
)


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


# The vocabulary, named once: the definition below is built from these.
READY_PHASE, DRAW_PHASE, BUILD_PHASE = "Ready", "Draw", "Build"
ATTACK_PHASE, RECOUP_PHASE, END_PHASE = "Attack", "Recoup", "End"
HAND, DECK, DISCARD, REMOVED = "Hand", "Deck", "Discard", "Removed"
FOOD_STAT = "Food"

# Numbers of the rules both the audit and the simulator play by (docs/rules.md).
STARTING_FOOD = 10
STARTING_HAND = 7
OPENING_BUDGET = 6
"""The most the opening survivors may cost together."""

ZOMBIE_GAME = GameDefinition(
    name="zombieccg",
    player_stats=(Stat(FOOD_STAT, STARTING_FOOD, "food total; upkeep and scavenging change it"),),
    phases=(READY_PHASE, DRAW_PHASE, BUILD_PHASE, ATTACK_PHASE, RECOUP_PHASE, END_PHASE),
    game_zones=(
        GameZone(HAND, visible_to_owner=True),
        GameZone(DECK),
        GameZone(DISCARD, visible_to_owner=True, visible_to_others=True),
        GameZone(REMOVED, visible_to_owner=True, visible_to_others=True),
    ),
    deck_zones=(DeckZone(DECK, load_to=DECK, shuffle=True),),
    # Counters sit on the card's art, clear of its cost, power and health (the face layout,
    # zcards.publish.facelayout; tests/test_counters.py checks it).
    counters=(
        Counter("red", ".72", ".19", "wounds on a survivor"),
        Counter("green", ".37", ".19", "infected token on a survivor"),
        Counter("orange", ".72", ".36", "the zombie stands in its owner's combat zone"),
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


PHASES: tuple[str, ...] = ZOMBIE_GAME.phases
"""A turn's phases in order."""
