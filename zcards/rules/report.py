"""Audit findings and the report: JSON (``docs/audit-schema.json``) and text grouped by turn."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from zcards.game.table import Loss

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Finding:
    """One violation, unverifiable rule or warning, at a log line.

    ``kind`` is a violation id (:class:`zcards.game.catalogue.Kind`) for violations and
    unverifiable findings, and a short topic id for warnings.
    """

    kind: str
    rule: str | None
    line: int | None
    turn: int
    phase: str
    player: str | None
    message: str
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AuditReport:
    """What the audit found in one log."""

    players: list[str] = field(default_factory=list)
    pov: str | None = None
    violations: list[Finding] = field(default_factory=list)
    unverifiable: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    unparsed: list[int] = field(default_factory=list)
    games: int = 1
    turns: int = 0
    lines: int = 0
    losses: list[Loss] = field(default_factory=list)
    remaining: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data, valid against ``docs/audit-schema.json``."""
        return {
            "schema_version": SCHEMA_VERSION,
            "players": list(self.players),
            "pov": self.pov,
            "violations": [f.to_json() for f in self.violations],
            "unverifiable": [f.to_json() for f in self.unverifiable],
            "warnings": [f.to_json() for f in self.warnings],
            "unparsed": list(self.unparsed),
            "summary": {
                "lines": self.lines,
                "games": self.games,
                "turns": self.turns,
                "violations": len(self.violations),
                "unverifiable": len(self.unverifiable),
                "warnings": len(self.warnings),
                "unparsed": len(self.unparsed),
                "lost": [loss._asdict() for loss in self.losses],
                "remaining": list(self.remaining),
            },
        }

    def to_text(self) -> str:
        """Human report: findings in log order under a heading per turn, each with its line."""
        out = [
            f"Players: {', '.join(self.players) or '-'}"
            + (f" (log of {self.pov})" if self.pov else "")
        ]
        tagged = sorted(
            [("VIOLATION", f) for f in self.violations]
            + [("unverifiable", f) for f in self.unverifiable]
            + [("warning", f) for f in self.warnings],
            key=lambda pair: (pair[1].line is None, pair[1].line or 0),
        )  # log order: turn numbers start again with each game of the log
        current: int | None = None
        for label, finding in tagged:
            if finding.turn != current:
                current = finding.turn
                out.append("")
                out.append("Setup" if current == 0 else f"Turn {current}")
            where = f"line {finding.line}" if finding.line else "end of log"
            rule = f" {finding.rule}" if finding.rule else ""
            who = f" {finding.player}:" if finding.player else ""
            out.append(
                f"  {where} [{finding.phase}] {label} {finding.kind}{rule}:{who} {finding.message}"
            )
            if finding.text:
                out.append(f"      > {finding.text}")
        out.append("")
        lost = (
            "; ".join(
                f"{loss.player} lost "
                f"{f'on turn {loss.turn}' if loss.turn else 'at setup'} ({loss.reason})"
                for loss in self.losses
            )
            or "nobody lost"
        )
        games = f"{self.games} games, " if self.games > 1 else ""
        out.append(
            f"Summary: {games}{self.turns} turns, {lost}. "
            f"{len(self.violations)} violations, {len(self.unverifiable)} unverifiable, "
            f"{len(self.warnings)} warnings, "
            f"{len(self.unparsed)} unparsed lines."
        )
        return "\n".join(out) + "\n"
