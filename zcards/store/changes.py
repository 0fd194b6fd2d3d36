"""The change log: which cards an import added, removed or changed, field by field, and undo.

Diffs compare database rows (the stored form of a card), so "re-importing the same data
changes nothing" is checked on exactly what is stored. A removed or changed card's whole old
row is kept (``changes.before``, a JSON array in :data:`~zcards.store.schema.CARD_COLUMNS`
order), and the alternate printings a run replaced are kept in ``replaced_variants``: so
:func:`undo_run` can put back everything a run removed or changed. An undo is itself a run
in the log (and can be undone).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lackey_plugin.updatelist import ImageUrls
from zcards.errors import Location, ZcardsError
from zcards.store.db import connection
from zcards.store.open import connect_writable, database_errors
from zcards.store.schema import CARD_COLUMNS, create_schema

if TYPE_CHECKING:
    import sqlite_utils

COMPARED_COLUMNS = tuple(column for column in CARD_COLUMNS if column != "source_id")
_COLUMNS = tuple(CARD_COLUMNS)
_JSON_COLUMNS = frozenset({"keywords", "requirements", "symbols", "extra"})
_BATCH = 1000
# SQLite's integers: a run id outside them names no run (and cannot be bound).
_RUN_IDS = range(1, 2**63)
_LOG = (
    "insert into changes (run_id, set_name, name, action, fields, before) values (?, ?, ?, ?, ?, ?)"
)


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
        line = f"{sign} {printable(self.name)} ({printable(self.set_name)})"
        if self.fields:
            parts = (
                f"{name}: {_show(old)} -> {_show(new)}" for name, (old, new) in self.fields.items()
            )
            line += ": " + "; ".join(parts)
        return line


def printable(text: str) -> str:
    """Text for a terminal: control characters shown escaped, never sent raw."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def diff_rows(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Changed card columns between two stored rows, JSON columns shown decoded."""
    changed = {}
    for column in COMPARED_COLUMNS:
        before, after = old.get(column), new.get(column)
        if before != after:
            changed[column] = [_decoded(column, before), _decoded(column, after)]
    return changed


def refresh_image_urls(
    conn: sqlite3.Connection,
    run_id: int,
    unchanged: Iterable[tuple[int, ImageUrls | None]],
    shown: list[CardChange],
    limit: int,
) -> int:
    """Recompute the image URLs of the cards (and alternate printings) of not-modified card
    files from the updatelist just read: its image mapping can change while a card file
    answers 304, and re-downloading the file only to learn that would cost the 304's saving.
    A file no updatelist pointed to (``None``) keeps its URLs. Returns how many cards
    changed (each logged, the first ``limit`` also appended to ``shown``)."""
    count = 0
    selected = ", ".join(_COLUMNS)
    for source_id, urls in unchanged:
        if urls is None:
            continue
        for table in ("cards", "card_variants"):
            rows = conn.execute(
                f"select rowid, {selected} from {table} "
                "where source_id = ? order by set_name, name, rowid",
                (source_id,),
            )
            while batch := rows.fetchmany(_BATCH):
                updates, entries = [], []
                for rowid, *row in batch:
                    old = dict(zip(_COLUMNS, row, strict=True))
                    new = urls.url_for_file(old["set_name"], old["image_file"] or "")
                    if new == old["image_url"]:
                        continue
                    updates.append((new, rowid))
                    if table == "cards":
                        fields = {"image_url": [old["image_url"], new]}
                        change = CardChange("changed", old["set_name"], old["name"], fields)
                        entries.append(_entry(run_id, change, row))
                        count += 1
                        if len(shown) < limit:
                            shown.append(change)
                conn.executemany(f"update {table} set image_url = ? where rowid = ?", updates)
                conn.executemany(_LOG, entries)
    return count


def latest_run(conn: sqlite3.Connection) -> int | None:
    """The latest run that changed anything."""
    latest = conn.execute("select max(run_id) from changes").fetchone()[0]
    return None if latest is None else int(latest)


def run_changes(
    db: sqlite_utils.Database | sqlite3.Connection, run_id: int | None = None
) -> tuple[int | None, Iterator[CardChange]]:
    """The changes of ``run_id``, or of the latest run that changed anything, streamed."""
    conn = connection(db)
    if run_id is None:
        run_id = latest_run(conn)
    if run_id is None or run_id not in _RUN_IDS:
        return run_id, iter(())
    return run_id, iter_changes(conn, run_id)


def iter_changes(conn: sqlite3.Connection, run_id: int) -> Iterator[CardChange]:
    """The changes of one run in log order, read a batch at a time (memory stays flat)."""
    last = 0
    while True:
        rows = conn.execute(
            "select id, action, set_name, name, fields from changes "
            "where run_id = ? and id > ? order by id limit ?",
            (run_id, last, _BATCH),
        ).fetchall()
        if not rows:
            return
        for last, action, set_name, name, fields in rows:  # noqa: B007 (last is the cursor)
            yield CardChange(action, set_name, name, json.loads(fields or "{}"))


@dataclass
class UndoReport:
    run_id: int
    undone: int
    added: int = 0
    changed: int = 0
    removed: int = 0


def undo_run(db_path: str | os.PathLike[str], run_id: int) -> UndoReport:
    """Put back what import run ``run_id`` changed: cards it added go, cards it removed or
    changed come back as they were, and so do its sources' alternate printings. Refused when
    a later run (not itself undone) changed some of the same cards: undo that one first."""
    path = Path(db_path)
    if run_id not in _RUN_IDS:
        raise ZcardsError(
            f"there is no import run {run_id} (see 'zcards changes')", Location(str(path))
        )
    conn = connect_writable(path)
    try:
        with database_errors(path):
            conn.execute("begin immediate")
            try:
                create_schema(conn)  # an older database is upgraded by its first write
                report = _undo(conn, run_id)
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
    finally:
        conn.close()
    return report


def _undo(conn: sqlite3.Connection, run_id: int) -> UndoReport:
    run = conn.execute("select undone_by from import_runs where id = ?", (run_id,)).fetchone()
    if run is None:
        raise ZcardsError(f"there is no import run {run_id} (see 'zcards changes')")
    if run[0] is not None:
        raise ZcardsError(f"run {run_id} was already undone by run {run[0]}")
    # The run's keys in a temporary index, probed by the (usually few) later changes: the
    # change log itself needs no index on (set_name, name), which every import would pay for.
    conn.execute("drop table if exists temp.undo_keys")
    conn.execute(
        "create temp table undo_keys (set_name text, name text, primary key (set_name, name))"
    )
    conn.execute(
        "insert or ignore into temp.undo_keys select set_name, name from changes where run_id = ?",
        (run_id,),
    )
    later = conn.execute(
        "select later.run_id from changes later join import_runs r on r.id = later.run_id"
        " where later.run_id > ? and r.undone_by is null and r.undoes is null"
        " and exists (select 1 from temp.undo_keys k"
        " where k.set_name = later.set_name and k.name = later.name)"
        " order by later.run_id desc limit 1",
        (run_id,),
    ).fetchone()
    conn.execute("drop table temp.undo_keys")
    if later is not None:
        raise ZcardsError(
            f"run {later[0]} changed some of the cards of run {run_id} later; undo run "
            f"{later[0]} first"
        )
    now = datetime.now(UTC).isoformat(timespec="seconds")
    undo = int(
        conn.execute(
            "insert into import_runs (started_at, sources, undoes, skipped_rows, warnings) "
            "values (?, ?, ?, 0, 0)",
            (now, json.dumps([f"undo of run {run_id}"]), run_id),
        ).lastrowid
        or 0
    )
    report = UndoReport(undo, run_id)
    touched: set[int] = set()
    last: int | None = None
    while True:
        query = "select id, action, set_name, name, before from changes where run_id = ?"
        params: list[Any] = [run_id]
        if last is not None:
            query += " and id < ?"
            params.append(last)
        batch = conn.execute(query + " order by id desc limit ?", [*params, _BATCH]).fetchall()
        if not batch:
            break
        for last, action, set_name, name, before in batch:  # noqa: B007
            _undo_one(conn, report, action, set_name, name, before, touched)
    _undo_variants(conn, run_id, undo, touched)
    marks = ", ".join("?" * len(touched))
    conn.execute(
        "update sources set sha256 = null, etag = null, last_modified = null, "
        f"kind = case kind when 'dropped' then 'card-data' else kind end where id in ({marks})",
        sorted(touched),
    )
    conn.execute(
        "update import_runs set finished_at = ?, added = ?, removed = ?, changed = ?, "
        "unchanged = 0 where id = ?",
        (now, report.added, report.removed, report.changed, undo),
    )
    conn.execute("update import_runs set undone_by = ? where id = ?", (undo, run_id))
    return report


def _undo_one(
    conn: sqlite3.Connection,
    report: UndoReport,
    action: str,
    set_name: str,
    name: str,
    before: str | None,
    touched: set[int],
) -> None:
    key = (set_name, name)
    current = conn.execute(
        f"select {', '.join(_COLUMNS)} from cards where set_name = ? and name = ?", key
    ).fetchone()
    old = tuple(json.loads(before)) if before else None
    for row in (current, old):
        if row is not None and row[-1] is not None:
            touched.add(int(row[-1]))
    if action == "added":
        if current is not None:
            conn.execute("delete from cards where set_name = ? and name = ?", key)
            conn.execute(_LOG, _entry(report.run_id, CardChange("removed", *key), current))
            report.removed += 1
        return
    if old is None:  # a change logged by an older zcards, without the old row
        return
    columns = ", ".join(_COLUMNS)
    if current is None:
        conn.execute(f"insert into cards ({columns}) values ({', '.join('?' * len(old))})", old)
        conn.execute(_LOG, (report.run_id, set_name, name, "added", "{}", None))
        report.added += 1
        return
    assignments = ", ".join(f"{column} = ?" for column in _COLUMNS[2:])
    conn.execute(
        f"update cards set {assignments} where set_name = ? and name = ?", (*old[2:], *key)
    )
    fields = diff_rows(
        dict(zip(_COLUMNS, current, strict=True)), dict(zip(_COLUMNS, old, strict=True))
    )
    conn.execute(_LOG, _entry(report.run_id, CardChange("changed", *key, fields), current))
    report.changed += 1


def _undo_variants(conn: sqlite3.Connection, run_id: int, undo: int, touched: set[int]) -> None:
    """The alternate printings the run wrote go (kept for a redo); the replaced come back."""
    columns = ", ".join((*CARD_COLUMNS, "line"))
    restored = conn.execute(
        "select distinct source_id from replaced_variants where replaced_by = ? "
        "union select distinct source_id from card_variants where run_id = ?",
        (run_id, run_id),
    )
    touched.update(int(row[0]) for row in restored if row[0] is not None)
    conn.execute(
        f"insert into replaced_variants (replaced_by, id, {columns}, run_id) "
        f"select ?, id, {columns}, run_id from card_variants where run_id = ?",
        (undo, run_id),
    )
    conn.execute("delete from card_variants where run_id = ?", (run_id,))
    conn.execute(
        f"insert into card_variants ({columns}, run_id) "
        f"select {columns}, ? from replaced_variants where replaced_by = ? order by id",
        (undo, run_id),
    )


def _named(row: Iterable[Any]) -> dict[str, Any]:
    return dict(zip(_COLUMNS, row, strict=True))


def _entry(run_id: int, change: CardChange, before: Iterable[Any]) -> tuple[Any, ...]:
    fields = json.dumps(dict(change.fields), ensure_ascii=False) if change.fields else "{}"
    old = json.dumps(list(before), ensure_ascii=False)
    return (run_id, change.set_name, change.name, change.action, fields, old)


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
