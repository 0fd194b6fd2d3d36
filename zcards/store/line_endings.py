"""How each imported card data file's lines ended, so an export writes them the same way.

A Windows source (CRLF) exported as LF would change every line of the file Lackey downloads
again; :func:`store_newlines` records each card data source's line ending at import,
:func:`source_newlines` gives them to the export. A database made before has no such table:
its files are LF.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping

NEWLINE_TABLE = """CREATE TABLE IF NOT EXISTS "source_newlines" (
   "source_id" INTEGER PRIMARY KEY,
   "newline" TEXT NOT NULL CHECK ("newline" IN (char(10), char(13, 10)))
)"""


def store_newlines(conn: sqlite3.Connection, newlines: Iterable[tuple[int, str]]) -> None:
    """Record ``(source id, line ending)`` pairs (inside the import's transaction)."""
    conn.execute(NEWLINE_TABLE)
    conn.executemany(
        'insert or replace into "source_newlines" ("source_id", "newline") values (?, ?)',
        newlines,
    )


def source_newlines(conn: sqlite3.Connection) -> Mapping[int, str]:
    """Source id -> its line ending, for the sources whose ending was recorded."""
    try:
        return dict(conn.execute('select "source_id", "newline" from "source_newlines"'))
    except sqlite3.OperationalError:  # no such table: an older database, LF everywhere
        return {}
