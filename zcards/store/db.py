"""Which card database every command reads, and reading cards from it.

Writing (imports, provenance, change log) lives in :mod:`zcards.ingest.importer`; the schema in
:mod:`zcards.store.schema`; how a file is checked and opened (read-only for reading) in
:mod:`zcards.store.open`. This module finds the database, opens it for reading and reads
cards back as :class:`~zcards.cards.model.Card` objects. Keywords and symbols are JSON arrays:
query them with ``json_each`` (see :func:`keyword_clause`).

Concurrency: databases are in WAL mode (readers never wait for a writer, a writer never waits
for readers) and every connection waits up to
:data:`~zcards.store.open.BUSY_TIMEOUT` seconds for another writer before SQLite reports
"database is locked".
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zcards.cards.model import Card
from zcards.store.open import connect_readonly
from zcards.store.schema import CARD_COLUMNS, ensure_schema

if TYPE_CHECKING:
    import sqlite_utils

DEFAULT_DB = "cards.db"
BUILD_DIR = Path("build")
BUILT_DB = BUILD_DIR / "cards.db"


def find_db(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The card database every command reads, or None for the bundled set.

    ``--db`` wins, then ``$ZCARDS_DB`` (both used as given, even when missing), then
    ``./cards.db``, then ``build/cards.db`` (what ``zcards build`` writes here); when
    neither exists, None: the bundled set, so a fresh install answers queries at once.
    """
    return named_db(path) or folder_db()


def named_db(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The database ``--db`` or ``$ZCARDS_DB`` names (a choice: it may hold another game)."""
    explicit = path or os.environ.get("ZCARDS_DB")
    return Path(explicit) if explicit else None


def folder_db() -> Path | None:
    """The database found in this folder when none is named: ``./cards.db``, else
    ``build/cards.db``, else None."""
    for candidate in (Path(DEFAULT_DB), BUILT_DB):
        if candidate.exists():
            return candidate
    return None


def resolve_db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """Where an import writes: the database :func:`find_db` reads, else a new ``./cards.db``."""
    return find_db(path) or Path(DEFAULT_DB)


def open_db(path: str | os.PathLike[str] | None = None) -> sqlite_utils.Database:
    """The card database :func:`find_db` names, opened read-only (or the bundled set); a
    missing, foreign or damaged file is a clear error (:mod:`zcards.store.open`)."""
    import sqlite_utils

    db_path = find_db(path)
    if db_path is None:
        return bundled_db()
    # execute_plugins=False: sqlite-utils' entry-point scan costs 10 ms of every start-up.
    return sqlite_utils.Database(connect_readonly(db_path), execute_plugins=False)


def open_connection(path: str | os.PathLike[str] | None = None) -> sqlite3.Connection:
    """The card database :func:`open_db` would open, as a plain connection for reading: all a
    search needs, without importing sqlite-utils (a third of a quick command's start-up)."""
    db_path = find_db(path)
    if db_path is None:
        return bundled_db().conn
    return connect_readonly(db_path)


def connection(db: sqlite3.Connection | sqlite_utils.Database) -> sqlite3.Connection:
    """The SQLite connection behind either kind of card source."""
    return db if isinstance(db, sqlite3.Connection) else db.conn


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
