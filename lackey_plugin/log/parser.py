"""Read a LackeyCCG game log into typed events; never stop at a line it does not know.

The parser knows Lackey's line templates (``templates.toml``), not any game: it is given a
:class:`~lackey_plugin.game.GameDefinition` (zones, phases, stats, function labels and what
each label means), as python-hslog is given its grammar, and every function event carries its
label and the meaning that definition assigns to it.

Input is a file (:func:`parse_log_file`, :func:`iter_log_file`; read a block at a time, so
memory stays flat) or text already in memory (:func:`parse_log_text`, :func:`iter_log_text`).
Bytes are decoded by the one policy of :mod:`lackey_plugin.text` (UTF-8, a stray byte read as
Windows-1252 and noted by line; a BOM; LF, CRLF or CR). A line holding NUL or other control
characters means the file is not a text log: :class:`LogFormatError` (the one documented
error) names the file, line and column, as it does for a file that cannot be read. Unknown
lines become :class:`~lackey_plugin.log.events.Unparsed` events, or the same error with
``strict=True``; so does a line longer than :data:`MAX_LINE` characters after its stamp (no
Lackey line is that long, and the cap bounds the regex work a crafted line can cause).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from typing import BinaryIO

from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.game import GameDefinition
from lackey_plugin.inputs import MiB, open_regular
from lackey_plugin.log import events as ev
from lackey_plugin.log.matcher import (
    MAX_KNOWN_NAMES,
    STAMP,
    Matcher,
    StampClock,
    is_ambiguous,
    name_bound,
    name_table,
)
from lackey_plugin.log.matcher import MAX_LINE as MAX_LINE  # re-exported: documented here
from lackey_plugin.log.templates import MAX_NUMBER as MAX_NUMBER  # documented here too
from lackey_plugin.log.templates import NumberOutOfRange, Template, Vocabulary, default_templates
from lackey_plugin.text import BLOCK_SIZE, LineReader, LineTooLong, TextNote, split_lines

_TIMESTAMP = re.compile(STAMP)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BLOCK = BLOCK_SIZE
MAX_READ_LINE = MiB
"""Longest line read at all (a file without line breaks is refused, not held whole)."""
LogFile = str | os.PathLike[str] | BinaryIO


@lru_cache(maxsize=16)
def compiled_matcher(
    templates: tuple[Template, ...], game: GameDefinition, longest: int
) -> Matcher:
    """The matcher of a template table: without the known-name lookup (``longest`` 0), or with
    it for names up to ``longest`` characters (a power of two). Names are data, so a process
    compiles a table a few times at most."""
    return Matcher(templates, Vocabulary.of(game), longest)


class LogFormatError(LackeyError):
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
    notes: list[TextNote] = field(default_factory=list)
    """What decoding the file had to guess (Windows-1252 lines), by line."""

    def kinds(self) -> Counter[str]:
        """How many events of each kind (``draw``, ``move``…), for summaries."""
        return Counter(event.kind for event in self.events)


class LogParser:
    """Turns lines into events, learning player names as it goes.

    ``game`` gives the vocabulary (zones, phases, stats, function labels, tried before any
    text) and what each function label means (``meaning`` of the function events).

    Known names (given, or learnt from seat, join, new-game and deck-load lines) are matched
    longest first, so "The Man who plays" is never read as "The Man who"; other names still
    parse. Names are data, not part of the compiled regex (:func:`compiled_matcher`): most
    read the same with the any-name patterns, and the few the patterns could split otherwise
    (:func:`~lackey_plugin.log.matcher.is_ambiguous`; the first
    :data:`~lackey_plugin.log.matcher.MAX_KNOWN_NAMES` of them) are looked up in a table
    appended to the lines that hold them. Learning a name compiles nothing: the work stays
    linear in the log. A number beyond :data:`MAX_NUMBER` makes its line unparsed (in
    ``strict`` mode a :class:`LogFormatError` naming its column), and so does a chat line
    whose speaker would be a known name followed by more words: the parser invents no
    player."""

    def __init__(
        self,
        *,
        game: GameDefinition,
        players: Iterable[str] = (),
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
        self._meanings = game.meanings()
        self._seconds = StampClock().seconds
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
        if isinstance(event, (ev.Chat, ev.Whisper)) and self._invents(event.player):
            return self._unparsed(body, text, number)
        if template.learn:
            player: str = getattr(event, "player")  # noqa: B009 - learning templates have one
            if player not in self._known:
                self.players.append(player)
                self._learn(player)
        return event

    def _invents(self, speaker: str) -> bool:
        """Whether a chat line's speaker would be a new player made of a known one's name and
        more words ("Alice draws 2 cards. (Deck" from a line no template knows): such a line
        is unparsed, never chat from a player who is not at the table."""
        if speaker in self._known:
            return False
        cut = speaker.find(" ")
        while cut > 0:
            if speaker[:cut] in self._known:
                return True
            cut = speaker.find(" ", cut + 1)
        return False

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


class LogLines:
    """The numbered, decoded lines of a log file, streamed a block at a time.

    ``file`` is a path or a binary stream already open (read, not closed). Iterate once;
    afterwards ``notes`` says what decoding had to guess. A file that cannot be read, or that
    holds control characters (binary data), is a :class:`LogFormatError`; the lines before
    the bad one come first.
    """

    def __init__(self, file: LogFile) -> None:
        self.file = file
        if isinstance(file, str | os.PathLike):
            self.source = os.fspath(file)
        else:
            self.source = str(getattr(file, "name", "<bytes>"))
        self.notes: list[TextNote] = []

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return chain.from_iterable(self._blocks())  # chained in C: no Python step per line

    def _blocks(self) -> Iterator[Iterable[tuple[int, str]]]:
        if not isinstance(self.file, str | os.PathLike):
            yield from self._read(self.file)
            return
        try:
            handle = open_regular(self.file, "log")
        except LackeyError as error:
            raise LogFormatError(error.message, error.location) from None
        with handle:
            yield from self._read(handle)

    def _read(self, handle: BinaryIO) -> Iterator[Iterable[tuple[int, str]]]:
        reader = LineReader(handle, block_size=_BLOCK, max_line=MAX_READ_LINE)
        try:
            yield from self._checked(reader)
        except LineTooLong as error:
            message = f"the line is longer than {error.limit:,} bytes: no Lackey log has such lines"
            raise LogFormatError(message, Location(self.source, error.line)) from None
        self.notes = reader.notes

    def _checked(self, reader: LineReader) -> Iterator[Iterable[tuple[int, str]]]:
        for first, lines in reader.blocks():
            if _CONTROL.search("\n".join(lines)) is None:
                yield enumerate(lines, first)
                continue
            for offset, line in enumerate(lines):
                bad = _CONTROL.search(line)
                if bad is not None:
                    yield enumerate(lines[:offset], first)  # the lines before the bad one
                    raise _binary_error(self.source, first + offset, bad.start(), line)


def text_lines(text: str) -> Iterator[tuple[int, str]]:
    """The numbered lines of log text (a BOM dropped, line breaks as in a file); control
    characters are a :class:`LogFormatError`, as in a file."""
    lines = enumerate(split_lines(text.removeprefix("\ufeff")), start=1)
    if _CONTROL.search(text) is None:
        yield from lines
        return
    for number, line in lines:
        bad = _CONTROL.search(line)
        if bad is not None:
            raise _binary_error("<text>", number, bad.start(), line)
        yield number, line


def _binary_error(name: str, number: int, column: int, line: str) -> LogFormatError:
    return LogFormatError(
        f"control byte 0x{ord(line[column]):02x}: this is binary data, not a Lackey text log",
        Location(name, number, column + 1),
    )


def iter_log_file(
    file: LogFile,
    *,
    game: GameDefinition,
    players: Iterable[str] = (),
    strict: bool = False,
) -> Iterator[ev.Event]:
    """Stream the events of a log file, a path or an open binary stream (read a block at a
    time: for large logs)."""
    lines = LogLines(file)
    return LogParser(game=game, players=players, strict=strict, source=lines.source).events(lines)


def iter_log_text(
    text: str, *, game: GameDefinition, players: Iterable[str] = (), strict: bool = False
) -> Iterator[ev.Event]:
    """Stream the events of log text already in memory."""
    return LogParser(game=game, players=players, strict=strict).events(text_lines(text))


def parse_log_file(
    file: LogFile,
    *,
    game: GameDefinition,
    players: Iterable[str] = (),
    strict: bool = False,
) -> ParsedLog:
    """Read a whole log file (a path or an open binary stream): its events split into games,
    the players, the unparsed lines. A path that names no readable file is a
    :class:`LogFormatError`, never log text."""
    lines = LogLines(file)
    parsed = _parse(lines, lines.source, game, players, strict)
    parsed.notes = lines.notes
    return parsed


def parse_log_text(
    text: str, *, game: GameDefinition, players: Iterable[str] = (), strict: bool = False
) -> ParsedLog:
    """Read a whole log held in a string (see :func:`parse_log_file`)."""
    return _parse(text_lines(text), "<text>", game, players, strict)


def _parse(
    lines: Iterable[tuple[int, str]],
    source: str,
    game: GameDefinition,
    players: Iterable[str],
    strict: bool,
) -> ParsedLog:
    parser = LogParser(game=game, players=players, strict=strict, source=source)
    events = list(parser.events(lines))
    return ParsedLog(
        source=source,
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
