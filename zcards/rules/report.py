"""Audit findings and the report: JSON (``docs/audit-schema.json``) and text grouped by turn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from zcards.game.catalogue import rule_text
from zcards.game.table import Loss

SCHEMA_VERSION = 1
SHOWN = ("violations", "unverifiable", "warnings")  # what --show may choose, in this order
DEFAULT_SHOW = ("violations", "unverifiable")  # warnings are counted, not listed
# How each list's findings begin in the text report, and the word before their rule.
LABELS = {
    "violations": ("VIOLATION", "of"),
    "unverifiable": ("unverifiable", "under"),
    "warnings": ("warning", "under"),
}


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
        return {**asdict(self), "quote": self.quote}

    @property
    def quote(self) -> str:
        """The text of the rule it cites (empty when it cites none)."""
        return rule_text(self.rule)

    def sentence(self) -> str:
        """The message as a judge would write it: whose, capitalised, a full stop."""
        message = self.message.strip()
        if self.player and not message.startswith(self.player):
            message = f"{self.player}: {message}"
        message = message[:1].upper() + message[1:]
        return message if message.endswith((".", "!", "?")) else message + "."

    def to_lines(self, label: tuple[str, str]) -> list[str]:
        """The finding in the text report (``label``: its word and the word before its rule,
        of :data:`LABELS`): where, what, the rule's words, the log line."""
        where = f"line {self.line}" if self.line else "end of log"
        word, before = label
        rule = f"{word} {before} {self.rule}" if self.rule else word
        lines = [f"  {where} [{self.phase}] {rule} ({self.kind}): {self.sentence()}"]
        if self.quote:
            lines.append(f'      {self.rule}: "{self.quote}"')
        if self.text:
            lines.append(f"      > {self.text}")
        return lines


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

    def to_text(self, show: Iterable[str] = DEFAULT_SHOW) -> str:
        """Human report: the findings ``show`` names (of :data:`SHOWN`) in log order under a
        heading per turn, each a sentence with its rule quoted and its log line; the summary
        counts every finding."""
        shown = set(show)
        out = [
            f"Players: {', '.join(self.players) or '-'}"
            + (f" (log of {self.pov})" if self.pov else "")
        ]
        tagged = sorted(
            [
                (label, finding)
                for label, bucket in (
                    ("violations", self.violations),
                    ("unverifiable", self.unverifiable),
                    ("warnings", self.warnings),
                )
                if label in shown
                for finding in bucket
            ],
            key=lambda pair: (pair[1].line is None, pair[1].line or 0),
        )  # log order: turn numbers start again with each game of the log
        current: int | None = None
        for label, finding in tagged:
            if finding.turn != current:
                current = finding.turn
                out.append("")
                out.append("Setup" if current == 0 else f"Turn {current}")
            out.extend(finding.to_lines(LABELS[label]))
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
        counts = ", ".join(
            plural(n, word)
            for n, word in (
                (len(self.violations), "violation"),
                (len(self.unverifiable), "unverifiable finding"),
                (len(self.warnings), "warning"),
                (len(self.unparsed), "unparsed line"),
            )
        )
        hidden = [label for label in SHOWN if label not in shown and getattr(self, label)]
        note = f" Not listed: {', '.join(hidden)} (--show)." if hidden else ""
        out.append(f"Summary: {games}{plural(self.turns, 'turn')}, {lost}. {counts}.{note}")
        return "\n".join(out) + "\n"


def plural(count: int, word: str) -> str:
    """``1 violation``, ``2 violations``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
