"""The game a card database holds, and its card columns as real columns of ``cards``.

The game definition file an import was given is stored in the ``game`` table, so every later
command finds it. Each of its columns that is not a built-in card field becomes a column of
``cards`` of its own: a generated column (typed by its declared affinity, an INTEGER column
holds numbers) computed from the exact text the import kept in ``extra``, indexed when the
definition marks it as searched. SQL, Datasette and the search language facet, sort and filter
on it like on any column, and the exact source text stays one place (``extra``), so exports
give back what was imported. This is a separate schema step (:func:`apply_game`), run by an
import that names a game; a database without one is the Zombie game of the built-in columns.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from zcards.store.schema import CARD_COLUMNS

if TYPE_CHECKING:
    from lackey_plugin.columns import Column
    from lackey_plugin.gamefile import GameFile

GAME_TABLE = """CREATE TABLE IF NOT EXISTS "game" (
   "id" INTEGER PRIMARY KEY CHECK ("id" = 1),
   "name" TEXT NOT NULL,
   "definition" TEXT NOT NULL,
   "origin" TEXT
)"""
_SQL_TYPES = {"integer": "INTEGER", "text": "TEXT", "list": "TEXT"}
_INDEX_PREFIX = "idx_cards_game_"


def stored_game(conn: sqlite3.Connection, root: Path | None = None) -> GameFile | None:
    """The game definition stored in the database, or None (the Zombie game); ``root``: the
    folder its relative paths start from (see :mod:`zcards.store.game_trust`)."""
    if not _has_table(conn, "game"):
        return None
    row = conn.execute('select "definition", "origin" from "game" where "id" = 1').fetchone()
    if row is None:
        return None
    from zcards.game.gamefile import parse_game  # a Zombie database's searches need no TOML

    return parse_game(row[0], row[1] or "<stored game>", root)


def game_columns(conn: sqlite3.Connection) -> dict[str, str]:
    """Header name -> column of ``cards``, for each own column of the stored game."""
    game = stored_game(conn)
    if game is None:
        return {}
    existing = {row[1] for row in conn.execute('pragma table_xinfo("cards")')}
    return {c.name: sql_name(c) for c in game.own_columns if sql_name(c) in existing}


def apply_game(conn: sqlite3.Connection, game: GameFile) -> None:
    """Store ``game`` and give ``cards`` a column of its own for each of its own columns
    (dropping those of a game stored before that this one does not have). Runs inside the
    caller's transaction."""
    previous = stored_game(conn)
    conn.execute(GAME_TABLE)
    conn.execute(
        'insert or replace into "game" ("id", "name", "definition", "origin") values (1, ?, ?, ?)',
        (game.game.name, game.source, game.origin),
    )
    existing = {row[1] for row in conn.execute('pragma table_xinfo("cards")')}
    wanted = {sql_name(column): column for column in game.own_columns}
    for column in previous.own_columns if previous else ():
        name = sql_name(column)
        if name in existing and name not in wanted:
            conn.execute(f'DROP INDEX IF EXISTS "{_INDEX_PREFIX}{name}"')
            conn.execute(f'ALTER TABLE "cards" DROP COLUMN "{name}"')
            existing.discard(name)
    for name, column in wanted.items():
        if name not in existing:
            conn.execute(f'ALTER TABLE "cards" ADD COLUMN {_column_sql(name, column)}')
        index = f'"{_INDEX_PREFIX}{name}"'
        if column.searched:
            collate = " COLLATE NOCASE" if column.type != "integer" else ""
            conn.execute(f'CREATE INDEX IF NOT EXISTS {index} ON "cards" ("{name}"{collate})')
        else:
            conn.execute(f"DROP INDEX IF EXISTS {index}")


BUILT_IN_COLUMNS = frozenset({*CARD_COLUMNS, "rowid"})


def sql_name(column: Column) -> str:
    """The column's name in ``cards``: its header, with ``_`` added when SQLite would take it
    for a built-in column (names are case-insensitive there: a text ``Cost`` is ``Cost_``)."""
    name = column.name
    return f"{name}_" if name.casefold() in BUILT_IN_COLUMNS else name


def _column_sql(name: str, column: Column) -> str:
    key = column.name.replace("'", "''")
    # extra keeps the source's exact text, spaces and all; searches see it trimmed.
    value = f"nullif(trim(json_extract(\"extra\", '$.\"{key}\"')), '')"
    return f'"{name}" {_SQL_TYPES[column.type]} GENERATED ALWAYS AS ({value}) VIRTUAL'


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute("select 1 from sqlite_master where type = 'table' and name = ?", (name,))
    return row.fetchone() is not None
