"""What an import did: counts, the first changes, skipped rows and warnings (text and JSON)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zcards.cards.normalise import Problem
from zcards.cards.table import ProblemLog
from zcards.ingest.merge import SHOWN_CHANGES, Outcome
from zcards.ingest.sources import SourceRecord
from zcards.store.changes import CardChange, printable

if TYPE_CHECKING:
    from lackey_plugin.gamefile import GameFile

BRIEF_CHANGES = 20  # a text summary lists this many changed cards at most (--verbose: more)


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do). ``changes`` holds the first
    :data:`~zcards.ingest.merge.SHOWN_CHANGES` changes; the change log has every one."""

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
    game_kept: GameFile | None = None
    """The game definition of an imported plugin, stored with its cards by this import."""

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
            "game_kept": self.game_kept.game.name if self.game_kept else None,
        }

    def summary(self, *, verbose: bool = False) -> list[str]:
        """Human-readable lines: sources, counts, the changes, then skipped rows and warnings.

        A large import is summarised (one line) unless ``verbose`` lists the changed cards
        (the first :data:`~zcards.ingest.merge.SHOWN_CHANGES`; ``zcards changes`` has them all)."""
        lines = [f"{_status(record)} {printable(record.location)}" for record in self.sources]
        verb = "would change" if self.dry_run else "changed"
        lines.append(
            f"{verb}: {self.added} added, {self.changed} changed, "
            f"{self.removed} removed, {self.unchanged} unchanged"
            + (f", {self.variants} alternate printings" if self.variants else "")
        )
        total = self.added + self.changed + self.removed
        if verbose or total <= BRIEF_CHANGES:
            lines += [change.describe() for change in self.changes]
            if self.changes_not_shown > 0:
                lines.append(f"... and {self.changes_not_shown} more (see 'zcards changes')")
        elif total:
            lines.append(
                f"{total} cards changed: --verbose lists them"
                + ("" if self.dry_run else ", as does 'zcards changes'")
            )
        lines += [f"skipped: {printable(str(problem))}" for problem in self.skipped]
        if self.skipped_total > len(self.skipped):
            lines.append(f"... and {self.skipped_total - len(self.skipped)} more skipped rows")
        lines += [f"warning: {printable(str(problem))}" for problem in self.warnings]
        if self.game_kept is not None:
            lines.append(
                f"game {self.game_kept.game.name!r} of {printable(self.game_kept.origin)} kept "
                "with the cards: 'zcards plugin export' writes its plugin (--game overrides)"
            )
        return lines


def fill_report(
    report: ImportReport,
    outcome: Outcome,
    refreshed: int,
    shown: list[CardChange],
    problems: ProblemLog,
) -> None:
    report.added, report.removed = outcome.added, outcome.removed
    report.changed = outcome.changed + refreshed
    report.unchanged, report.variants = outcome.unchanged, outcome.variants
    by_action = {"added": 0, "changed": 1, "removed": 2}
    merged = sorted([*outcome.shown, *shown], key=lambda change: by_action[change.action])
    report.changes = merged[:SHOWN_CHANGES]
    report.skipped = list(problems)
    report.skipped_total = problems.total


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
