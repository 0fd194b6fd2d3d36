"""The SQLite card database: schema, connections and read access shared by every command.

Writing (imports, provenance, change log) lives in :mod:`zcards.ingest.importer`; this module knows
the schema, how to connect so that many processes can share one database, and how to read
cards back as :class:`~zcards.cards.model.Card` objects. Keywords and symbols are JSON arrays: query
them with ``json_each`` (see :func:`keyword_clause`).

Concurrency: databases are in WAL mode (readers never wait for a writer, a writer never waits
for readers) and every connection waits up to :data:`BUSY_TIMEOUT` seconds for another
writer before SQLite reports "database is locked". The schema is created with
``IF NOT EXISTS`` in one transaction, so racing processes create it once.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zcards.cards.model import Card
from zcards.errors import ZcardsError

if TYPE_CHECKING:
    import sqlite_utils

DEFAULT_DB = "cards.db"
BUILD_DIR = Path("build")
BUILT_DB = BUILD_DIR / "cards.db"
# How long a connection waits for another process's write before "database is locked": the
# longest import of a million cards on a slow machine, with room to spare.
BUSY_TIMEOUT = 600.0
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
    import sqlite_utils

    db_path = find_db(path) if must_exist else resolve_db_path(path)
    if db_path is None:
        return bundled_db()
    if must_exist:
        _require(db_path)
    # execute_plugins=False: sqlite-utils' entry-point scan costs 10 ms of every start-up.
    db = sqlite_utils.Database(connect(db_path), execute_plugins=False)
    ensure_schema(db)
    return db


def open_connection(path: str | os.PathLike[str] | None = None) -> sqlite3.Connection:
    """The card database :func:`open_db` would open, as a plain connection for reading: all a
    search needs, without importing sqlite-utils (a third of a quick command's start-up)."""
    db_path = find_db(path)
    if db_path is None:
        return bundled_db().conn
    _require(db_path)
    conn = connect(db_path)
    create_schema(conn)
    return conn


def connection(db: sqlite3.Connection | sqlite_utils.Database) -> sqlite3.Connection:
    """The SQLite connection behind either kind of card source."""
    return db if isinstance(db, sqlite3.Connection) else db.conn


def _require(db_path: Path) -> None:
    if not db_path.exists():
        raise ZcardsError(
            f"card database {db_path} does not exist (run 'zcards build' or 'zcards import')"
        )


def bundled_db() -> sqlite_utils.Database:
    """The bundled set in a read-only in-memory database: the last default, never written."""
    import sqlite_utils

    from zcards.cards.normalise import read_card_file
    from zcards.resources import BUNDLED_SET

    db = sqlite_utils.Database(memory=True, execute_plugins=False)
    ensure_schema(db)
    columns = ", ".join(CARD_COLUMNS)
    db.conn.executemany(
        f"insert into cards ({columns}) values ({', '.join('?' * len(CARD_COLUMNS))})",
        (
            tuple(row.get(column) for column in CARD_COLUMNS)
            for row in (card.to_row() for card in read_card_file(BUNDLED_SET))
        ),
    )
    db.conn.commit()
    db.execute("pragma query_only = on")
    return db


def connect(path: str | os.PathLike[str], *, autocommit: bool = False) -> sqlite3.Connection:
    """A connection that waits for other writers (up to :data:`BUSY_TIMEOUT` s) and uses WAL.

    ``autocommit``: no implicit transactions; the caller says ``begin immediate`` itself."""
    if autocommit:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    else:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
    try:
        if conn.execute("pragma journal_mode").fetchone()[0] != "wal":
            conn.execute("pragma journal_mode = wal")
    except sqlite3.OperationalError:
        pass  # another connection is busy with the database: it stays in its old mode
    conn.execute("pragma synchronous = normal")
    return conn


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
    "undoes": int,
    "undone_by": int,
}
CHANGE_COLUMNS: dict[str, type] = {
    "id": int,
    "run_id": int,
    "set_name": str,
    "name": str,
    "action": str,
    "fields": str,
    "before": str,
}
VARIANT_COLUMNS: dict[str, type] = {"id": int, **CARD_COLUMNS, "line": int, "run_id": int}
_SQL_TYPES = {str: "TEXT", int: "INTEGER"}
# No index on type or faction: searches compare them case-blind, which a plain index cannot
# serve, and reading the table beats fetching a third of it row by row (a new database has
# none; an older one keeps its idx_cards_type_faction, unused).
_CARD_INDEXES = (
    'CREATE INDEX IF NOT EXISTS "idx_cards_source_id" ON "cards" ("source_id")',
    # Searches compare names ignoring case (zcards.query.compiler): name="..." is a lookup.
    'CREATE INDEX IF NOT EXISTS "idx_cards_name_nocase" ON "cards" ("name" COLLATE NOCASE)',
)
FTS_INSERT_TRIGGER = """CREATE TRIGGER IF NOT EXISTS "cards_ai" AFTER INSERT ON "cards" BEGIN
  INSERT INTO "cards_fts" (rowid, "name", "text") VALUES (new.rowid, new."name", new."text");
END"""
_FTS_TRIGGERS = (
    FTS_INSERT_TRIGGER,
    """CREATE TRIGGER IF NOT EXISTS "cards_ad" AFTER DELETE ON "cards" BEGIN
  INSERT INTO "cards_fts" ("cards_fts", rowid, "name", "text")
    VALUES('delete', old.rowid, old."name", old."text");
END""",
    # Only a new name or text changes the index: moving a card to another source does not.
    """CREATE TRIGGER IF NOT EXISTS "cards_au" AFTER UPDATE OF "name", "text" ON "cards" BEGIN
  INSERT INTO "cards_fts" ("cards_fts", rowid, "name", "text")
    VALUES('delete', old.rowid, old."name", old."text");
  INSERT INTO "cards_fts" (rowid, "name", "text") VALUES (new.rowid, new."name", new."text");
END""",
)


def _table(table: str, columns: dict[str, type], tail: str = "", /, **column_sql: str) -> str:
    """``CREATE TABLE IF NOT EXISTS`` as sqlite-utils wrote it (``column_sql``: constraints)."""
    parts = [
        f'"{column}" {_SQL_TYPES[kind]}{column_sql.get(column, "")}'
        for column, kind in columns.items()
    ]
    body = ",\n   ".join(parts + ([tail] if tail else []))
    return f'CREATE TABLE IF NOT EXISTS "{table}" (\n   {body}\n)'


SCHEMA: tuple[str, ...] = (
    _table(
        "cards",
        CARD_COLUMNS,
        'PRIMARY KEY ("set_name", "name")',
        name=" NOT NULL",
        set_name=" NOT NULL",
    ),
    # columnsize=0: no per-row token counts (only ranking functions would read them, and
    # nothing ranks); a third less work to index a card. Older databases keep theirs.
    """CREATE VIRTUAL TABLE IF NOT EXISTS "cards_fts" USING FTS5 (
    "name", "text",
    tokenize='unicode61 remove_diacritics 2',
    content="cards",
    columnsize=0
)""",
    *_FTS_TRIGGERS,
    # The cards with other games' columns (few or none in a Zombie database): CSV output and
    # queries learn those columns' names from them without reading the whole table. Made
    # with the table, so that a new database fills it as it loads.
    'CREATE INDEX IF NOT EXISTS "idx_cards_extra" ON "cards" ("source_id") '
    "WHERE \"extra\" NOT IN ('', '{}')",
    _table("card_variants", VARIANT_COLUMNS, id=" PRIMARY KEY"),
    'CREATE INDEX IF NOT EXISTS "idx_card_variants_set_name_name" '
    'ON "card_variants" ("set_name", "name")',
    'CREATE INDEX IF NOT EXISTS "idx_card_variants_source_id" ON "card_variants" ("source_id")',
    _table("sources", SOURCE_COLUMNS, id=" PRIMARY KEY", location=" NOT NULL"),
    'CREATE UNIQUE INDEX IF NOT EXISTS "idx_sources_location" ON "sources" ("location")',
    _table("import_runs", RUN_COLUMNS, id=" PRIMARY KEY"),
    _table("changes", CHANGE_COLUMNS, id=" PRIMARY KEY", run_id=' REFERENCES "import_runs"("id")'),
    'CREATE INDEX IF NOT EXISTS "idx_changes_run_id" ON "changes" ("run_id")',
    # Alternate printings an import replaced, kept so that the run can be undone.
    _table("replaced_variants", {"replaced_by": int, **VARIANT_COLUMNS}),
    'CREATE INDEX IF NOT EXISTS "idx_replaced_variants_replaced_by" '
    'ON "replaced_variants" ("replaced_by")',
)
# Columns added after databases were first made: (table, column, type).
_ADDED_COLUMNS = (
    ("import_runs", "undoes", "INTEGER"),
    ("import_runs", "undone_by", "INTEGER"),
    ("changes", "before", "TEXT"),
    ("card_variants", "run_id", "INTEGER"),
)


def ensure_schema(db: sqlite_utils.Database) -> None:
    """Create whatever is missing (see :func:`create_schema`); a no-op read when complete."""
    create_schema(db.conn)


def create_schema(conn: sqlite3.Connection, *, card_indexes: bool = True) -> None:
    """Create every table, index and trigger that is missing, in one transaction.

    The check comes first and only reads, so opening a complete database never waits for a
    writer. ``card_indexes=False`` leaves the secondary ``cards`` indexes to
    :func:`create_card_indexes` (a new database fills faster without them).

    ``card_variants`` holds further rows with an already-seen (Set, Name): other games' data
    has alternate printings under one name, and every row of a file must survive an import.
    """
    if _schema_complete(conn, card_indexes):
        return
    own = not conn.in_transaction
    if own:
        conn.execute("begin immediate")
    try:
        for statement in SCHEMA:
            conn.execute(statement)
        for table, column, kind in _ADDED_COLUMNS:
            if column not in _columns(conn, table):
                conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{column}" {kind}')
        _upgrade_update_trigger(conn)
        if card_indexes:
            create_card_indexes(conn)
    except BaseException:
        if own:
            conn.rollback()
        raise
    if own:
        conn.commit()


def create_card_indexes(conn: sqlite3.Connection) -> None:
    for statement in _CARD_INDEXES:
        conn.execute(statement)


def _schema_complete(conn: sqlite3.Connection, card_indexes: bool) -> bool:
    names = {row[0] for row in conn.execute("select name from sqlite_master")}
    needed = {"cards", "cards_fts", "card_variants", "sources", "import_runs", "changes"}
    needed |= {"replaced_variants", "cards_ai", "cards_ad", "cards_au", "idx_cards_extra"}
    if card_indexes:
        needed |= {"idx_cards_source_id", "idx_cards_name_nocase"}
    if not needed <= names:
        return False
    if any(column not in _columns(conn, table) for table, column, _ in _ADDED_COLUMNS):
        return False
    trigger = conn.execute("select sql from sqlite_master where name = 'cards_au'").fetchone()
    return 'UPDATE OF "name", "text"' in trigger[0]


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute(f'pragma table_info("{table}")')}


def _upgrade_update_trigger(conn: sqlite3.Connection) -> None:
    """Databases made by older zcards re-index a card on every update (even a new source)."""
    trigger = conn.execute("select sql from sqlite_master where name = 'cards_au'").fetchone()
    if 'UPDATE OF "name", "text"' not in trigger[0]:
        conn.execute('DROP TRIGGER "cards_au"')
        conn.execute(_FTS_TRIGGERS[2])


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
