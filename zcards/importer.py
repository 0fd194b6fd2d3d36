"""Import card lists into the card database: all or nothing, with provenance and a change log.

Updatelists, file lists and pages are read first; card data is then streamed into the
database inside one transaction (:mod:`zcards.merge`), so memory does not grow with the
input and any error leaves the database as it was. A new database is built under a
temporary name and linked into place only when complete, so a failed import never removes
or truncates a database it did not make, and a concurrent import never sees half of one.

Only the cards of the sources that were read again are in scope: a card that disappeared
from such a source is removed, cards of other sources stay. Removing more than
:data:`PRUNE_SHARE` of a source's cards needs ``prune=True`` (a cut download or a truncated
file must not empty a card list). A source whose bytes have the SHA-256 stored last time is
not parsed again. Re-importing the same data changes no card and logs no change.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from zcards.changes import CardChange, printable, refresh_image_urls
from zcards.db import connect, create_card_indexes, create_schema
from zcards.errors import Location, ZcardsError
from zcards.fetch import Fetcher, Validators
from zcards.merge import SHOWN_CHANGES, CardWriter, Outcome, ProgressFactory, write_inputs
from zcards.normalise import CardDataError, Problem
from zcards.sources import Collection, Collector, SourceRecord

# Removing more than this share of the cards a SOURCE held (and more than one card) needs
# --prune: a truncated file or a cut download must not silently empty a card list.
PRUNE_SHARE = 0.10


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do). ``changes`` holds the first
    :data:`~zcards.merge.SHOWN_CHANGES` changes; the change log has every one."""

    dry_run: bool
    run_id: int | None = None
    sources: list[SourceRecord] = field(default_factory=list)
    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    variants: int = 0
    changes: list[CardChange] = field(default_factory=list)
    skipped: list[Problem] = field(default_factory=list)
    skipped_total: int = 0
    warnings: list[Problem] = field(default_factory=list)

    @property
    def changes_not_shown(self) -> int:
        return self.added + self.changed + self.removed - len(self.changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "run_id": self.run_id,
            "sources": [_source_dict(record) for record in self.sources],
            "added": self.added,
            "changed": self.changed,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "variants": self.variants,
            "changes": [change.to_dict() for change in self.changes],
            "changes_not_shown": self.changes_not_shown,
            "skipped_rows": [_problem_dict(problem) for problem in self.skipped],
            "skipped_total": self.skipped_total,
            "warnings": [_problem_dict(problem) for problem in self.warnings],
        }

    def summary(self) -> list[str]:
        """Human-readable lines: sources, counts, then skipped rows and warnings."""
        lines = [f"{_status(record)} {printable(record.location)}" for record in self.sources]
        verb = "would change" if self.dry_run else "changed"
        lines.append(
            f"{verb}: {self.added} added, {self.changed} changed, "
            f"{self.removed} removed, {self.unchanged} unchanged"
            + (f", {self.variants} alternate printings" if self.variants else "")
        )
        lines += [change.describe() for change in self.changes]
        if self.changes_not_shown > 0:
            lines.append(f"... and {self.changes_not_shown} more (see 'zcards changes')")
        lines += [f"skipped: {printable(str(problem))}" for problem in self.skipped]
        if self.skipped_total > len(self.skipped):
            lines.append(f"... and {self.skipped_total - len(self.skipped)} more skipped rows")
        lines += [f"warning: {printable(str(problem))}" for problem in self.warnings]
        return lines


@contextlib.contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """An import allocates millions of tuples and strings that can form no reference cycle;
    the cycle collector would walk them again and again (measured: 100,000 rows import in
    1.7 s instead of 2.9 s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass(frozen=True)
class _Options:
    skip_bad_rows: bool
    dry_run: bool
    prune: bool
    progress: ProgressFactory | None


@_without_cycle_collection()
def import_sources(
    db_path: str | os.PathLike[str],
    sources: Sequence[str],
    *,
    skip_bad_rows: bool = False,
    dry_run: bool = False,
    prune: bool = False,
    fetcher: Fetcher | None = None,
    progress: ProgressFactory | None = None,
) -> ImportReport:
    """Import card data from paths and URLs into ``db_path`` in one transaction."""
    db_path = Path(db_path)
    started = _now()
    with contextlib.ExitStack() as stack:
        if fetcher is None:
            fetcher = stack.enter_context(Fetcher())
        collection = Collector(fetcher, _cached_validators(db_path)).collect(list(sources))
    options = _Options(skip_bad_rows, dry_run, prune, progress)
    while True:
        if db_path.exists():
            conn = connect(db_path, isolation_level=None)
            try:
                create_schema(conn)
                return _run(conn, collection, started, options)
            finally:
                conn.close()
        report = _import_new(db_path, collection, started, options)
        if report is not None:
            return report
        # Another process made the database meanwhile: import into it instead.


def _import_new(
    db_path: Path, collection: Collection, started: str, options: _Options
) -> ImportReport | None:
    """Build a new database under a temporary name and link it into place when complete;
    None if another process made ``db_path`` first (nothing is written then)."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(db_path)
    temporary = db_path.with_name(f".{db_path.name}.import-{os.getpid()}-{os.urandom(4).hex()}")
    try:
        conn = sqlite3.connect(temporary, isolation_level=None)
        try:
            # Nobody else sees this file until it is complete: no journal on disk, no syncs.
            conn.execute("pragma journal_mode = memory")
            conn.execute("pragma synchronous = off")
            create_schema(conn, card_indexes=False)
            report = _run(conn, collection, started, options, new=True)
            if options.dry_run:
                return report
            conn.execute("pragma journal_mode = wal")
        finally:
            conn.close()
        with temporary.open("rb+") as stream:
            os.fsync(stream.fileno())
        try:
            os.link(temporary, db_path)
        except FileExistsError:
            return None
        return report
    finally:
        for leftover in (temporary, Path(f"{temporary}-wal"), Path(f"{temporary}-shm")):
            leftover.unlink(missing_ok=True)


def _remove_stale_temporaries(db_path: Path) -> None:
    """Temporary databases of imports that were killed (their process is gone)."""
    for path in db_path.parent.glob(f".{db_path.name}.import-*"):
        pid = path.name.removeprefix(f".{db_path.name}.import-").split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run(
    conn: sqlite3.Connection,
    collection: Collection,
    started: str,
    options: _Options,
    *,
    new: bool = False,
) -> ImportReport:
    """The whole import in one transaction (rolled back at the end of a dry run)."""
    conn.execute("begin immediate")
    try:
        report = _write(conn, collection, started, options)
        if new:
            create_card_indexes(conn)
    except BaseException:
        conn.rollback()
        raise
    if options.dry_run:
        conn.rollback()
        report.run_id = None
    else:
        conn.commit()
    return report


def _write(
    conn: sqlite3.Connection, collection: Collection, started: str, options: _Options
) -> ImportReport:
    report = ImportReport(options.dry_run, sources=collection.records)
    report.warnings = list(collection.warnings)
    run_id = int(
        conn.execute("insert into import_runs (started_at) values (?)", (started,)).lastrowid or 0
    )
    _skip_unchanged(conn, collection)
    ids = _store_sources(conn, collection.records)
    inputs = collection.inputs
    reread = {ids[i.record.location] for i in inputs if not i.not_modified}
    stale = _stale_children(conn, collection.records, ids)
    writer = CardWriter(conn, run_id, reread | stale)
    problems = write_inputs(writer, inputs, ids, report.warnings, options.progress)
    for record in collection.records:
        if record.location in ids and record.kind == "card-data":
            conn.execute(
                "update sources set sha256 = ?, bytes = ?, row_count = ? where id = ?",
                (record.sha256, record.size, record.row_count, ids[record.location]),
            )
    if problems.total and not options.skip_bad_rows:
        raise CardDataError(problems, _NOTHING_IMPORTED, problems.total)
    shown: list[CardChange] = []
    not_read = [(ids[i.record.location], i.image_urls) for i in inputs if i.not_modified]
    refreshed = refresh_image_urls(conn, run_id, not_read, shown, SHOWN_CHANGES)
    kept = _count_cards(conn, [source_id for source_id, _ in not_read]) - refreshed
    check = _RemovalCheck(conn, collection.records, ids, writer.before, options, report)
    outcome = writer.finish(check)
    if outcome.problems and not options.skip_bad_rows:
        raise CardDataError(outcome.problems, _NOTHING_IMPORTED, outcome.duplicates)
    problems.extend(outcome.problems)
    _fill_report(report, outcome, refreshed, shown, problems)
    report.unchanged += kept
    marks = ",".join("?" * len(stale))
    conn.execute(
        "update sources set kind = 'dropped', sha256 = null, etag = null, last_modified = null,"
        f" row_count = 0 where id in ({marks})",
        sorted(stale),
    )
    report.run_id = run_id
    _record_run(conn, report, run_id)
    return report


_NOTHING_IMPORTED = " (nothing imported; --skip-bad-rows imports the rest)"


def _fill_report(
    report: ImportReport,
    outcome: Outcome,
    refreshed: int,
    shown: list[CardChange],
    problems: Any,
) -> None:
    report.added, report.removed = outcome.added, outcome.removed
    report.changed = outcome.changed + refreshed
    report.unchanged, report.variants = outcome.unchanged, outcome.variants
    by_action = {"added": 0, "changed": 1, "removed": 2}
    merged = sorted([*outcome.shown, *shown], key=lambda change: by_action[change.action])
    report.changes = merged[:SHOWN_CHANGES]
    report.skipped = list(problems)
    report.skipped_total = problems.total


class _RemovalCheck:
    """Refuses (without ``--prune``) to remove more than PRUNE_SHARE of a SOURCE's cards."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        records: list[SourceRecord],
        ids: dict[str, int],
        before: dict[int, int],
        options: _Options,
        report: ImportReport,
    ) -> None:
        self.options, self.report = options, report
        others = sorted(set(ids.values()) - before.keys())
        marks = ",".join("?" * len(others))
        held = conn.execute(
            f"select source_id, count(*) from cards where source_id in ({marks}) "
            "group by source_id",
            others,
        )
        self.before = {**before, **{int(source_id): int(count) for source_id, count in held}}
        parents = {record.location: record.parent for record in records}

        def root_of(location: str) -> str:
            while parents.get(location):
                location = parents[location] or location
            return location

        self.root = {source_id: root_of(location) for location, source_id in ids.items()}
        for source_id in self.before.keys() - self.root.keys():  # files a list no longer names
            row = conn.execute(
                "select p.location from sources s join sources p on p.id = s.parent_id "
                "where s.id = ?",
                (source_id,),
            ).fetchone()
            self.root[source_id] = root_of(row[0]) if row else ""

    def __call__(self, removed: dict[int, int]) -> None:
        totals: dict[str, list[int]] = {}
        for source_id, count in removed.items():
            total = totals.setdefault(self.root.get(source_id, ""), [0, 0])
            total[0] += count
        for source_id, count in self.before.items():
            totals.setdefault(self.root.get(source_id, ""), [0, 0])[1] += count
        refused = [
            f"{printable(root)}: {gone} of its {held} cards"
            for root, (gone, held) in totals.items()
            if gone > 1 and gone > PRUNE_SHARE * held
        ]
        if not refused or self.options.prune:
            return
        message = (
            f"would remove more than {PRUNE_SHARE:.0%} of a source's cards ("
            + "; ".join(refused)
            + "): is the source complete? --prune removes them"
        )
        if self.options.dry_run:
            self.report.warnings.append(Problem(Location(), message))
            return
        raise ZcardsError(message + "; nothing imported")


def _count_cards(conn: sqlite3.Connection, source_ids: list[int]) -> int:
    marks = ",".join("?" * len(source_ids))
    query = f"select count(*) from cards where source_id in ({marks})"
    return int(conn.execute(query, source_ids).fetchone()[0])


def _skip_unchanged(conn: sqlite3.Connection, collection: Collection) -> None:
    """A card file with the bytes (SHA-256) of its last import is not read again."""
    documents = [i for i in collection.inputs if i.document is not None]
    if not documents:
        return
    locations = [i.record.location for i in documents]
    stored = {
        location: (sha256, rows)
        for location, sha256, rows in conn.execute(
            "select location, sha256, row_count from sources where kind = 'card-data' "
            f"and location in ({','.join('?' * len(locations))})",
            locations,
        )
    }
    for card_input in documents:
        record = card_input.record
        sha256, rows = stored.get(record.location, (None, None))
        if record.sha256 is not None and sha256 == record.sha256:
            card_input.document = None
            record.not_modified, record.kind, record.row_count = True, "unchanged", rows


def _store_sources(conn: sqlite3.Connection, records: list[SourceRecord]) -> dict[str, int]:
    """Upsert provenance rows; a not-modified source only gets a new ``checked_at``."""
    ids: dict[str, int] = {}
    for record in records:
        parent_id = ids.get(record.parent) if record.parent else None
        if record.not_modified:
            conn.execute(
                "update sources set checked_at = ? where location = ?",
                (record.fetched_at, record.location),
            )
        else:
            conn.execute(
                """insert into sources (location, kind, parent_id, fetched_at, checked_at, sha256,
                       etag, last_modified, bytes, row_count)
                   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   on conflict(location) do update set kind = excluded.kind,
                       parent_id = excluded.parent_id, fetched_at = excluded.fetched_at,
                       checked_at = excluded.checked_at, sha256 = excluded.sha256,
                       etag = excluded.etag, last_modified = excluded.last_modified,
                       bytes = excluded.bytes, row_count = excluded.row_count""",
                (
                    record.location,
                    record.kind,
                    parent_id,
                    record.fetched_at,
                    record.fetched_at,
                    record.sha256,
                    record.validators.etag,
                    record.validators.last_modified,
                    record.size,
                    record.row_count,
                ),
            )
        found = conn.execute("select id from sources where location = ?", (record.location,))
        row = found.fetchone()
        if row is None:
            raise ZcardsError(f"source {record.location} answered 304 but was never imported")
        ids[record.location] = int(row[0])
    return ids


def _stale_children(
    conn: sqlite3.Connection, records: list[SourceRecord], ids: dict[str, int]
) -> set[int]:
    """Card files an updatelist or page named before but no longer names."""
    parents = [ids[r.location] for r in records if r.kind in ("updatelist", "html")]
    if not parents:
        return set()
    marks = ",".join("?" * len(parents))
    rows = conn.execute(
        f"select id, location from sources where parent_id in ({marks}) and kind is not 'dropped'",
        parents,
    )
    return {int(source_id) for source_id, location in rows if location not in ids}


def _record_run(conn: sqlite3.Connection, report: ImportReport, run_id: int) -> None:
    conn.execute(
        """update import_runs set finished_at = ?, sources = ?, added = ?, removed = ?,
               changed = ?, unchanged = ?, skipped_rows = ?, warnings = ? where id = ?""",
        (
            _now(),
            json.dumps([r.location for r in report.sources if r.parent is None]),
            report.added,
            report.removed,
            report.changed,
            report.unchanged,
            report.skipped_total,
            len(report.warnings),
            run_id,
        ),
    )


def _cached_validators(db_path: Path) -> dict[str, Validators]:
    """ETag / Last-Modified of earlier downloads, read without creating or locking the db."""
    if not db_path.exists():
        return {}
    try:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            rows = conn.execute(
                "select location, etag, last_modified from sources "
                "where etag is not null or last_modified is not null"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return {}
    return {location: Validators(etag, modified) for location, etag, modified in rows}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _status(record: SourceRecord) -> str:
    if record.not_modified:
        return "not modified:"
    rows = f" ({record.row_count} rows)" if record.row_count is not None else ""
    return f"read {record.kind}{rows}:"


def _source_dict(record: SourceRecord) -> dict[str, Any]:
    return {
        "location": record.location,
        "kind": record.kind,
        "parent": record.parent,
        "not_modified": record.not_modified,
        "sha256": record.sha256,
        "etag": record.validators.etag,
        "last_modified": record.validators.last_modified,
        "bytes": record.size,
        "rows": record.row_count,
    }


def _problem_dict(problem: Problem) -> dict[str, Any]:
    where = problem.location
    return {
        "file": where.file,
        "line": where.line,
        "column": where.column,
        "message": problem.message,
    }
