"""Turn a simulated game into the Lackey log one of its players would save.

Every action becomes one typed log event (``lackey_plugin.log.events``); the recording style
(:mod:`zcards.sim.styles`) decides which lines a log shows and what it adds, and the log
writer turns events into Lackey's exact wording. Hidden information is shown as Lackey shows
it: face-down table cards are ``a face down card`` / ``a face-down card`` in every log, and a
card drawn singly is named only in the drawer's own log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from lackey_plugin.files import atomic_write
from lackey_plugin.log import events as ev
from lackey_plugin.log.writer import LogWriter
from zcards.game.definition import DECK, DISCARD, FOOD_STAT, HAND, ZOMBIE_GAME, Meaning
from zcards.game.rules import DIE_SIDES
from zcards.sim.actions import Action, ActionKind
from zcards.sim.game import GameResult
from zcards.sim.styles import PROTOCOL, RecordingStyle, recording, shown_card

FACE_DOWN_PLAY = "a face down card"
UNSEEN_DRAW = "a card"

_COUNTERS = {
    ActionKind.WOUND: Meaning.WOUND,
    ActionKind.HEAL: Meaning.HEAL,
    ActionKind.INFECT: Meaning.INFECT,
    ActionKind.CURE: Meaning.CURE,
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
            game=ZOMBIE_GAME,
        )
    if action.kind in _CARD_FUNCTIONS:
        return ev.Perform.of(
            player, _CARD_FUNCTIONS[action.kind], shown_card(action), game=ZOMBIE_GAME
        )
    return _SIMPLE[action.kind](action, pov)


_SIMPLE: dict[ActionKind, Callable[[Action, str], ev.Event]] = {
    ActionKind.SIT: lambda a, _: ev.Seat(a.player, "sit", int(a.new or 0)),
    ActionKind.NEW_GAME: lambda a, _: ev.NewGame(a.player),
    ActionKind.LOAD_DECK: lambda a, _: ev.DeckLoad(a.player, DECK),
    ActionKind.BID: lambda a, _: ev.Chat(a.player, f"bid {a.new}"),
    ActionKind.SET_FOOD: lambda a, _: ev.StatChange(
        a.player, FOOD_STAT, int(a.old or 0), int(a.new or 0), target=a.other
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
    ActionKind.DISCARD_TO_TABLE: lambda a, _: ev.Play(a.player, FACE_DOWN_PLAY, a.player, DISCARD),
    ActionKind.SHUFFLE: lambda a, _: ev.Shuffle(a.player, DECK, a.player),
    ActionKind.NEXT_TURN: lambda a, _: ev.TurnChange(a.player, int(a.new or 0), str(a.other)),
    ActionKind.NEXT_PHASE: lambda a, _: ev.PhaseChange(a.player, str(a.old), str(a.new)),
    ActionKind.READY_ALL: lambda a, _: ev.PerformAll.of(
        a.player, Meaning.READY_ALL, game=ZOMBIE_GAME
    ),
    ActionKind.TO_DISCARD: lambda a, _: ev.TableToZone(
        a.player, str(a.card), a.player, DISCARD, dst_pos="top"
    ),
    ActionKind.ROLL: lambda a, _: ev.DiceRoll(a.player, DIE_SIDES, (int(a.new or 0),), button=True),
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
    """The log ``pov`` would save of a simulated game recorded in ``style``, as events; both
    players' logs share one clock and one set of clicks, as they share a game."""
    lines = recording(result.actions, style, result.seed)
    events = [item if isinstance(item, ev.Event) else to_event(item, pov) for item, _ in lines]
    stamps = _clock(result.seed, len(events)) if style.timestamps else None
    numbered = (
        replace(event, line=number, timestamp=stamps[number - 1][0], seconds=stamps[number - 1][1])
        if stamps
        else replace(event, line=number)
        for number, event in enumerate(events, start=1)
    )
    return RecordedLog(tuple(numbered), tuple(source for _, source in lines), style.pronoun)


def game_log(
    result: GameResult, pov: str, *, timestamps: bool = False, style: RecordingStyle = PROTOCOL
) -> str:
    """The text of ``pov``'s log (deterministic per seed and style): :func:`record` written
    out, without building numbered events, from lines already written where it can."""
    style = _stamped(style, timestamps)
    said = log_lines(style.pronoun)
    texts = [
        said.event(item) if isinstance(item, ev.Event) else said.action(item, pov)
        for item, _ in recording(result.actions, style, result.seed)
    ]
    if style.timestamps:  # stamped as the writer stamps a line
        stamps = _clock(result.seed, len(texts))
        texts = [f"[{stamp}] {text}" for (stamp, _), text in zip(stamps, texts, strict=True)]
    return "".join([text + "\n" for text in texts])


def _clock(seed: int, count: int) -> list[tuple[str, int]]:
    """``count`` stamps a few seconds apart from a time of day drawn from the game's seed."""
    clock = random.Random(f"zcards-sim-clock/{seed}")
    seconds = clock.randrange(8 * 3600, 23 * 3600)
    stamps = []
    for _ in range(count):
        seconds += clock.randint(1, 20)
        stamps.append((_stamp(seconds), seconds))
    return stamps


def _stamp(seconds: int) -> str:
    """Lackey's ``H:MM:SS`` display, which wraps at midnight."""
    seconds %= 24 * 3600
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class RememberingWriter:
    """A log writer and the lines it already wrote. Games repeat most of their lines (phase
    changes, spends, draws), and looking a line up costs a fraction of writing it again."""

    LIMIT = 200_000  # lines kept; beyond that a line is written each time

    def __init__(self, pronoun: str) -> None:
        self.writer = LogWriter(pronoun=pronoun)
        self._said: dict[Hashable, str] = {}

    def action(self, action: Action, pov: str) -> str:
        """The line of ``action`` in ``pov``'s log (only a single draw differs by point of
        view: named in the drawer's log)."""
        key = (action, action.player == pov)
        text = self._said.get(key)
        if text is None:
            text = self._keep(key, self.writer.line(to_event(action, pov)))
        return text

    def event(self, event: ev.Event) -> str:
        """The line of an unnumbered, unstamped event."""
        text = self._said.get(event)
        if text is None:
            text = self._keep(event, self.writer.line(event))
        return text

    def _keep(self, key: Hashable, text: str) -> str:
        if len(self._said) < self.LIMIT:
            self._said[key] = text
        return text


@cache
def log_lines(pronoun: str = "his") -> RememberingWriter:
    """One writer per pronoun and process: compiling the templates costs more than a game."""
    return RememberingWriter(pronoun)


def log_text(events: Iterable[ev.Event], pronoun: str = "his") -> str:
    """Any events (numbered, stamped, mutated) as log text, one line per event, LF ends."""
    return "".join([line + "\n" for line in log_lines(pronoun).writer.lines(events)])


def pov_events(
    result: GameResult, pov: str, *, timestamps: bool = False, style: RecordingStyle = PROTOCOL
) -> list[ev.Event]:
    """The events of ``pov``'s log (``timestamps`` stamps them whatever the style says)."""
    return list(record(result, pov, _stamped(style, timestamps)).events)


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
