"""Turn a simulated game into the Lackey log one of its players would save.

Every action becomes one typed log event (``lackey_plugin.log.events``); the log writer turns
events into Lackey's exact wording. Hidden information is shown as Lackey shows it: face-down
table cards are ``a face down card`` / ``a face-down card`` in every log, and a card drawn
singly is named only in the drawer's own log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from lackey_plugin.log.writer import format_log, write_log
from zcards.sim.actions import Action, Kind
from zcards.sim.game import GameResult

FACE_DOWN_PLAY = "a face down card"
FACE_DOWN_CARD = "a face-down card"
UNSEEN_DRAW = "a card"
DECK, HAND, DISCARD = "Deck", "Hand", "Discard"

_COUNTERS = {
    Kind.WOUND: Meaning.WOUND,
    Kind.HEAL: Meaning.HEAL,
    Kind.INFECT: Meaning.INFECT,
    Kind.TO_COMBAT: Meaning.TO_COMBAT,
}
_CARD_FUNCTIONS = {
    Kind.SPEND: Meaning.SPEND,
    Kind.READY: Meaning.READY,
    Kind.FLIP: Meaning.FLIP,
    Kind.TAKE_CONTROL: Meaning.TAKE_CONTROL,
}


def _function_card(action: Action) -> str:
    return FACE_DOWN_CARD if action.face_down else str(action.card)


def to_event(action: Action, pov: str) -> ev.Event:
    """The log event ``pov``'s log shows for ``action``."""
    player = action.player
    if action.kind in _COUNTERS:
        return ev.CounterChange.of(
            player,
            _COUNTERS[action.kind],
            _function_card(action),
            int(action.old or 0),
            int(action.new or 0),
        )
    if action.kind in _CARD_FUNCTIONS:
        return ev.Perform.of(player, _CARD_FUNCTIONS[action.kind], _function_card(action))
    return _SIMPLE[action.kind](action, pov)


_SIMPLE: dict[Kind, Callable[[Action, str], ev.Event]] = {
    Kind.SIT: lambda a, _: ev.Seat(a.player, "sit", int(a.new or 0)),
    Kind.NEW_GAME: lambda a, _: ev.NewGame(a.player),
    Kind.LOAD_DECK: lambda a, _: ev.DeckLoad(a.player, DECK),
    Kind.BID: lambda a, _: ev.Chat(a.player, f"bid {a.new}"),
    Kind.SET_FOOD: lambda a, _: ev.StatChange(
        a.player, "Food", int(a.old or 0), int(a.new or 0), target=a.other
    ),
    Kind.DRAW: lambda a, pov: ev.Draw(a.player, 1, a.card if pov == a.player else UNSEEN_DRAW),
    Kind.DRAW_MANY: lambda a, _: ev.Draw(a.player, int(a.new or 0)),
    Kind.DISCARD: lambda a, _: ev.Move(
        a.player, str(a.card), a.player, HAND, a.player, DISCARD, dst_pos="top", discard=True
    ),
    Kind.PLAY_FROM_DECK: lambda a, _: ev.Play(a.player, str(a.card), a.player, DECK),
    Kind.PLAY_FROM_HAND: lambda a, _: ev.Play(a.player, str(a.card), a.player, HAND),
    Kind.PLAY_RESOURCE: lambda a, _: ev.Play(a.player, FACE_DOWN_PLAY, a.player, HAND),
    Kind.PLAY_TOP_FACE_DOWN: lambda a, _: ev.Play(
        a.player, FACE_DOWN_PLAY, a.player, DECK, src_pos="top"
    ),
    Kind.SHUFFLE: lambda a, _: ev.Shuffle(a.player, DECK, a.player),
    Kind.NEXT_TURN: lambda a, _: ev.TurnChange(a.player, int(a.new or 0), str(a.other)),
    Kind.NEXT_PHASE: lambda a, _: ev.PhaseChange(a.player, str(a.old), str(a.new)),
    Kind.READY_ALL: lambda a, _: ev.PerformAll.of(a.player, Meaning.READY_ALL),
    Kind.TO_DISCARD: lambda a, _: ev.TableToZone(
        a.player, str(a.card), a.player, DISCARD, dst_pos="top"
    ),
    Kind.ROLL: lambda a, _: ev.DiceRoll(a.player, 6, (int(a.new or 0),), button=True),
}


def game_events(
    actions: Iterable[Action], pov: str, *, timestamps: random.Random | None = None
) -> list[ev.Event]:
    """The events of ``pov``'s log, numbered from line 1; stamped when given a random source."""
    events = [to_event(action, pov) for action in actions]
    if timestamps is None:
        return [replace(event, line=number) for number, event in enumerate(events, start=1)]
    seconds = timestamps.randrange(8 * 3600, 23 * 3600)
    stamped = []
    for number, event in enumerate(events, start=1):
        seconds += timestamps.randint(1, 20)
        stamped.append(replace(event, line=number, timestamp=_stamp(seconds), seconds=seconds))
    return stamped


def _stamp(seconds: int) -> str:
    """Lackey's ``H:MM:SS`` display, which wraps at midnight."""
    seconds %= 24 * 3600
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def game_log(result: GameResult, pov: str, *, timestamps: bool = False) -> str:
    """The log ``pov`` would save for a simulated game (stamps are deterministic per seed)."""
    return format_log(pov_events(result, pov, timestamps=timestamps))


def pov_events(result: GameResult, pov: str, *, timestamps: bool = False) -> list[ev.Event]:
    """The events of ``pov``'s log; both players' logs share one clock, as they share a game."""
    stamps = random.Random(f"zcards-sim-clock/{result.seed}") if timestamps else None
    return game_events(result.actions, pov, timestamps=stamps)


def write_game_log(result: GameResult, pov: str, path: Path, *, timestamps: bool = False) -> Path:
    """Write the log atomically (the writer uses a temporary file, then a rename)."""
    write_log(pov_events(result, pov, timestamps=timestamps), path)
    return path
