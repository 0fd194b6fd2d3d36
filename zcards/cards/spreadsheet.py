"""Card data from a spreadsheet: CSV (comma or semicolon) or XLSX, with the Lackey header.

A designer keeps the card list in a spreadsheet; its export is read like a Lackey card data
file: the same header (Name, Set, ImageFile first), the same normalisation and the same row
errors, each at the file, line (CSV: the line the record starts on; XLSX: the row number) and
column. The kind is found from the content, never from a file name: an XLSX file is a ZIP
archive, a CSV file's first line has no TAB and starts with a Name column before its comma or
semicolon. XLSX needs the optional ``openpyxl`` (``pip install 'zcards[xlsx]'``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from lackey_plugin.columns import Column
from lackey_plugin.text import TextNote, decode_bytes
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


@dataclass
class _Stream:
    """What the importer asks of a reader's decoding: the size read and any guesses made."""

    size: int
    notes: list[TextNote] = field(default_factory=list)


class SpreadsheetReader(TableReader):
    """A CSV or XLSX document, read like :class:`zcards.cards.normalise.CardReader`: the
    header now, then :meth:`chunks` of normalised rows."""

    def __init__(
        self,
        data: bytes,
        origin: str,
        *,
        problems: ProblemLog | None = None,
        game: Sequence[Column] | None = None,
    ) -> None:
        self.origin = origin
        kind = spreadsheet_kind(data[:4096])
        self.lines = _Stream(len(data))
        rows = _xlsx_rows(data, origin) if kind == "xlsx" else self._csv_rows(data)
        first = next(rows, None)
        if first is None or not any(first[1]):
            raise ZcardsError("card data is empty (no header row)", Location(origin, 1))
        self._rows = rows
        header = HeaderMap(first[1], origin, positional=False, game=game)  # any column order
        self.table = TableNormaliser(header, origin, None, problems)
        self.rows_read = 0

    def _csv_rows(self, data: bytes) -> Iterator[tuple[int, list[str]]]:
        decoded = decode_bytes(data)
        text = decoded.lstrip("\ufeff")
        delimiter = _delimiter(text.split("\n", 1)[0])
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
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


def _xlsx_rows(data: bytes, origin: str) -> Iterator[tuple[int, list[str]]]:
    """The first sheet's rows as text (a whole number stays a whole number: 3, not 3.0)."""
    try:
        import openpyxl
    except ImportError:
        raise ZcardsError(
            "reading an XLSX file needs openpyxl: pip install 'zcards[xlsx]'", Location(origin)
        ) from None
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a damaged file
        raise ZcardsError(f"not a readable XLSX file: {error}", Location(origin)) from None
    try:
        sheet = book.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(values_only=True), 1):
            yield number, [_cell_text(value) for value in values]
    finally:
        book.close()


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
