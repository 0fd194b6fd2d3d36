"""The card database's schema: tables, indexes, full-text triggers, and its version.

The schema is created with ``IF NOT EXISTS`` statements in one transaction, so racing processes
create it once. ``PRAGMA user_version`` records the version of the schema a database has
(:data:`SCHEMA_VERSION`): databases made before versions were recorded say 0 and are read as
they are; the next write upgrades them (:func:`create_schema`). A database with a higher
version was made by a newer zcards and is refused (:mod:`zcards.store.open`).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from zcards.errors import Location, ZcardsError

if TYPE_CHECKING:
    import sqlite_utils

SCHEMA_VERSION = 1
# The tables every zcards card database has had from the first version on: a file without
# them is not a card database (another application's, or an empty one).
ZCARDS_TABLES = frozenset(
    {"cards", "cards_fts", "card_variants", "sources", "import_runs", "changes"}
)

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
# A card is its (Set, Name): a unique index, which a new database builds once its rows are in
# (sorting them once costs half of keeping a key up to date row by row). Databases made
# before have the same key as the table's PRIMARY KEY (its index sqlite_autoindex_cards_1):
# either serves lookups and ON CONFLICT (set_name, name) alike, and zcards of either kind
# reads and writes both.
CARD_KEY = 'CREATE UNIQUE INDEX IF NOT EXISTS "idx_cards_key" ON "cards" ("set_name", "name")'
_OLD_CARD_KEY = "sqlite_autoindex_cards_1"
# No index on type or faction: searches compare them case-blind, which a plain index cannot
# serve, and reading the table beats fetching a third of it row by row (a new database has
# none; an older one keeps its idx_cards_type_faction, unused).
_CARD_INDEXES = (
    CARD_KEY,
    'CREATE INDEX IF NOT EXISTS "idx_cards_source_id" ON "cards" ("source_id")',
    # Searches compare names ignoring case (zcards.query.compiler): name="..." is a lookup.
    'CREATE INDEX IF NOT EXISTS "idx_cards_name_nocase" ON "cards" ("name" COLLATE NOCASE)',
)
FTS_INSERT_TRIGGER = """CREATE TRIGGER IF NOT EXISTS "cards_ai" AFTER INSERT ON "cards" BEGIN
  INSERT INTO "cards_fts" (rowid, "name", "text") VALUES (new.rowid, new."name", new."text");
END"""
FTS_DELETE_TRIGGER = """CREATE TRIGGER IF NOT EXISTS "cards_ad" AFTER DELETE ON "cards" BEGIN
  INSERT INTO "cards_fts" ("cards_fts", rowid, "name", "text")
    VALUES('delete', old.rowid, old."name", old."text");
END"""
_FTS_TRIGGERS = (
    FTS_INSERT_TRIGGER,
    FTS_DELETE_TRIGGER,
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
    _table("cards", CARD_COLUMNS, name=" NOT NULL", set_name=" NOT NULL"),  # see CARD_KEY
    # columnsize=0: no per-row token counts (only ranking functions would read them, and
    # nothing ranks); a third less work to index a card. Older databases keep theirs.
    """CREATE VIRTUAL TABLE IF NOT EXISTS "cards_fts" USING FTS5 (
    "name", "text",
    tokenize='unicode61 remove_diacritics 2',
    content="cards",
    columnsize=0
)""",
    # Terms are gathered in memory up to 4 MiB (FTS5's default: 1 MiB) before they are
    # written out as a segment: a bulk fill writes and merges a quarter as many segments
    # (100,000 cards indexed in 0.10 s instead of 0.13 s; searches as fast). Stored in the
    # index's own settings, so every later write gathers as much.
    """INSERT INTO "cards_fts" ("cards_fts", rank) VALUES ('hashsize', 4194304)""",
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
    version = schema_version(conn)
    if version > SCHEMA_VERSION:  # never "upgrade" a newer database down
        raise newer_version(version, database_file(conn))
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
        conn.execute(f"pragma user_version = {SCHEMA_VERSION}")
    except BaseException:
        if own:
            conn.rollback()
        raise
    if own:
        conn.commit()


def create_card_indexes(conn: sqlite3.Connection) -> None:
    """The (Set, Name) key (unless the table has it as its primary key) and the others."""
    keyed = has_card_key(conn)
    for statement in _CARD_INDEXES:
        if statement != CARD_KEY or not keyed:
            conn.execute(statement)


def has_card_key(conn: sqlite3.Connection) -> bool:
    """Whether ``cards`` has its (Set, Name) key yet (see :data:`CARD_KEY`)."""
    found = conn.execute(
        "select 1 from main.sqlite_master where type = 'index' and tbl_name = 'cards' "
        "and name in (?, 'idx_cards_key')",
        (_OLD_CARD_KEY,),
    )
    return found.fetchone() is not None


def _schema_complete(conn: sqlite3.Connection, card_indexes: bool) -> bool:
    if schema_version(conn) != SCHEMA_VERSION:
        return False
    names = {row[0] for row in conn.execute("select name from sqlite_master")}
    needed = {"cards", "cards_fts", "card_variants", "sources", "import_runs", "changes"}
    needed |= {"replaced_variants", "cards_ai", "cards_ad", "cards_au", "idx_cards_extra"}
    if card_indexes:
        needed |= {"idx_cards_source_id", "idx_cards_name_nocase"}
        if _OLD_CARD_KEY not in names:
            needed.add("idx_cards_key")
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


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("pragma user_version").fetchone()[0])


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The tables of the database (virtual ones included), SQLite's own left out."""
    # As bytes: in a damaged file a name may not be UTF-8 (which Python's sqlite3 cannot decode).
    rows = conn.execute("select cast(name as blob) from sqlite_master where type = 'table'")
    names = {bytes(name or b"").decode("utf-8", "replace") for (name,) in rows}
    return {name for name in names if not name.startswith("sqlite_")}


def database_file(conn: sqlite3.Connection) -> str:
    """The file a connection is open on ("" for an in-memory database)."""
    return str(
        conn.execute("select file from pragma_database_list where name = 'main'").fetchone()[0]
    )


def newer_version(version: int, path: str) -> ZcardsError:
    return ZcardsError(
        f"the card database was made by a newer zcards (schema version {version}; this zcards "
        f"knows versions up to {SCHEMA_VERSION}): upgrade zcards to use it",
        Location(path),
    )
