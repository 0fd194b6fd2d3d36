"""The Zombie CCG game definition: the one source of truth for its Lackey vocabulary.

Phases, zones, the food stat and every function label live in one data file,
``zcards/game/zombie.toml`` (a game definition like any other game's, see
:mod:`lackey_plugin.gamefile`); this module reads it once and names its parts for Python.
The plugin export renders
``plugininfo.txt`` from :data:`ZOMBIE_GAME`; the log parser is given the same object to learn
what a logged label *means* (``performs Spend on X`` is a :attr:`Meaning.SPEND`); the rules
engine and the simulator name phases and zones by the constants below.
"""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum

from lackey_plugin.game import GameDefinition
from zcards.game.gamefile import zombie_game_file


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


def _with_meanings(game: GameDefinition) -> GameDefinition:
    """The shipped file names meanings as text; the rules compare them as :class:`Meaning`."""

    def meaning(value: str | None) -> Meaning | None:
        return None if value is None else Meaning(value)

    return replace(
        game,
        card_functions=tuple(replace(f, meaning=meaning(f.meaning)) for f in game.card_functions),
        general_functions=tuple(
            replace(f, meaning=meaning(f.meaning)) for f in game.general_functions
        ),
    )


ZOMBIE_GAME: GameDefinition = _with_meanings(zombie_game_file().game)
"""Zombie CCG as a Lackey game, read from the shipped ``zcards/game/zombie.toml``."""

PHASES: tuple[str, ...] = ZOMBIE_GAME.phases
"""A turn's phases in order."""
