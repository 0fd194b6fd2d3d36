"""The SQLite card database (sqlite-utils): schema and read access shared by every command.

Writing (imports, provenance, change log) lives in :mod:`zcards.importer`; this module only
knows the schema and how to read cards back as :class:`~zcards.model.Card` objects.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from zcards.errors import ZcardsError
from zcards.model import Card

DEFAULT_DB = "cards.db"
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


def resolve_db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """``--db`` wins, then ``$ZCARDS_DB``, then ``./cards.db``."""
    return Path(path or os.environ.get("ZCARDS_DB") or DEFAULT_DB)


def open_db(path: str | os.PathLike[str] | None = None, *, must_exist: bool = True) -> sqlite_utils.Database:
    """Open the card database; a missing file is a clear error unless we are about to create it."""
    db_path = resolve_db_path(path)
    if must_exist and not db_path.exists():
        raise ZcardsError(
            f"card database {db_path} does not exist (run 'zcards build' or 'zcards import')"
        )
    db = sqlite_utils.Database(db_path)
    ensure_schema(db)
    return db


def ensure_schema(db: sqlite_utils.Database) -> None:
    """Create the cards table and its full-text index if they are missing."""
    if "cards" in db.table_names():
        return
    db["cards"].create(CARD_COLUMNS, pk=("set_name", "name"), not_null={"name", "set_name"})
    db["cards"].create_index(["name"])
    db["cards"].create_index(["type", "faction"])
    db["cards"].enable_fts(
        ["name", "text"], create_triggers=True, tokenize="unicode61 remove_diacritics 2"
    )


def iter_cards(
    db: sqlite_utils.Database,
    where: str | None = None,
    params: Sequence[Any] | dict[str, Any] = (),
    order_by: str = "set_name, name",
) -> Iterator[Card]:
    """Cards matching an (already parameterised) WHERE clause, in a stable order."""
    for row in db["cards"].rows_where(where, params, order_by=order_by):
        yield Card.from_row(row)


def card_count(db: sqlite_utils.Database) -> int:
    return db["cards"].count
