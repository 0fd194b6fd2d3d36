"""Audit findings and the report: JSON (``docs/audit-schema.json``) and text grouped by turn."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from zcards.game.catalogue import rule_text
from zcards.game.table import Loss

SCHEMA_VERSION = 1
MAX_UNPARSED_LISTED = 100  # unreadable lines the report lists with their text (all counted)
SHOWN = ("violations", "unverifiable", "warnings", "unparsed")  # what --show may choose
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
    follows: int | None = None  # the line of the finding it follows from (its cause)

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

    def to_lines(
        self, label: tuple[str, str], quoted: set[str] | None = None, indent: str = "  "
    ) -> list[str]:
        """The finding in the text report (``label``: its word and the word before its rule,
        of :data:`LABELS`): where, what, the rule's words, the log line. ``quoted``: the
        rules already quoted in this report, each quoted once (the set is added to)."""
        where = f"line {self.line}" if self.line else "end of log"
        word, before = label
        rule = f"{word} {before} {self.rule}" if self.rule else word
        cause = f"follows from line {self.follows}: " if self.follows else ""
        lines = [f"{indent}{cause}{where} [{self.phase}] {rule} ({self.kind}): {self.sentence()}"]
        if self.quote and (quoted is None or self.rule not in quoted):
            lines.append(f'{indent}    {self.rule}: "{self.quote}"')
            if quoted is not None and self.rule:
                quoted.add(self.rule)
        if self.text:
            lines.append(f"{indent}    > {self.text}")
        return lines


class UnparsedLine(NamedTuple):
    """A line the parser could not read, and the template it most resembles (None: none)."""

    line: int
    text: str
    nearest: str | None

    def to_lines(self) -> list[str]:
        like = f"; nearest template: {self.nearest}" if self.nearest else ""
        return [f"  line {self.line} could not be read{like}", f"      > {self.text}"]


def template_shown(line: str) -> str:
    """A template's wording as a person reads it: ``{card:card}`` -> ``{card}``."""
    return re.sub(r"\{(\w*):(\w+)\}", lambda m: "{" + (m[1] or m[2]) + "}", line)


@dataclass
class AuditReport:
    """What the audit found in one log."""

    players: list[str] = field(default_factory=list)
    pov: str | None = None
    violations: list[Finding] = field(default_factory=list)
    unverifiable: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    unparsed: list[int] = field(default_factory=list)
    unparsed_lines: list[UnparsedLine] = field(default_factory=list)  # the first ones, listed
    games: int = 1
    turns: int = 0
    lines: int = 0
    losses: list[Loss] = field(default_factory=list)
    remaining: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations

    def add_unparsed(self, line: int, text: str, players: Iterable[str]) -> None:
        """An unreadable line: counted, and the first ones listed with the template each
        resembles (``players``: the names a line may begin with)."""
        from lackey_plugin.log.nearest import nearest_template

        self.unparsed.append(line)
        if len(self.unparsed_lines) < MAX_UNPARSED_LISTED:
            like = nearest_template(text, players)
            shown = template_shown(like.template.line) if like is not None else None
            self.unparsed_lines.append(UnparsedLine(line, text, shown))

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
            "unparsed_lines": [u._asdict() for u in self.unparsed_lines],
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
        heading per turn, each a sentence with its rule quoted (once per rule) and its log
        line, a finding that follows from another listed under it; the unreadable lines
        with the template each resembles; the summary counts every finding."""
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
        causes = {f.line for _, f in tagged if f.follows is None}
        following: dict[int, list[tuple[str, Finding]]] = {}
        for label, finding in tagged:
            if finding.follows is not None and finding.follows in causes:
                following.setdefault(finding.follows, []).append((label, finding))
        quoted: set[str] = set()
        current: int | None = None
        for label, finding in tagged:
            if finding.follows in causes:
                continue  # listed under its cause
            if finding.turn != current:
                current = finding.turn
                out.append("")
                out.append("Setup" if current == 0 else f"Turn {current}")
            out.extend(finding.to_lines(LABELS[label], quoted))
            for later_label, later in following.pop(finding.line or 0, []):
                out.extend(later.to_lines(LABELS[later_label], quoted, indent="      "))
        if "unparsed" in shown and self.unparsed_lines:
            out += ["", "Lines that could not be read"]
            out += [text for unread in self.unparsed_lines for text in unread.to_lines()]
            if len(self.unparsed) > len(self.unparsed_lines):
                out.append(f"  ... and {len(self.unparsed) - len(self.unparsed_lines)} more")
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
