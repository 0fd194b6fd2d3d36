"""Read a LackeyCCG game log into typed events; never stop at a line it does not know.

Input is a path, bytes or text. Each line is decoded as UTF-8, falling back to Windows-1252
(Lackey's Windows builds write the 8-bit code page); line ends may be LF, CRLF or CR. A line
holding NUL or other control bytes means the file is not a text log: :class:`LogFormatError`
(the one documented error) names the file, line and column. Unknown lines become
:class:`~lackey_plugin.log.events.Unparsed` events, or the same error with ``strict=True``;
so does a line longer than :data:`MAX_LINE` characters after its stamp (no Lackey line is that
long, and the cap bounds the regex work a crafted line can cause).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import BinaryIO

from lackey_plugin.game import ZOMBIE_GAME, GameDefinition
from lackey_plugin.log import events as ev
from lackey_plugin.log.matcher import (
    MAX_KNOWN_NAMES,
    STAMP,
    Clock,
    Matcher,
    is_ambiguous,
    name_bound,
    name_table,
)
from lackey_plugin.log.matcher import MAX_LINE as MAX_LINE  # re-exported: documented here
from lackey_plugin.log.templates import MAX_NUMBER as MAX_NUMBER  # documented here too
from lackey_plugin.log.templates import (
    NumberOutOfRange,
    Template,
    Vocabulary,
    default_templates,
    meanings,
)
from zcards.errors import Location, ZcardsError

Source = str | bytes | os.PathLike

_TIMESTAMP = re.compile(STAMP)
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CONTROL_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CR_BEFORE_LF = re.compile(r"\r+\n")
_CR_OR_LF = re.compile(r"[\r\n]")
_BOM = b"\xef\xbb\xbf"
_BLOCK = 1 << 20


@lru_cache(maxsize=16)
def compiled_matcher(
    templates: tuple[Template, ...], game: GameDefinition, longest: int
) -> Matcher:
    """The matcher of a template table: without the known-name lookup (``longest`` 0), or with
    it for names up to ``longest`` characters (a power of two). Names are data, so a process
    compiles a table a few times at most."""
    return Matcher(templates, Vocabulary.of(game), longest)


class LogFormatError(ZcardsError):
    """The input is not a Lackey text log (binary data), or ``strict`` met an unknown line."""


@dataclass
class Game:
    """One game of a log: from a ``starts a new game.`` line to the next (the first game also
    holds the lines before its new-game line, such as the seat lines)."""

    number: int
    start_line: int
    events: list[ev.Event] = field(default_factory=list)
    players: list[str] = field(default_factory=list)


@dataclass
class ParsedLog:
    """Everything read from one log."""

    source: str
    events: list[ev.Event]
    games: list[Game]
    players: tuple[str, ...]
    unparsed: list[ev.Unparsed]

    def kinds(self) -> Counter[str]:
        """How many events of each kind (``draw``, ``move``…), for summaries."""
        return Counter(event.kind for event in self.events)


class LogParser:
    """Turns lines into events, learning player names as it goes.

    Known names (given, or learnt from seat, join, new-game and deck-load lines) are matched
    longest first, so "The Man who plays" is never read as "The Man who"; other names still
    parse. Names are data, not part of the compiled regex (:func:`compiled_matcher`): most
    read the same with the any-name patterns, and the few the patterns could split otherwise
    (:func:`~lackey_plugin.log.matcher.is_ambiguous`; the first
    :data:`~lackey_plugin.log.matcher.MAX_KNOWN_NAMES` of them) are looked up in a table
    appended to the lines that hold them. Learning a name compiles nothing: the work stays
    linear in the log. A number beyond :data:`MAX_NUMBER` makes its line unparsed (in
    ``strict`` mode a :class:`LogFormatError` naming its column)."""

    def __init__(
        self,
        *,
        players: Iterable[str] = (),
        game: GameDefinition = ZOMBIE_GAME,
        strict: bool = False,
        templates: Sequence[Template] | None = None,
        source: str = "<text>",
    ) -> None:
        self.game = game
        self.strict = strict
        self.source = source
        self.players: list[str] = list(dict.fromkeys(players))
        self._known: set[str] = set()
        self._templates = tuple(templates) if templates is not None else default_templates()
        self._plain = compiled_matcher(self._templates, game, 0)
        self._lookup = self._plain
        self._ambiguous: list[str] = []
        self._table = ""
        self._meanings = meanings(game)
        self._seconds = Clock().seconds
        for name in self.players:
            self._learn(name)

    def _learn(self, name: str) -> None:
        """Remember a name; an ambiguous one (the first :data:`MAX_KNOWN_NAMES`) turns the
        table lookup on for the lines that hold it."""
        self._known.add(name)
        if len(self._ambiguous) >= MAX_KNOWN_NAMES:
            return
        if is_ambiguous(name, self._plain.continuations):
            self._ambiguous.append(name)
            self._table = name_table(self._ambiguous)
            bound = name_bound(self._ambiguous)
            self._lookup = compiled_matcher(self._templates, self.game, bound)

    def parse_line(self, text: str, number: int = 0) -> ev.Event | None:
        """The event of one decoded line (None for a blank line)."""
        body = text.strip()
        if not body:
            return None
        matcher, subject = self._plain, body
        if self._ambiguous and any(name in body for name in self._ambiguous):
            matcher, subject = self._lookup, body + self._table
        match = matcher.regex.match(subject)
        if match is None or "\n" in body:
            return self._unparsed(body, text, number)
        template, build = matcher.plans[match.lastindex or 0]
        try:
            event = build(match, number, text, self._meanings, self._seconds)
        except NumberOutOfRange as error:
            return self._unparsed(body, text, number, error)
        if template.learn:
            player: str = getattr(event, "player")  # noqa: B009 - learning templates have one
            if player not in self._known:
                self.players.append(player)
                self._learn(player)
        return event

    def _unparsed(
        self, body: str, text: str, number: int, error: NumberOutOfRange | None = None
    ) -> ev.Unparsed:
        timestamp = seconds = None
        stamp = _TIMESTAMP.match(body)
        if stamp is not None:
            timestamp, hours, minutes = stamp.groups()
            seconds = self._seconds(hours, minutes)
            body = body[stamp.end() :]
        if self.strict and error is not None:
            column = text.find(error.text) + 1
            raise LogFormatError(str(error), Location(self.source, number, column or None))
        if self.strict:
            raise LogFormatError(f"no log template matches {body!r}", Location(self.source, number))
        return ev.Unparsed(body, line=number, raw=text, timestamp=timestamp, seconds=seconds)

    def events(self, lines: Iterable[tuple[int, str]]) -> Iterator[ev.Event]:
        """Events of numbered lines, lazily."""
        parse_line = self.parse_line
        for number, text in lines:
            event = parse_line(text, number)
            if event is not None:
                yield event


def read_lines(source: Source) -> tuple[str, Iterator[tuple[int, str]]]:
    """The source's display name and its numbered, decoded lines (streamed from files).

    A ``str`` is a path when it names an existing file and holds no line break, else log text.
    """
    if isinstance(source, bytes):
        source = source.removeprefix(_BOM)
        return "<bytes>", _decode_lines(iter(source.splitlines(keepends=True)), "<bytes>")
    if isinstance(source, str) and ("\n" in source or "\r" in source or not os.path.isfile(source)):
        return "<text>", _text_lines(source)
    path = Path(source)
    return str(path), _file_lines(path)


def _file_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The numbered lines of a file, chained from its blocks in C (no Python step per line)."""
    return chain.from_iterable(_numbered_blocks(path))


def _numbered_blocks(path: Path) -> Iterator[Iterable[tuple[int, str]]]:
    """The file's lines, a block at a time: valid UTF-8 without control bytes (the usual block)
    is decoded and split in one go, with the line ends of :func:`_decode_lines`, which reads
    any other block line by line (its lines before a bad byte come before the error)."""
    try:
        handle = path.open("rb")
    except OSError as error:
        raise LogFormatError(
            f"cannot read the log: {error.strerror}", Location(str(path))
        ) from error
    number = 0
    with handle:
        for block in _blocks(handle):
            text = None
            if _CONTROL_BYTES.search(block) is None:
                with contextlib.suppress(UnicodeDecodeError):
                    text = block.decode("utf-8")
            if text is None:
                decoded: list[tuple[int, str]] = []
                failure: LogFormatError | None = None
                try:
                    decoded.extend(_decode_lines(io.BytesIO(block), str(path), number))
                except LogFormatError as caught:
                    failure = caught
                yield decoded
                if failure is not None:
                    raise failure
                number += len(decoded)
                continue
            if "\r" in text:
                text = _CR_BEFORE_LF.sub("\n", text)
            lines = _CR_OR_LF.split(text) if "\r" in text else text.split("\n")
            lines.pop()  # after the last LF
            yield enumerate(lines, number + 1)
            number += len(lines)


def _blocks(handle: BinaryIO) -> Iterator[bytes]:
    """The file in large LF-terminated blocks, without its BOM; a block is cut after its last
    LF (the rest goes with the next one), and a final line without LF loses its trailing CRs,
    as a line before an LF does."""
    pending: list[bytes] = []
    first = True
    while block := handle.read(_BLOCK):
        cut = block.rfind(b"\n") + 1
        if not cut:
            pending.append(block)
            continue
        lines = b"".join((*pending, block[:cut]))
        pending = [block[cut:]]
        yield lines.removeprefix(_BOM) if first else lines
        first = False
    last = b"".join(pending)
    if last:
        last = last.rstrip(b"\r") + b"\n"
        yield last.removeprefix(_BOM) if first else last


def _decode_lines(chunks: Iterable[bytes], name: str, number: int = 0) -> Iterator[tuple[int, str]]:
    """Each LF-ended chunk is a line without its trailing CRs; inner CRs split it further."""
    for chunk in chunks:
        chunk = chunk.rstrip(b"\r\n")
        for raw in chunk.split(b"\r") if b"\r" in chunk else (chunk,):
            number += 1
            bad = _CONTROL_BYTES.search(raw)
            if bad is not None:
                raise _binary_error(name, number, bad.start(), raw[bad.start()])
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError:
                yield number, raw.decode("cp1252", errors="replace")


def _text_lines(text: str) -> Iterator[tuple[int, str]]:
    lines = enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1)
    if _CONTROL_TEXT.search(text) is None:
        yield from lines
        return
    for number, line in lines:
        bad = _CONTROL_TEXT.search(line)
        if bad is not None:
            raise _binary_error("<text>", number, bad.start(), ord(line[bad.start()]))
        yield number, line


def _binary_error(name: str, number: int, column: int, byte: int) -> LogFormatError:
    return LogFormatError(
        f"control byte 0x{byte:02x}: this is binary data, not a Lackey text log",
        Location(name, number, column + 1),
    )


def iter_events(
    source: Source,
    *,
    players: Iterable[str] = (),
    game: GameDefinition = ZOMBIE_GAME,
    strict: bool = False,
) -> Iterator[ev.Event]:
    """Stream the events of a log (a file is read line by line: for large logs)."""
    name, lines = read_lines(source)
    return LogParser(players=players, game=game, strict=strict, source=name).events(lines)


def parse_log(
    source: Source,
    *,
    players: Iterable[str] = (),
    game: GameDefinition = ZOMBIE_GAME,
    strict: bool = False,
) -> ParsedLog:
    """Read a whole log: its events, split into games, the players and the unparsed lines."""
    name, lines = read_lines(source)
    parser = LogParser(players=players, game=game, strict=strict, source=name)
    events = list(parser.events(lines))
    return ParsedLog(
        source=name,
        events=events,
        games=split_games(events),
        players=tuple(parser.players),
        unparsed=[event for event in events if isinstance(event, ev.Unparsed)],
    )


def split_games(events: Iterable[ev.Event]) -> list[Game]:
    """Split at new-game lines; players seated when a game starts belong to it."""
    games: list[Game] = []
    seated: dict[str, None] = {}
    had_new_game = False
    for event in events:
        new_game = isinstance(event, ev.NewGame)
        if not games or (new_game and had_new_game):
            games.append(Game(len(games) + 1, event.line, players=list(seated)))
            had_new_game = False
        had_new_game = had_new_game or new_game
        games[-1].events.append(event)
        _track_players(event, seated, games[-1].players)
    return games


def _track_players(event: ev.Event, seated: dict[str, None], players: list[str]) -> None:
    """Seat lines change who is seated; sitting, starting and loading a deck make a player."""
    if isinstance(event, ev.Seat):
        if event.action != "sit":
            if event.action != "spectate":
                seated.pop(event.player, None)
            return
        seated[event.player] = None
    if isinstance(event, ev.Seat | ev.NewGame | ev.DeckLoad) and event.player not in players:
        players.append(event.player)
