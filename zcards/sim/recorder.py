"""Turn a simulated game into the Lackey log one of its players would save.

Every action becomes one typed log event (``lackey_plugin.log.events``); the recording style
(:mod:`zcards.sim.styles`) decides which lines a log shows and what it adds, and the log
writer turns events into Lackey's exact wording. Hidden information is shown as Lackey shows
it: face-down table cards are ``a face down card`` / ``a face-down card`` in every log, and a
card drawn singly is named only in the drawer's own log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from lackey_plugin.log.writer import LogWriter
from zcards.files import atomic_write
from zcards.sim.actions import Action, ActionKind
from zcards.sim.game import GameResult
from zcards.sim.styles import HAND, PROTOCOL, RecordingStyle, recording, shown_card

FACE_DOWN_PLAY = "a face down card"
UNSEEN_DRAW = "a card"
DECK, DISCARD = "Deck", "Discard"

_COUNTERS = {
    ActionKind.WOUND: Meaning.WOUND,
    ActionKind.HEAL: Meaning.HEAL,
    ActionKind.INFECT: Meaning.INFECT,
    ActionKind.TO_COMBAT: Meaning.TO_COMBAT,
}
_CARD_FUNCTIONS = {
    ActionKind.SPEND: Meaning.SPEND,
    ActionKind.READY: Meaning.READY,
    ActionKind.FLIP: Meaning.FLIP,
    ActionKind.TAKE_CONTROL: Meaning.TAKE_CONTROL,
}


def to_event(action: Action, pov: str) -> ev.Event:
    """The log event ``pov``'s log shows for ``action``."""
    player = action.player
    if action.kind in _COUNTERS:
        return ev.CounterChange.of(
            player,
            _COUNTERS[action.kind],
            shown_card(action),
            int(action.old or 0),
            int(action.new or 0),
        )
    if action.kind in _CARD_FUNCTIONS:
        return ev.Perform.of(player, _CARD_FUNCTIONS[action.kind], shown_card(action))
    return _SIMPLE[action.kind](action, pov)


_SIMPLE: dict[ActionKind, Callable[[Action, str], ev.Event]] = {
    ActionKind.SIT: lambda a, _: ev.Seat(a.player, "sit", int(a.new or 0)),
    ActionKind.NEW_GAME: lambda a, _: ev.NewGame(a.player),
    ActionKind.LOAD_DECK: lambda a, _: ev.DeckLoad(a.player, DECK),
    ActionKind.BID: lambda a, _: ev.Chat(a.player, f"bid {a.new}"),
    ActionKind.SET_FOOD: lambda a, _: ev.StatChange(
        a.player, "Food", int(a.old or 0), int(a.new or 0), target=a.other
    ),
    ActionKind.DRAW: lambda a, pov: ev.Draw(
        a.player, 1, a.card if pov == a.player else UNSEEN_DRAW
    ),
    ActionKind.DRAW_MANY: lambda a, _: ev.Draw(a.player, int(a.new or 0)),
    ActionKind.DISCARD: lambda a, _: ev.Move(
        a.player, str(a.card), a.player, HAND, a.player, DISCARD, dst_pos="top", discard=True
    ),
    ActionKind.PLAY_FROM_DECK: lambda a, _: ev.Play(a.player, str(a.card), a.player, DECK),
    ActionKind.PLAY_FROM_HAND: lambda a, _: ev.Play(a.player, str(a.card), a.player, HAND),
    ActionKind.PLAY_RESOURCE: lambda a, _: ev.Play(a.player, FACE_DOWN_PLAY, a.player, HAND),
    ActionKind.PLAY_TOP_FACE_DOWN: lambda a, _: ev.Play(
        a.player, FACE_DOWN_PLAY, a.player, DECK, src_pos="top"
    ),
    ActionKind.SHUFFLE: lambda a, _: ev.Shuffle(a.player, DECK, a.player),
    ActionKind.NEXT_TURN: lambda a, _: ev.TurnChange(a.player, int(a.new or 0), str(a.other)),
    ActionKind.NEXT_PHASE: lambda a, _: ev.PhaseChange(a.player, str(a.old), str(a.new)),
    ActionKind.READY_ALL: lambda a, _: ev.PerformAll.of(a.player, Meaning.READY_ALL),
    ActionKind.TO_DISCARD: lambda a, _: ev.TableToZone(
        a.player, str(a.card), a.player, DISCARD, dst_pos="top"
    ),
    ActionKind.ROLL: lambda a, _: ev.DiceRoll(a.player, 6, (int(a.new or 0),), button=True),
}


@dataclass(frozen=True)
class RecordedLog:
    """One player's log of a game: its events, numbered from line 1, and for each the index
    of the game action it records (None for a line only the recording style adds)."""

    events: tuple[ev.Event, ...]
    sources: tuple[int | None, ...]
    pronoun: str = "his"

    def text(self) -> str:
        return log_text(self.events, self.pronoun)


def record(result: GameResult, pov: str, style: RecordingStyle = PROTOCOL) -> RecordedLog:
    """The log ``pov`` would save of a simulated game recorded in ``style``; both players'
    logs share one clock and one set of clicks, as they share a game."""
    lines = recording(result.actions, style, result.seed)
    events = [item if isinstance(item, ev.Event) else to_event(item, pov) for item, _ in lines]
    clock = random.Random(f"zcards-sim-clock/{result.seed}") if style.timestamps else None
    return RecordedLog(
        tuple(_numbered(events, clock)), tuple(source for _, source in lines), style.pronoun
    )


def _numbered(events: list[ev.Event], clock: random.Random | None) -> Iterator[ev.Event]:
    """Events numbered from line 1; stamped from ``clock`` (a few seconds apart) when given."""
    if clock is None:
        for number, event in enumerate(events, start=1):
            yield replace(event, line=number)
        return
    seconds = clock.randrange(8 * 3600, 23 * 3600)
    for number, event in enumerate(events, start=1):
        seconds += clock.randint(1, 20)
        yield replace(event, line=number, timestamp=_stamp(seconds), seconds=seconds)


def _stamp(seconds: int) -> str:
    """Lackey's ``H:MM:SS`` display, which wraps at midnight."""
    seconds %= 24 * 3600
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


@cache
def log_writer(pronoun: str = "his") -> LogWriter:
    """One writer per pronoun and process: compiling the templates costs more than a game."""
    return LogWriter(pronoun=pronoun)


def log_text(events: Iterable[ev.Event], pronoun: str = "his") -> str:
    """The log as text, one line per event, LF line ends."""
    return "".join([line + "\n" for line in log_writer(pronoun).lines(events)])


def pov_events(
    result: GameResult, pov: str, *, timestamps: bool = False, style: RecordingStyle = PROTOCOL
) -> list[ev.Event]:
    """The events of ``pov``'s log (``timestamps`` stamps them whatever the style says)."""
    return list(record(result, pov, _stamped(style, timestamps)).events)


def game_log(
    result: GameResult, pov: str, *, timestamps: bool = False, style: RecordingStyle = PROTOCOL
) -> str:
    """The log ``pov`` would save for a simulated game (deterministic per seed and style)."""
    return record(result, pov, _stamped(style, timestamps)).text()


def write_game_log(
    result: GameResult,
    pov: str,
    path: Path,
    *,
    timestamps: bool = False,
    style: RecordingStyle = PROTOCOL,
) -> Path:
    """Write the log atomically (a temporary file, then a rename)."""
    atomic_write(path, game_log(result, pov, timestamps=timestamps, style=style).encode())
    return path


def _stamped(style: RecordingStyle, timestamps: bool) -> RecordingStyle:
    return replace(style, timestamps=True) if timestamps and not style.timestamps else style
