"""The table after a line, as the audit sees it: what ``zcards log state`` prints and what the
replay page steps through.

The audit tells a watcher each line once it has read it, with the readings then open
(:data:`zcards.rules.engine.Watcher`); this module turns those readings' tables into plain
data. Two levels of doubt show: readings of the log (who took turn 1, a misclick or two real
actions) each get their own state, with what the reading assumes; within one reading, a
player's zombie cards are a set of boards (face-down cards hide their zone), shown as what
every board shares and what is open (a count as a range, a face-up zombie only some boards
have under ``maybe``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.game.table import Player, Table
from zcards.game.zombies import Board, Up, Zombies
from zcards.rules.load import audit_log
from zcards.rules.reading import Reading
from zcards.rules.report import AuditReport

__all__ = [
    "LineState",
    "ReadingTable",
    "each_state",
    "line_state",
    "state_at",
    "state_text",
    "taken_at",
    "first_table",
]

T = TypeVar("T")


def state_at(
    path: str | os.PathLike[str],
    cards: Iterable[Card],
    line: int,
    *,
    players: Iterable[str] = (),
    pov: str | None = None,
    decks: dict[str, int] | None = None,
) -> tuple[LineState, AuditReport]:
    """The table after log line ``line`` (after the last line the audit read at or before
    it: a blank line has no table of its own) and the whole log's report: findings are
    settled only once the log is read. Only that line's table is taken; a blank line costs
    a second audit, up to the line before it."""
    return taken_at(path, cards, line, line_state, players=players, pov=pov, decks=decks)


def first_table(_: ev.Event, replays: list[Reading]) -> Table:
    """The rules model's table of the first reading open (what :func:`taken_at` takes for a
    saved game)."""
    return replays[0].table.fork()


def taken_at(
    path: str | os.PathLike[str],
    cards: Iterable[Card],
    line: int,
    take: Callable[[ev.Event, list[Reading]], T],
    **inputs: Any,
) -> tuple[T, AuditReport]:
    """What ``take`` makes of the readings after log line ``line`` (see :func:`state_at`;
    :func:`first_table`: the rules model's table)."""
    cards = list(cards)
    found: list[T] = []
    before = 0  # the last line read at or before ``line``

    def watch(event: ev.Event, replays: list[Reading]) -> None:
        nonlocal before
        if event.line == line:
            found.append(take(event, replays))
        elif before < event.line < line:
            before = event.line

    report = audit_log(path, cards, watch=watch, **inputs)
    if line > report.lines:
        raise UsageError(f"--at {line}: {path} has {report.lines} lines")
    if not found and not before:
        raise UsageError(f"--at {line}: no game line of {path} comes at or before it")
    if not found:
        return taken_at(path, cards, before, take, **inputs)[0], report
    return found[-1], report


def each_state(
    path: str | os.PathLike[str],
    cards: Iterable[Card],
    each: Callable[[LineState], None],
    *,
    players: Iterable[str] = (),
    pov: str | None = None,
    decks: dict[str, int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """``each`` is given the table after every line the audit reads, as it reads it (none
    is kept: memory stays flat however long the log); returns the report. ``progress`` is
    told how many more lines of the file are read, as they are."""
    read = 0  # the last line told to progress

    def watch(event: ev.Event, replays: list[Reading]) -> None:
        nonlocal read
        each(line_state(event, replays))
        if progress is not None and event.line > read:
            progress(event.line - read)
            read = event.line

    return audit_log(path, cards, players=players, pov=pov, decks=decks, watch=watch)


Count = int | dict[str, int]  # a count every board shares, else {"min": m, "max": n}


@dataclass(frozen=True)
class ReadingTable:
    """One reading's table: ``assumes`` says what it takes the log to mean (None: the only
    reading)."""

    assumes: str | None
    turn: int
    phase: str
    active: str | None
    players: dict[str, dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "assumes": self.assumes,
            "turn": self.turn,
            "phase": self.phase,
            "active": self.active,
            "players": self.players,
        }


@dataclass(frozen=True)
class LineState:
    """The table after one log line (``line``: its number, ``text``: the line as logged)."""

    line: int
    text: str
    readings: list[ReadingTable] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "text": self.text,
            "readings": [reading.to_json() for reading in self.readings],
        }


def line_state(event: ev.Event, replays: Iterable[Reading]) -> LineState:
    """The state after ``event`` in every reading open; readings whose tables agree are one."""
    readings: list[ReadingTable] = []
    for replay in replays:
        table = replay.table
        reading = ReadingTable(
            f"if {' and '.join(replay.assumptions)}" if replay.assumptions else None,
            table.turn,
            table.phase,
            table.active,
            {name: player_state(table.players[name]) for name in _shown(table)},
        )
        if not any(_same(reading, other) for other in readings):
            readings.append(reading)
    if len(readings) == 1 and readings[0].assumes is not None:
        only = readings[0]
        readings = [ReadingTable(None, only.turn, only.phase, only.active, only.players)]
    return LineState(event.line, event.raw, readings)


def _same(one: ReadingTable, other: ReadingTable) -> bool:
    return (one.turn, one.phase, one.active, one.players) == (
        other.turn,
        other.phase,
        other.active,
        other.players,
    )


def _shown(table: Table) -> list[str]:
    """The players whose part of the table shows: those taking part, in turn order."""
    return [name for name in table.order if table.players[name].playing]


def player_state(me: Player) -> dict[str, Any]:
    """One player's part of the table as plain data (None: a value the log has not shown)."""
    survivors = [
        {
            "name": s.name,
            "wounds": s.wounds,
            "infected": s.infected,
            "spent": s.spent,
            "items": [i.name for i in me.items if i.host == s.uid],
        }
        for s in me.survivors
    ]
    hosts = {s.uid for s in me.survivors}
    return {
        "known": me.known,
        "lost": me.lost.reason if me.lost else None,
        "food": me.food_now,
        "hand": me.hand,
        "hand_cards": sorted(me.hand_names.elements()),
        "deck": me.deck,
        "survivors": survivors,
        "items": [{"name": i.name, "spent": i.spent} for i in me.items if i.host not in hosts],
        "resource": _zone(me.zombies, combat=False),
        "combat": _zone(me.zombies, combat=True),
        "discard": list(me.discard),
        "removed": list(me.removed),
    }


def _zone(zombies: Zombies, *, combat: bool) -> dict[str, Any]:
    """One zone over every board: the face-down counts (a range where boards differ), the
    face-up zombies every board has, those only some have (``maybe``), and whether cards the
    log has not shown may be there too (``unseen``)."""
    boards = list(zombies.readings)
    ready, spent = (2, 3) if combat else (0, 1)
    ups = [Counter(_up(u) for u in b.up if u.combat == combat) for b in boards]
    shared = ups[0].copy()
    for other in ups[1:]:
        shared &= other
    union: Counter[tuple[str, bool, bool]] = Counter()
    for other in ups:
        union |= other
    return {
        "face_down_ready": _count(boards, ready),
        "face_down_spent": _count(boards, spent),
        "face_up": [_named(*up) for up in sorted(shared.elements())],
        "maybe": [_named(*up) for up in sorted((union - shared).elements())],
        "unseen": zombies.unknown,
    }


def _up(up: Up) -> tuple[str, bool, bool]:
    return (up.name, up.spent, up.generic)


def _named(name: str, spent: bool, generic: bool) -> dict[str, Any]:
    return {"name": name, "spent": spent, "generic": generic}


def _count(boards: list[Board], slot: int) -> Count:
    counts = [len(board[slot]) for board in boards]
    low, high = min(counts), max(counts)
    return low if low == high else {"min": low, "max": high}


# -- text -------------------------------------------------------------------------------------


def state_text(state: LineState) -> str:
    """The state as ``zcards log state`` prints it: the line, then each reading's table;
    where readings differ, what they all share is shown once ("in both readings"), then
    each reading's own part."""
    out = [f"After line {state.line}: {state.text}"]
    readings = state.readings
    if len(readings) == 1:
        out.append("")
        out.append(_clock(readings[0]))
        for name, me in readings[0].players.items():
            out += _player_lines(name, me)
        return "\n".join(out) + "\n"
    first = readings[0]
    shared = [
        name
        for name, me in first.players.items()
        if all(r.players.get(name) == me for r in readings[1:])
    ]
    same_clock = all(_clock(r) == _clock(first) for r in readings[1:])
    if shared or same_clock:
        out += [
            "",
            "In both readings:" if len(readings) == 2 else f"In all {len(readings)} readings:",
        ]
        if same_clock:
            out.append(_clock(first))
        for name in shared:
            out += _player_lines(name, first.players[name])
    for number, reading in enumerate(readings, 1):
        out += ["", f"Reading {number} of {len(readings)}, {reading.assumes}:"]
        if not same_clock:
            out.append(_clock(reading))
        for name in (n for n in reading.players if n not in shared):
            out += _player_lines(name, reading.players[name])
    return "\n".join(out) + "\n"


def _clock(reading: ReadingTable) -> str:
    whose = f", {reading.active}'s turn" if reading.active else ""
    return f"Turn {reading.turn}{whose}, {reading.phase} phase" if reading.turn else "Setup"


def _player_lines(name: str, me: dict[str, Any]) -> list[str]:
    lost = f" (lost: {me['lost']})" if me["lost"] else ""
    unseen = "" if me["known"] else " (not seen from the start: only what the log showed)"
    head = (
        f"{name}{lost}{unseen}: food {_value(me['food'])}, hand {_value(me['hand'])}, "
        f"deck {_value(me['deck'])}"
    )
    hand = ", ".join(me["hand_cards"])
    survivors = "; ".join(_survivor(s) for s in me["survivors"])
    items = ", ".join(i["name"] + (" (spent)" if i["spent"] else "") for i in me["items"])
    return [
        "",
        head,
        f"  hand shows:     {hand or '-'}",
        f"  survivors:      {survivors or '-'}",
        f"  loose items:    {items or '-'}",
        f"  resource zone:  {_zone_text(me['resource'])}",
        f"  combat zone:    {_zone_text(me['combat'])}",
        f"  discard pile:   {', '.join(me['discard']) or '-'}",
    ]


def _value(value: int | None) -> str:
    return "?" if value is None else str(value)


def _survivor(survivor: dict[str, Any]) -> str:
    marks = []
    wounds = survivor["wounds"]
    if wounds is None:
        marks.append("wounds ?")
    elif wounds:
        marks.append(f"{wounds} wound{'s' if wounds > 1 else ''}")
    if survivor["infected"] is None or survivor["infected"]:
        marks.append("infected" if survivor["infected"] else "infected ?")
    if survivor["spent"] is None or survivor["spent"]:
        marks.append("spent" if survivor["spent"] else "spent ?")
    if survivor["items"]:
        marks.append("with " + ", ".join(survivor["items"]))
    return survivor["name"] + (f" ({', '.join(marks)})" if marks else "")


def _zone_text(zone: dict[str, Any]) -> str:
    parts = []
    for key, word in (("face_down_ready", "ready"), ("face_down_spent", "spent")):
        count = zone[key]
        if count:
            shown = f"{count['min']}-{count['max']}" if isinstance(count, dict) else count
            parts.append(f"{shown} face down {word}")
    for up in zone["face_up"]:
        parts.append(_zombie(up))
    parts += [f"maybe {_zombie(up)}" for up in zone["maybe"]]
    if zone["unseen"]:
        parts.append("maybe cards the log has not shown")
    return ", ".join(parts) or "empty"


def _zombie(up: dict[str, Any]) -> str:
    marks = [m for m, on in (("generic", up["generic"]), ("spent", up["spent"])) if on]
    return up["name"] + (f" ({', '.join(marks)})" if marks else "")
