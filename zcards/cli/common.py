"""Options and output helpers shared by every command."""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click

from lackey_plugin.log.serial import encode_compact

T = TypeVar("T")

TABULAR_FORMATS = ("table", "json", "ndjson", "csv", "tsv")
HUMAN = ("table", "text")


def db_option(function: Callable) -> Callable:
    """``--db PATH``; defaults to $ZCARDS_DB, then ./cards.db."""
    return click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Card database (default: $ZCARDS_DB or ./cards.db).",
    )(function)


def format_option(choices: Sequence[str] = TABULAR_FORMATS, default: str = "table") -> Callable:
    """``--format``, spelled and documented the same way by every command."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help=f"Output format; {', '.join(c for c in choices if c not in HUMAN)} for scripts.",
    )


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
    """Print rows as an aligned table, JSON, NDJSON, CSV or TSV on stdout (all but the table
    streamed: rows are written as they come)."""
    if output_format in ("json", "ndjson"):
        emit_encoded(map(encode_compact, rows), output_format)
    elif output_format in ("csv", "tsv"):
        writer = csv.DictWriter(
            sys.stdout,
            fieldnames=list(columns),
            extrasaction="ignore",
            delimiter="," if output_format == "csv" else "\t",
            lineterminator="\n",
        )
        writer.writeheader()
        writer.writerows({key: _cell(row.get(key)) for key in columns} for row in rows)
    else:
        _emit_table(list(rows), columns, sys.stdout)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{count} {name}" for name, count in value.items())
    return str(value)


def _emit_table(rows: list[Mapping[str, Any]], columns: Sequence[str], out: TextIO) -> None:
    cells = [[_cell(row.get(column)) for column in columns] for row in rows]
    widths = [
        max([len(column)] + [len(line[index]) for line in cells])
        for index, column in enumerate(columns)
    ]
    out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for line in cells:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() + "\n")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def is_interactive() -> bool:
    """Progress bars only on a terminal: piped output stays clean for scripts."""
    return sys.stderr.isatty()


@contextmanager
def progress(items: Iterable[T], label: str, length: int | None = None) -> Iterator[Iterable[T]]:
    """Click's progress bar on a terminal (on stderr), the bare iterable otherwise."""
    if not is_interactive():
        yield items
        return
    with click.progressbar(items, label=label, length=length, file=sys.stderr) as bar:
        yield bar
