"""Turn a Lackey card-data file (bytes from anywhere) into normalised ``cards`` rows, streamed.

Real card lists are messy: any encoding, any line ending, headers in any case, extra
columns, typos. The normaliser reads the file with Lackey's one card data reader
(:class:`lackey_plugin.carddata.CardDataReader`), accepts what LackeyCCG accepts, cleans what
it can, and names file, line and column for everything it cannot. A file whose header has a
``Faction`` column is Zombie CCG data and is validated strictly (types, factions, keywords,
symbols, rarities, numbers); any other game's data is imported leniently, so card data of
any published Lackey plugin loads with every row.

:class:`CardReader` reads a stream a block of lines at a time (memory does not grow with the
file); :func:`parse_card_data` collects a whole small document into a :class:`CardFile`.
Duplicate cards are found by whoever sees every row: :func:`parse_card_data` for one
document, the importer (in SQLite) for an import.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from lackey_plugin.carddata import CardDataReader
from lackey_plugin.columns import Column as GameColumn
from lackey_plugin.text import TextNote
from zcards.cards.model import Card
from zcards.cards.table import FIELD_ALIASES, Chunk, HeaderMap, Problem, ProblemLog, TableNormaliser
from zcards.errors import Location, ZcardsError

__all__ = [
    "FIELD_ALIASES",
    "CardDataError",
    "CardFile",
    "CardReader",
    "NumberedCard",
    "Chunk",
    "Problem",
    "looks_like_card_data",
    "normalise_table",
    "parse_card_data",
    "read_card_file",
]


# Rows are normalised a chunk of about this many bytes at a time: the strings and lists made
# of a chunk's cells then stay in the processor's caches until they are written (100,000
# rows imported 12 % faster than in chunks of 1 MiB; 32 to 128 KiB made no difference).
CHUNK_BYTES = 1 << 16


class CardDataError(ZcardsError):
    """Card data with bad rows; ``problems`` lists them (file, line, column)."""

    def __init__(self, problems: Sequence[Problem], hint: str = "", total: int | None = None):
        self.problems = list(problems)
        shown = "\n".join(f"  {problem}" for problem in self.problems[:50])
        count = len(self.problems) if total is None else total
        more = count - min(len(self.problems), 50)
        if more > 0:
            shown += f"\n  ... and {more} more"
        summary = f"{count} bad row{'s' if count != 1 else ''} in card data{hint}:\n{shown}"
        super().__init__(summary)


@dataclass(frozen=True)
class NumberedCard:
    line: int
    card: Card


@dataclass
class CardFile:
    """A whole card-data document, read into memory (see :class:`CardReader` for streams).

    Good rows are kept as ``cards`` table values (``stored``, in
    :data:`~zcards.cards.model.CARD_FIELDS` order, with their ``lines``); :class:`Card` objects are
    only built when ``rows`` or ``cards`` is read.
    """

    origin: str
    columns: list[str]
    zombie: bool
    lines: list[int] = field(default_factory=list)
    stored: list[tuple[Any, ...]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @functools.cached_property
    def rows(self) -> list[NumberedCard]:
        pairs = zip(self.lines, self.stored, strict=True)
        return [NumberedCard(line, Card.from_values(values)) for line, values in pairs]

    @property
    def cards(self) -> list[Card]:
        return [row.card for row in self.rows]


class TableReader:
    """What every card data reader shows of its table: the header's columns, whether the data
    is validated as Zombie CCG cards, and the bad rows found so far."""

    table: TableNormaliser

    @property
    def columns(self) -> list[str]:
        return self.table.header.columns

    @property
    def zombie(self) -> bool:
        return self.table.strict

    @property
    def problems(self) -> ProblemLog:
        return self.table.problems


class CardReader(TableReader):
    """One card-data stream: the header now, then :meth:`chunks` of normalised rows.

    ``problems`` and ``warnings`` fill up as
    chunks are read. A last line cut short (fewer fields than the header and no line break
    at the end: a truncated download or copy) is an error, never a shorter card list.
    """

    def __init__(
        self,
        stream: BinaryIO,
        origin: str,
        *,
        zombie: bool | None = None,
        problems: ProblemLog | None = None,
        game: Sequence[GameColumn] | None = None,
    ) -> None:
        self.origin = origin
        self.reader = CardDataReader(stream, origin, block_size=CHUNK_BYTES)
        self.lines = self.reader.lines
        if not (self.reader.header_line or "").strip():
            raise ZcardsError("card data is empty (no header row)", Location(origin, 1))
        self.table = TableNormaliser(
            HeaderMap(self.reader.header, origin, game=game), origin, zombie, problems
        )
        self.rows_read = 0

    @property
    def warnings(self) -> list[Problem]:
        """Header, cleaning and decoding warnings (decoding ones complete after the last chunk)."""
        notes = [_note(self.origin, note) for note in self.lines.notes]
        return notes + self.table.warnings

    def chunks(self) -> Iterator[Chunk]:
        for number, lines in self.reader.blocks():
            if not lines:
                continue
            if not self.lines.ended_with_break:
                self._check_last_line(number + len(lines) - 1, lines[-1])
            chunk = self.table.chunk(range(number, number + len(lines)), lines)
            self.rows_read += len(chunk.lines)
            yield chunk

    def _check_last_line(self, number: int, line: str) -> None:
        fields = line.count("\t") + 1
        width = self.table.header.width
        if line.strip() and fields < width:
            raise ZcardsError(
                f"the last line is cut short: {fields} of {width} fields and no line break "
                "at the end of the file (truncated?); nothing imported",
                Location(self.origin, number, fields),
            )


def read_card_file(path: str | Path, *, skip_bad_rows: bool = False) -> list[Card]:
    """Read a card-data file; raises :class:`CardDataError` naming every bad row."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ZcardsError(f"cannot read card data: {error.strerror}", Location(str(path))) from None
    parsed = parse_card_data(data, str(path))
    if parsed.problems and not skip_bad_rows:
        raise CardDataError(parsed.problems)
    return parsed.cards


def looks_like_card_data(text: str) -> bool:
    """A card-data header starts with a Name column."""
    from zcards.cards.table import header_key

    first = text.lstrip("\ufeff").split("\n", 1)[0].split("\r", 1)[0].split("\t", 1)[0]
    return header_key(first) in FIELD_ALIASES["name"]


def parse_card_data(
    data: bytes | str,
    origin: str,
    *,
    zombie: bool | None = None,
    game: Sequence[GameColumn] | None = None,
) -> CardFile:
    """Parse a whole document; ``zombie`` forces strict Zombie CCG validation on or off
    (default: auto); ``game``: the columns of a game definition (see :class:`HeaderMap`).
    Duplicate Zombie CCG cards are bad rows."""
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    reader = CardReader(
        io.BytesIO(data), origin, zombie=zombie, problems=ProblemLog(None), game=game
    )
    result = CardFile(origin, reader.columns, reader.zombie)
    for chunk in reader.chunks():
        result.lines += chunk.lines
        result.stored += chunk.rows()
    result.warnings = reader.warnings
    result.problems = list(reader.problems)
    _drop_duplicates(result)
    return result


def normalise_table(
    header: list[str],
    rows: Sequence[tuple[int, list[str]]],
    origin: str,
    *,
    zombie: bool | None = None,
    positional: bool = True,
) -> CardFile:
    """Normalise a header and raw rows (an HTML table).

    Lackey reads Name, Set, ImageFile as the first three columns (``positional``); a web
    page's table only needs Name and Set columns somewhere.
    """
    table = TableNormaliser(HeaderMap(header, origin, positional), origin, zombie, ProblemLog(None))
    chunk = table.chunk([number for number, _ in rows], [cells for _, cells in rows], split=False)
    result = CardFile(origin, table.header.columns, table.strict)
    result.lines, result.stored = chunk.lines, list(chunk.rows())
    result.warnings, result.problems = table.warnings, list(table.problems)
    _drop_duplicates(result)
    return result


def _drop_duplicates(result: CardFile) -> None:
    """A second Zombie CCG card with a (Set, Name) already seen in the document is a bad row."""
    if not result.zombie:
        return
    first_line: dict[tuple[str, str], int] = {}
    lines, stored = [], []
    for line, row in zip(result.lines, result.stored, strict=True):
        key = (row[1], row[0])
        first = first_line.setdefault(key, line)
        if first != line:
            message = f"duplicate card {row[0]!r} in set {row[1]!r} (first at line {first})"
            result.problems.append(Problem(Location(result.origin, line, "Name"), message))
            continue
        lines.append(line)
        stored.append(row)
    result.problems.sort(key=lambda problem: problem.location.line or 0)
    result.lines, result.stored = lines, stored


def _note(origin: str, note: TextNote) -> Problem:
    return Problem(Location(origin, note.line), note.message)
