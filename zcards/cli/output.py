"""How commands write what scripts consume: rows as a text table, JSON, JSON lines, CSV or
TSV, streamed in large writes so memory stays flat however long the output is."""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import click

from zcards.cli.common import JSON_FORMATS, RAW_CELLS

_CHUNK = 1 << 16  # characters per write: one write per line costs more than the line


def write_chunked(pieces: Iterable[str]) -> None:
    """Write many small strings to stdout in large writes, as they come (memory stays flat)."""
    out = sys.stdout
    buffer: list[str] = []
    size = 0
    try:
        for piece in pieces:
            buffer.append(piece)
            size += len(piece)
            if size >= _CHUNK:
                out.write("".join(buffer))
                buffer.clear()
                size = 0
    finally:  # what was made before an error is written too
        out.write("".join(buffer))
        out.flush()


def emit_encoded(objects: Iterable[str], output_format: str) -> None:
    """Stream JSON texts (one object each) as a JSON array, one object per line (``json``),
    or as one object per line (``ndjson``/``jsonl``)."""
    if output_format == "json":
        write_chunked(_json_array(objects))
    else:
        write_chunked(text + "\n" for text in objects)


def _json_array(objects: Iterable[str]) -> Iterator[str]:
    separator = "[\n"
    for text in objects:
        yield separator
        yield text
        separator = ",\n"
    yield "[]\n" if separator == "[\n" else "\n]\n"


def emit_rows(
    rows: Iterable[Mapping[str, Any]], columns: Sequence[str], output_format: str
) -> None:
    """Print rows as an aligned text table, JSON, JSON lines, CSV or TSV on stdout, written as
    they come (the table is laid out from its first rows, see :func:`emit_table`)."""
    if output_format in JSON_FORMATS:
        from lackey_plugin.compact_json import encode_compact

        emit_encoded(map(encode_compact, rows), output_format)
        return
    cells = ([cell(row.get(column)) for column in columns] for row in rows)
    if output_format in ("csv", "tsv"):
        emit_delimited(cells, columns, output_format)
    else:
        emit_table(cells, columns)


def emit_delimited(
    rows: Iterable[Sequence[Any]], columns: Sequence[str], output_format: str
) -> None:
    """Rows of cells as CSV or TSV (quoted where needed) after a header of ``columns``; None
    is an empty cell, a cell a spreadsheet would run is made text (:func:`spreadsheet_text`)
    unless ``--raw-cells`` was given. The C writer fills a list, written out every
    :data:`_CSV_BATCH` rows."""
    import csv

    pieces = _Pieces()
    delimiter = "," if output_format == "csv" else "\t"
    writer = csv.writer(pieces, delimiter=delimiter, lineterminator="\n")
    context = click.get_current_context(silent=True)
    raw = bool(context and context.find_root().meta.get(RAW_CELLS))
    writer.writerow(columns if raw else spreadsheet_text(columns))
    rows = iter(rows) if raw else map(spreadsheet_text, rows)
    out = sys.stdout
    while pieces:
        out.write("".join(pieces))
        pieces.clear()
        writer.writerows(itertools.islice(rows, _CSV_BATCH))
    out.flush()


_CSV_BATCH = 512
# What a spreadsheet reads as the start of a formula (=, +, -, @) or strips before one (TAB,
# CR): OWASP's list for CSV injection. Quoting does not help; a leading ' makes the cell text.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def spreadsheet_text(row: Sequence[Any]) -> list[Any]:
    """``row`` with every text cell a spreadsheet would run as a formula (``=HYPERLINK(…)``,
    ``@SUM(…)``, ``+1+cmd|…``) prefixed with ``'``; a plain number like ``-3`` stays as it is."""
    return [
        f"'{value}"
        if isinstance(value, str)
        and value.startswith(_FORMULA_START)
        and not _PLAIN_NUMBER.fullmatch(value)
        else value
        for value in row
    ]


class _Pieces(list[str]):
    """Where the CSV writer writes: appended in C, no stream call per row."""

    write = list.append


def cell(value: Any) -> str:
    """A value as one table or CSV cell: lists as ``a, b``, requirements as ``2 Fast``."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{count} {name}" for name, count in value.items())
    return str(value)


TABLE_SAMPLE = 100
"""Rows a text table's column widths are taken from: a wider cell further down is written
whole and shifts the rest of its line, memory stays flat however long the table is."""


def emit_table(rows: Iterable[Sequence[str]], columns: Sequence[str]) -> None:
    """Rows of text cells as an aligned table, written as they come: the widths are those of
    the header and the first :data:`TABLE_SAMPLE` rows."""
    lines = iter(rows)
    sample = list(itertools.islice(lines, TABLE_SAMPLE))
    widths = [
        max([len(column)] + [len(line[index]) for line in sample])
        for index, column in enumerate(columns)
    ]

    def layout(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip() + "\n"

    header = [layout(columns), "  ".join("-" * w for w in widths) + "\n"]
    write_chunked(itertools.chain(header, map(layout, itertools.chain(sample, lines))))


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))
