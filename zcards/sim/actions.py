"""Semantic game actions: what happened in a simulated game, with full information.

The simulator records every action with the true card name, even for face-down cards; the
recorder decides what each player's log may show. One action is one log line.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class ActionKind(StrEnum):
    """The kinds of action a game under the recording protocol is made of."""

    SIT = "sit"  # new: seat number
    NEW_GAME = "new_game"
    LOAD_DECK = "load_deck"
    BID = "bid"  # new: the bid (a chat line)
    SET_FOOD = "set_food"  # other: whose Food; old -> new
    DRAW = "draw"  # card: the one card drawn
    DRAW_MANY = "draw_many"  # new: how many (names none)
    DISCARD = "discard"  # card: from the hand to the Discard
    PLAY_FROM_DECK = "play_from_deck"  # card: an opening survivor, face up
    SHUFFLE = "shuffle"
    NEXT_TURN = "next_turn"  # new: turn number; other: the active player
    NEXT_PHASE = "next_phase"  # old -> new phase labels
    READY_ALL = "ready_all"
    WOUND = "wound"  # card; old -> new wounds
    HEAL = "heal"
    INFECT = "infect"
    CURE = "cure"  # card; 1 -> 0: an Infected token removed (card text)
    TO_DISCARD = "to_discard"  # card: from the table to the Discard
    TAKE_CONTROL = "take_control"  # card: an infected survivor that died
    PLAY_RESOURCE = "play_resource"  # card (hidden): face down from the hand
    PLAY_TOP_FACE_DOWN = "play_top"  # card (hidden): face down from the top of the Deck
    DISCARD_TO_TABLE = "discard_to_table"  # card (hidden): face down from the Discard (text)
    SPEND = "spend"
    READY = "ready"
    PLAY_FROM_HAND = "play_from_hand"  # card: a survivor or item, face up
    FLIP = "flip"  # card: the zombie as it is once face up
    TO_COMBAT = "to_combat"  # old -> new orange counters
    ROLL = "roll"  # new: the die result


class Action(NamedTuple):
    """One game action by ``player``; ``face_down`` cards are hidden in every log. (A named
    tuple: a game makes hundreds of actions, and a frozen dataclass is slow to build.)"""

    kind: ActionKind
    player: str
    card: str | None = None
    face_down: bool = False
    old: int | str | None = None
    new: int | str | None = None
    other: str | None = None
