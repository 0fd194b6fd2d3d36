"""Checks of real card database files, as the tests read them back."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path


def assert_intact(db_path: Path, cards: int | None = None) -> None:
    """SQLite's ``integrity_check`` and FTS5's own check pass (the latter is written as an
    INSERT, so it needs a writable connection: zcards opens databases read-only to read), and
    the database holds ``cards`` cards when given."""
    conn = sqlite3.connect(db_path)
    try:
        assert conn.execute("pragma integrity_check").fetchall() == [("ok",)]
        conn.execute("insert into cards_fts (cards_fts) values ('integrity-check')")
        if cards is not None:
            assert conn.execute("select count(*) from cards").fetchone()[0] == cards
    finally:
        conn.close()


def digest(path: Path) -> str:
    """The file's SHA-256: "byte for byte unchanged" is an equal digest."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
