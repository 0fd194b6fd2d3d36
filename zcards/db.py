"""The SQLite card database (sqlite-utils): schema and read access shared by every command.

Writing (imports, provenance, change log) lives in :mod:`zcards.importer`; this module only
knows the schema and how to read cards back as :class:`~zcards.model.Card` objects.
Keywords and symbols are JSON arrays: query them with ``json_each`` (see :func:`keyword_clause`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from zcards.errors import ZcardsError
from zcards.model import Card

DEFAULT_DB = "cards.db"
BUILD_DIR = Path("build")
BUILT_DB = BUILD_DIR / "cards.db"
_BULK_ROWS = 1000
CARD_COLUMNS: dict[str, type] = {
    "name": str,
    "set_name": str,
    "image_file": str,
    "type": str,
    "faction": str,
    "cost": int,
    "power": int,
    "health": int,
    "keywords": str,
    "requirements": str,
    "symbols": str,
    "rarity": str,
    "text": str,
    "extra": str,
    "image_url": str,
    "source_id": int,
}


def find_db(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The card database every command reads, or None for the bundled set.

    ``--db`` wins, then ``$ZCARDS_DB`` (both used as given, even when missing), then
    ``./cards.db``, then ``build/cards.db`` (what ``zcards build`` writes here); when
    neither exists, None: the bundled set, so a fresh install answers queries at once.
    """
    explicit = path or os.environ.get("ZCARDS_DB")
    if explicit:
        return Path(explicit)
    for candidate in (Path(DEFAULT_DB), BUILT_DB):
        if candidate.exists():
            return candidate
    return None


def resolve_db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """Where an import writes: the database :func:`find_db` reads, else a new ``./cards.db``."""
    return find_db(path) or Path(DEFAULT_DB)


def open_db(
    path: str | os.PathLike[str] | None = None, *, must_exist: bool = True
) -> sqlite_utils.Database:
    """Open the card database (see :func:`find_db`); a missing ``--db``/``$ZCARDS_DB`` file is
    a clear error unless we are about to create it."""
    db_path = find_db(path) if must_exist else resolve_db_path(path)
    if db_path is None:
        return bundled_db()
    if must_exist and not db_path.exists():
        raise ZcardsError(
            f"card database {db_path} does not exist (run 'zcards build' or 'zcards import')"
        )
    db = sqlite_utils.Database(db_path, execute_plugins=False)  # 10 ms of entry-point scanning
    ensure_schema(db)
    return db


def bundled_db() -> sqlite_utils.Database:
    """The bundled set in a read-only in-memory database: the last default, never written."""
    from zcards.normalise import read_card_file
    from zcards.resources import BUNDLED_SET

    db = sqlite_utils.Database(memory=True, execute_plugins=False)
    ensure_schema(db)
    insert_cards(db.conn, [_card_values(card.to_row()) for card in read_card_file(BUNDLED_SET)])
    db.conn.commit()
    db.execute("pragma query_only = on")
    return db


def _card_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row.get(column) for column in CARD_COLUMNS)


SOURCE_COLUMNS: dict[str, type] = {
    "id": int,
    "location": str,
    "kind": str,
    "parent_id": int,
    "fetched_at": str,
    "checked_at": str,
    "sha256": str,
    "etag": str,
    "last_modified": str,
    "bytes": int,
    "row_count": int,
}
RUN_COLUMNS: dict[str, type] = {
    "id": int,
    "started_at": str,
    "finished_at": str,
    "sources": str,
    "added": int,
    "removed": int,
    "changed": int,
    "unchanged": int,
    "skipped_rows": int,
    "warnings": int,
}
CHANGE_COLUMNS: dict[str, type] = {
    "id": int,
    "run_id": int,
    "set_name": str,
    "name": str,
    "action": str,
    "fields": str,
}


def ensure_schema(db: sqlite_utils.Database) -> None:
    """Create any missing table: cards (+ full-text index), variants, provenance, change log.

    ``card_variants`` holds further rows with an already-seen (Set, Name): other games' data
    has alternate printings under one name, and every row of a file must survive an import.
    """
    tables = set(db.table_names())
    if "cards" not in tables:
        db["cards"].create(CARD_COLUMNS, pk=("set_name", "name"), not_null={"name", "set_name"})
        db["cards"].create_index(["name"])
        db["cards"].create_index(["type", "faction"])
        # Searches compare names ignoring case (zcards.query_compiler): name="..." is a lookup.
        db.execute("CREATE INDEX idx_cards_name_nocase ON cards (name COLLATE NOCASE)")
        db["cards"].create_index(["source_id"])
        db["cards"].enable_fts(
            ["name", "text"], create_triggers=True, tokenize="unicode61 remove_diacritics 2"
        )
    if "card_variants" not in tables:
        db["card_variants"].create({"id": int, **CARD_COLUMNS, "line": int}, pk="id")
        db["card_variants"].create_index(["set_name", "name"])
        db["card_variants"].create_index(["source_id"])
    if "sources" not in tables:
        db["sources"].create(SOURCE_COLUMNS, pk="id", not_null={"location"})
        db["sources"].create_index(["location"], unique=True)
    if "import_runs" not in tables:
        db["import_runs"].create(RUN_COLUMNS, pk="id")
    if "changes" not in tables:
        db["changes"].create(
            CHANGE_COLUMNS, pk="id", foreign_keys=[("run_id", "import_runs", "id")]
        )
        db["changes"].create_index(["run_id"])


def insert_cards(conn: sqlite3.Connection, rows: Sequence[Sequence[Any]]) -> None:
    """Insert full card rows (columns in :data:`CARD_COLUMNS` order) inside the caller's
    transaction.

    Many rows skip the per-row full-text trigger and are indexed with one ``INSERT ... SELECT``
    (about six times faster); the trigger is restored before the transaction ends.
    """
    columns = ", ".join(CARD_COLUMNS)
    sql = f"insert into cards ({columns}) values ({', '.join('?' * len(CARD_COLUMNS))})"
    trigger = conn.execute(
        "select sql from sqlite_master where type = 'trigger' and name = 'cards_ai'"
    ).fetchone()
    if len(rows) < _BULK_ROWS or trigger is None:
        conn.executemany(sql, rows)
        return
    last = conn.execute("select coalesce(max(rowid), 0) from cards").fetchone()[0]
    conn.execute('drop trigger "cards_ai"')
    conn.executemany(sql, rows)
    conn.execute(
        "insert into cards_fts (rowid, name, text) select rowid, name, text from cards "
        "where rowid > ?",
        (last,),
    )
    conn.execute(trigger[0])


def iter_cards(
    db: sqlite_utils.Database,
    where: str | None = None,
    params: Sequence[Any] | dict[str, Any] = (),
    order_by: str = "set_name, name",
) -> Iterator[Card]:
    """Cards matching an (already parameterised) WHERE clause, in a stable order."""
    for row in db["cards"].rows_where(where, params, order_by=order_by):
        yield Card.from_row(row)


def keyword_clause(column: str = "keywords") -> str:
    """A WHERE fragment matching cards whose JSON list ``column`` holds ``?`` (any case)."""
    if column not in ("keywords", "symbols"):
        raise ValueError(column)
    return f"exists (select 1 from json_each(cards.{column}) where value = ? collate nocase)"
