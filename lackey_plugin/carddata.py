"""Card data files (``sets/*.txt``), read and written, for any game's columns
(docs/lackey-formats.md §3).

A card data file is a TAB-separated table whose header names the columns; Lackey needs Name,
Set and ImageFile first and reads any others. Reading follows the one decoding policy of
:mod:`lackey_plugin.text` and never fails: :class:`CardDataReader` streams a file a block of
raw rows at a time (an importer normalises them), :func:`read_card_data` splits a whole small
file into rows of fields (the linter and the verifier judge what they find). Writing splits a
set into files under 1 MB and refuses what would break the table (a TAB or line break in a
value) or leave the ``sets`` folder (an unsafe set name): the caller cleans its data first.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import BinaryIO

from lackey_plugin.errors import LackeyError
from lackey_plugin.paths import is_safe_component
from lackey_plugin.text import BLOCK_SIZE, LineReader, TextNote, control_characters

MAX_FILE_BYTES = 1_000_000
_FIELD_BREAKS = frozenset("\t\r\n")


def render_card_files(
    set_name: str,
    columns: Sequence[str],
    rows: Iterable[Mapping[str, str] | Sequence[str]],
    *,
    newline: str = "\n",
) -> list[tuple[str, str]]:
    """``[(file name, text)]`` for one set: ``<set>.txt``, then ``<set>-2.txt`` … past 1 MB.

    A row is a mapping that gives its value for some of ``columns`` (the others are empty),
    or its values in column order (as many as it has: a row may run past the header). Lines
    end in ``newline`` (LF, or CRLF as a Windows source had them)."""
    if newline not in ("\n", "\r\n"):
        raise LackeyError(f"a card data file's lines end in LF or CRLF, not {newline!r}")
    if not is_safe_component(set_name):
        raise LackeyError(f"set name {set_name!r} is not a plain file name")
    for column in columns:
        if control_characters(column):
            raise LackeyError(f"column name {column!r} holds {control_characters(column)}")
    header = "\t".join(columns) + newline
    files: list[tuple[str, str]] = []
    lines: list[str] = []
    size = len(header.encode())
    for fields in rows:
        if isinstance(fields, Mapping):
            values = [fields.get(column, "") for column in columns]
        else:
            values = list(fields)
        if any(not _FIELD_BREAKS.isdisjoint(value) for value in values):
            raise LackeyError(f"a TAB or line break in a field of {values[0]!r} ({set_name})")
        line = "\t".join(values) + newline
        line_size = len(line.encode())
        if lines and size + line_size >= MAX_FILE_BYTES:
            files.append((_part_name(set_name, len(files)), header + "".join(lines)))
            lines, size = [], len(header.encode())
        lines.append(line)
        size += line_size
    files.append((_part_name(set_name, len(files)), header + "".join(lines)))
    return files


def _part_name(set_name: str, index: int) -> str:
    return f"{set_name}.txt" if index == 0 else f"{set_name}-{index + 1}.txt"


class CardDataReader:
    """One card data stream: its ``header`` (the first line split on TAB; empty for an empty
    stream) at once, then :meth:`blocks` of raw rows, numbered (blank lines kept, so numbers
    stay true). ``lines`` is the decoding :class:`~lackey_plugin.text.LineReader`: its
    ``notes``, ``had_bom``, ``saw_cr``, ``all_utf8``, ``ended_with_break`` and ``size``
    describe the stream once the last block has been read."""

    def __init__(
        self, stream: BinaryIO, origin: str = "<card data>", *, block_size: int = BLOCK_SIZE
    ) -> None:
        self.origin = origin
        self.lines = LineReader(stream, block_size=block_size)
        self._blocks = self.lines.blocks()
        first = next(self._blocks, None)
        raw = first[1] if first else []
        self.header_line: str | None = raw[0] if raw else None
        self.header = self.header_line.split("\t") if self.header_line is not None else []
        self._first = (2, raw[1:])

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """``(number of the first row's line, raw rows)``; each row is one TAB-separated line."""
        if self._first[1]:
            yield self._first
        yield from self._blocks


@dataclass(frozen=True)
class CardDataRow:
    """One row: its ``line``, its raw ``values`` in file order (a row may have more or fewer
    than the header), and ``fields``, the values by header name (a repeated header name keeps
    its last value). ``zip(header, row.values)`` pairs each value with its column."""

    line: int
    fields: dict[str, str]
    extra_fields: int
    """How many fields the row has beyond the header (VTES ships such rows)."""
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class CardDataFile:
    """A whole card data file as Lackey reads it: split on raw TABs, any line ending."""

    header: list[str]
    rows: list[CardDataRow]
    has_bom: bool
    utf8: bool
    crlf: bool
    """True when a line ends in CR (CRLF or CR alone) rather than LF."""
    notes: list[TextNote]


def read_card_data(data: bytes, origin: str = "<card data>") -> CardDataFile:
    """Split card data bytes into rows of fields without ever failing; blank rows are left
    out, and an empty file has one empty header cell, as Lackey sees it."""
    reader = CardDataReader(io.BytesIO(data), origin, block_size=max(len(data), 1))
    header = reader.header if reader.header_line is not None else [""]
    rows = []
    for first, lines in reader.blocks():
        for number, line in enumerate(lines, first):
            if not line.strip():
                continue
            values = line.split("\t")
            fields = dict(zip(header, values, strict=False))
            extra = max(0, len(values) - len(header))
            rows.append(CardDataRow(number, fields, extra, tuple(values)))
    decoded = reader.lines
    return CardDataFile(
        header, rows, decoded.had_bom, decoded.all_utf8, decoded.saw_cr, decoded.notes
    )
