"""Provenance of an import: the ``sources`` and ``import_runs`` rows, unchanged files, and the
guard against removing a large share of a source's cards by accident."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

from zcards.cards.normalise import Problem
from zcards.errors import Location, ZcardsError
from zcards.ingest.report import ImportReport
from zcards.ingest.sources import Collection, SourceRecord
from zcards.store.changes import printable

# Removing more than this share of the cards a SOURCE held (and more than one card) needs
# --prune: a truncated file or a cut download must not silently empty a card list.
PRUNE_SHARE = 0.10


class RemovalCheck:
    """Refuses (without ``--prune``) to remove more than PRUNE_SHARE of a SOURCE's cards."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        records: list[SourceRecord],
        ids: dict[str, int],
        before: dict[int, int],
        prune: bool,
        dry_run: bool,
        report: ImportReport,
    ) -> None:
        self.prune, self.dry_run, self.report = prune, dry_run, report
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
        if not refused or self.prune:
            return
        message = (
            f"would remove more than {PRUNE_SHARE:.0%} of a source's cards ("
            + "; ".join(refused)
            + "): is the source complete? --prune removes them"
        )
        if self.dry_run:
            self.report.warnings.append(Problem(Location(), message))
            return
        raise ZcardsError(message + "; nothing imported")


def count_cards(conn: sqlite3.Connection, source_ids: list[int]) -> int:
    marks = ",".join("?" * len(source_ids))
    query = f"select count(*) from cards where source_id in ({marks})"
    return int(conn.execute(query, source_ids).fetchone()[0])


def skip_unchanged(conn: sqlite3.Connection, collection: Collection) -> None:
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


def store_sources(conn: sqlite3.Connection, records: list[SourceRecord]) -> dict[str, int]:
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


def stale_children(
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


def record_run(conn: sqlite3.Connection, report: ImportReport, run_id: int) -> None:
    conn.execute(
        """update import_runs set finished_at = ?, sources = ?, added = ?, removed = ?,
               changed = ?, unchanged = ?, skipped_rows = ?, warnings = ? where id = ?""",
        (
            now(),
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


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
