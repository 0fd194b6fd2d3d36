"""A designer's effect rows, kept in the card database with the cards of his set.

An import given ``--effects FILE`` stores the file's text (the row format of
``zcards/game/effects.toml``, see docs/effects.md) in the ``effect_rows`` table under the
file's name, replacing what an earlier import stored under it; every later command that
reads cards from the database reads these rows with them (:func:`stored_rows`), so the
audit, the simulator and ``rules coverage`` see the set as its designer wrote it.
"""

from __future__ import annotations

import sqlite3

from zcards.game.effects import Row, rows_of

EFFECT_ROWS_TABLE = """CREATE TABLE IF NOT EXISTS "effect_rows" (
   "name" TEXT PRIMARY KEY,
   "rows" TEXT NOT NULL
)"""


def store_rows(conn: sqlite3.Connection, name: str, text: str) -> None:
    """Keep an effects file's text under ``name``; runs inside the caller's transaction."""
    rows_of(text, name)  # a file that does not parse is refused before anything is written
    conn.execute(EFFECT_ROWS_TABLE)
    conn.execute(
        'insert or replace into "effect_rows" ("name", "rows") values (?, ?)', (name, text)
    )


def stored_rows(conn: sqlite3.Connection) -> tuple[Row, ...]:
    """Every effect row the database keeps, file by file in name order."""
    found = conn.execute(
        "select 1 from sqlite_master where type = 'table' and name = 'effect_rows'"
    ).fetchone()
    if found is None:
        return ()
    rows: list[Row] = []
    for name, text in conn.execute('select "name", "rows" from "effect_rows" order by "name"'):
        rows.extend(rows_of(text, name))
    return tuple(rows)
