"""What a card database holds, and whether it holds the bundled set.

A first ``zcards import`` creates ``./cards.db`` holding only what it imported, and from then
on every command run in that folder reads it instead of the bundled set. So the import says
what it created (:func:`describe_database`), the reading commands say when the folder's
database lacks cards of the bundled set (:func:`missing_bundled`), and both name the command
that adds them, :data:`ADD_BUNDLED`.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from zcards.resources import BUNDLED_SET
from zcards.store.db import find_db
from zcards.store.game_columns import stored_game
from zcards.store.open import connect_readonly, connect_writable

ADD_BUNDLED = "zcards import --bundled"
SETS_SHOWN = 5  # sets named in the text line; JSON has them all


@cache
def bundled_keys() -> tuple[tuple[str, str], ...]:
    """(set, name) of every card of the bundled set: the first two columns of its card file
    (Name, Set), read without the importer, so a quick command stays quick."""
    rows = [line.split("\t") for line in BUNDLED_SET.read_text(encoding="utf-8").splitlines()]
    return tuple((fields[1], fields[0]) for fields in rows[1:] if len(fields) > 1)


def missing_bundled(conn: sqlite3.Connection) -> int:
    """How many of the bundled set's cards the database does not hold (by set and name); 0
    for a database of another game (``import --game``), where the set has no place."""
    stored = stored_game(conn)
    if stored is not None:
        from zcards.game.definition import ZOMBIE_GAME  # loads a definition: only when asked

        if stored.game.name != ZOMBIE_GAME.name:
            return 0
    keys = bundled_keys()
    pairs = ", ".join("(?, ?)" for _ in keys)
    held = conn.execute(
        f"SELECT count(*) FROM cards WHERE (set_name, name) IN (VALUES {pairs})",
        [value for key in keys for value in key],
    ).fetchone()[0]
    return len(keys) - int(held)


@dataclass(frozen=True)
class DatabaseContents:
    """A database file: whether this command created it, its cards per set, and how many
    cards of the bundled set it lacks."""

    path: Path
    created: bool
    sets: dict[str, int] = field(default_factory=dict)
    bundled_missing: int = 0

    @property
    def cards(self) -> int:
        return sum(self.sets.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "created": self.created,
            "cards": self.cards,
            "sets": self.sets,
            "bundled_missing": self.bundled_missing,
        }

    def created_lines(self, *, suggest_bundled: bool) -> list[str]:
        """Where the new database is, what it holds, and how the other commands reach it;
        ``suggest_bundled``: also how to add the bundled set (not for a database named with
        ``--db``, which may hold another game)."""
        sets = [f"{name} {count}" for name, count in list(self.sets.items())[:SETS_SHOWN]]
        if len(self.sets) > SETS_SHOWN:
            sets.append(f"and {len(self.sets) - SETS_SHOWN} more sets")
        lines = [f"New card database {self.path}: {self.cards} cards ({', '.join(sets)})."]
        found = find_db()
        if found is not None and found.resolve() == self.path.resolve():
            lines.append("Every command run in this folder reads it, not the bundled set.")
        else:
            lines.append(f"The other commands read it with --db {self.path}.")
        if suggest_bundled and self.bundled_missing:
            total = len(bundled_keys())
            lines.append(
                f"It lacks {self.bundled_missing} of the bundled set's {total} cards: "
                f"'{ADD_BUNDLED}' adds them."
            )
        return lines


def describe_database(path: Path, *, created: bool, written: bool) -> DatabaseContents:
    """What ``path`` holds; a file that does not exist (a dry run's) holds nothing. After a
    write (``written``) it is read as the writer reads it, so that closing leaves no ``-wal``
    or ``-shm`` file behind, as the import itself left none."""
    if not path.exists():
        return DatabaseContents(path, created, bundled_missing=len(bundled_keys()))
    conn = connect_writable(path) if written else connect_readonly(path)
    try:
        rows = conn.execute("SELECT set_name, count(*) FROM cards GROUP BY set_name ORDER BY 1")
        sets = {str(name): int(count) for name, count in rows}
        return DatabaseContents(path, created, sets, missing_bundled(conn))
    finally:
        conn.close()
