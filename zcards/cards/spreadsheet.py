"""Card data from a spreadsheet: CSV (comma or semicolon) or XLSX, with the Lackey header.

A designer keeps the card list in a spreadsheet; its export is read like a Lackey card data
file: the same header (Name, Set, ImageFile first), the same normalisation and the same row
errors, each at the file, line (CSV: the line the record starts on; XLSX: the row number) and
column. The kind is found from the content, never from a file name: an XLSX file is a ZIP
archive, a CSV file's first line has no TAB and starts with a Name column before its comma or
semicolon. XLSX needs the optional ``openpyxl`` (``pip install 'zcards[xlsx]'``).

Both stream: CSV a block of lines at a time through the one decoding policy (a million rows
cost what the same rows as TAB-separated data cost), XLSX through openpyxl's read-only mode.
An XLSX file is a ZIP archive anyone may have made: its parts may unpack to at most
:data:`MAX_UNPACKED` bytes (the shared strings, held whole by openpyxl, to
:data:`MAX_SHARED_STRINGS`), checked before anything is unpacked, and any damage (no sheet,
cut XML, entity tricks) is a clear error naming the file.
"""

from __future__ import annotations

import csv
import itertools
import zipfile
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from lackey_plugin.columns import Column
from lackey_plugin.inputs import MiB
from lackey_plugin.text import LineReader
from zcards.cards.normalise import TableReader
from zcards.cards.table import (
    FIELD_ALIASES,
    Chunk,
    HeaderMap,
    ProblemLog,
    TableNormaliser,
    header_key,
)
from zcards.errors import Location, ZcardsError

_ZIP = b"PK\x03\x04"
CHUNK_ROWS = 5000
MAX_UNPACKED = 256 * MiB
MAX_SHARED_STRINGS = 16 * MiB  # a 10,000-card list holds about 2 MiB


def spreadsheet_kind(head: bytes) -> str | None:
    """``"xlsx"``, ``"csv"`` or None (not a spreadsheet: TAB-separated card data, or other)."""
    if head.startswith(_ZIP):
        return "xlsx"
    first = head.lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0].decode("utf-8", errors="replace")
    if "\t" in first:
        return None
    delimiter = _delimiter(first)
    cells = [cell.strip().strip('"') for cell in first.split(delimiter)]
    named = any(header_key(cell) in FIELD_ALIASES["name"] for cell in cells)
    return "csv" if delimiter in first and named else None


def _delimiter(line: str) -> str:
    return ";" if line.count(";") > line.count(",") else ","


class SpreadsheetReader(TableReader):
    """A CSV or XLSX document, read like :class:`zcards.cards.normalise.CardReader`: the
    header now, then :meth:`chunks` of normalised rows."""

    def __init__(
        self,
        stream: BinaryIO,
        origin: str,
        *,
        problems: ProblemLog | None = None,
        game: Sequence[Column] | None = None,
    ) -> None:
        self.origin = origin
        kind = spreadsheet_kind(stream.read(4096))
        stream.seek(0)
        self.lines = LineReader(stream)  # the size read and what decoding guessed
        rows = _xlsx_rows(stream, origin) if kind == "xlsx" else self._csv_rows()
        first = next(rows, None)
        if first is None or not any(first[1]):
            raise ZcardsError("card data is empty (no header row)", Location(origin, 1))
        self._rows = rows
        header = HeaderMap(first[1], origin, positional=False, game=game)  # any column order
        self.table = TableNormaliser(header, origin, None, problems)
        self.rows_read = 0

    def _csv_rows(self) -> Iterator[tuple[int, list[str]]]:
        lines = (line + "\n" for _, block in self.lines.blocks() for line in block)
        first = next(lines, "").lstrip("\ufeff")
        reader = csv.reader(
            itertools.chain([first], lines), delimiter=_delimiter(first), strict=False
        )
        start = 1
        try:
            for cells in reader:
                yield start, cells
                start = reader.line_num + 1
        except csv.Error as error:
            raise ZcardsError(f"not valid CSV: {error}", Location(self.origin, start)) from None

    @property
    def warnings(self) -> list[Any]:
        return list(self.table.warnings)

    def chunks(self) -> Iterator[Chunk]:
        numbers: list[int] = []
        rows: list[list[str]] = []
        for number, cells in self._rows:
            numbers.append(number)
            rows.append(cells)
            if len(rows) == CHUNK_ROWS:
                yield self._chunk(numbers, rows)
                numbers, rows = [], []
        if rows:
            yield self._chunk(numbers, rows)

    def _chunk(self, numbers: list[int], rows: list[list[str]]) -> Chunk:
        chunk = self.table.chunk(numbers, rows, split=False)
        self.rows_read += len(chunk.lines)
        return chunk


def _xlsx_rows(stream: BinaryIO, origin: str) -> Iterator[tuple[int, list[str]]]:
    """The first sheet's rows as text (a whole number stays a whole number: 3, not 3.0)."""
    try:
        import openpyxl
    except ImportError:
        raise ZcardsError(
            "reading an XLSX file needs openpyxl: pip install 'zcards[xlsx]'", Location(origin)
        ) from None
    _check_archive(stream, origin)
    try:
        book = openpyxl.load_workbook(stream, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a damaged file
        raise _damaged(origin, error) from None
    try:
        if not book.worksheets:
            raise ZcardsError("not a readable XLSX file: it has no sheet", Location(origin))
        rows = book.worksheets[0].iter_rows(values_only=True)
        for number in itertools.count(1):
            try:
                values = next(rows, None)
            except Exception as error:  # a sheet's XML is parsed as it is read
                raise _damaged(origin, error, number) from None
            if values is None:
                return
            yield number, [_cell_text(value) for value in values]
    finally:
        book.close()


def _check_archive(stream: BinaryIO, origin: str) -> None:
    """Refuse an archive whose parts would unpack to more than the caps (a ZIP bomb):
    reading a part never yields more than the size its entry declares."""
    try:
        with zipfile.ZipFile(stream) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise _damaged(origin, error) from None
    finally:
        stream.seek(0)
    unpacked = sum(part.file_size for part in parts)
    shared = sum(part.file_size for part in parts if part.filename.endswith("sharedStrings.xml"))
    if unpacked > MAX_UNPACKED or shared > MAX_SHARED_STRINGS:
        raise ZcardsError(
            f"not a usable XLSX file: it unpacks to {unpacked // MiB:,} MiB "
            f"({shared // MiB:,} MiB of shared strings); the limits are "
            f"{MAX_UNPACKED // MiB} and {MAX_SHARED_STRINGS // MiB} MiB. Save the card list "
            "as CSV or TAB-separated text instead",
            Location(origin),
        )


def _damaged(origin: str, error: Exception, row: int | None = None) -> ZcardsError:
    reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
    return ZcardsError(
        f"not a readable XLSX file ({reason}): open it in a spreadsheet and save it again, "
        "or export it as CSV",
        Location(origin, row),
    )


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
