"""The change log: which cards an import added, removed or changed, field by field.

Diffs compare database rows (the stored form of a card), so "re-importing the same data
changes nothing" is checked on exactly what is stored.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from zcards.db import CARD_COLUMNS
from zcards.plugin_files import ImageUrls

COMPARED_COLUMNS = tuple(column for column in CARD_COLUMNS if column != "source_id")
_JSON_COLUMNS = frozenset({"keywords", "requirements", "symbols", "extra"})


@dataclass(frozen=True)
class CardChange:
    """One card's change; ``fields`` maps a changed column to ``[old, new]``."""

    action: str
    set_name: str
    name: str
    fields: Mapping[str, list[Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "set": self.set_name,
            "name": self.name,
            "fields": dict(self.fields),
        }

    def describe(self) -> str:
        sign = {"added": "+", "removed": "-", "changed": "~"}[self.action]
        line = f"{sign} {self.name} ({self.set_name})"
        if self.fields:
            parts = (
                f"{name}: {_show(old)} -> {_show(new)}" for name, (old, new) in self.fields.items()
            )
            line += ": " + "; ".join(parts)
        return line


def diff_rows(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Changed card columns between two stored rows, JSON columns shown decoded."""
    changed = {}
    for column in COMPARED_COLUMNS:
        before, after = old.get(column), new.get(column)
        if before != after:
            changed[column] = [_decoded(column, before), _decoded(column, after)]
    return changed


def record_changes(conn: sqlite3.Connection, run_id: int, changes: Sequence[CardChange]) -> None:
    conn.executemany(
        "insert into changes (run_id, set_name, name, action, fields) values (?, ?, ?, ?, ?)",
        [(run_id, c.set_name, c.name, c.action, _fields_json(c.fields)) for c in changes],
    )


def refresh_image_urls(
    conn: sqlite3.Connection, unchanged: Iterable[tuple[int, ImageUrls | None]]
) -> list[CardChange]:
    """Recompute the image URLs of the cards (and alternate printings) of not-modified card
    files from the updatelist just read: its image mapping can change while a card file
    answers 304, and re-downloading the file only to learn that would cost the 304's saving.
    A file no updatelist pointed to (``None``) keeps its URLs."""
    changes = []
    for source_id, urls in unchanged:
        if urls is None:
            continue
        for table in ("cards", "card_variants"):
            rows = conn.execute(
                f"select rowid, set_name, name, image_file, image_url from {table} "
                "where source_id = ? order by set_name, name, rowid",
                (source_id,),
            )
            updates = []
            for rowid, set_name, name, image_file, old in rows.fetchall():
                new = urls.url_for_file(set_name, image_file or "")
                if new != old:
                    updates.append((new, rowid))
                    if table == "cards":
                        fields = {"image_url": [old, new]}
                        changes.append(CardChange("changed", set_name, name, fields))
            conn.executemany(f"update {table} set image_url = ? where rowid = ?", updates)
    return changes


def run_changes(db: sqlite_utils.Database, run_id: int | None = None) -> tuple[int | None, list]:
    """The changes of ``run_id``, or of the latest run that changed anything."""
    if run_id is None:
        latest = db.execute("select max(run_id) from changes").fetchone()[0]
        if latest is None:
            return None, []
        run_id = int(latest)
    rows = db["changes"].rows_where("run_id = ?", [run_id], order_by="id")
    changes = [
        CardChange(row["action"], row["set_name"], row["name"], json.loads(row["fields"] or "{}"))
        for row in rows
    ]
    return run_id, changes


def _fields_json(fields: Mapping[str, list[Any]]) -> str:
    return json.dumps(dict(fields), ensure_ascii=False) if fields else "{}"


def _decoded(column: str, value: Any) -> Any:
    if column in _JSON_COLUMNS and isinstance(value, str):
        return json.loads(value)
    return value


def _show(value: Any) -> str:
    if value is None or value == "":
        return "(blank)"
    if isinstance(value, str):
        return repr(value) if len(value) <= 60 else repr(value[:57] + "...")
    return json.dumps(value, ensure_ascii=False)
