"""What every lint check shares: the findings, and the plugin folder they are about."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lackey_plugin.carddata import CardDataFile, CardDataRow
from lackey_plugin.text import decode_bytes

ERROR, WARNING = "error", "warning"
RUNTIME_FILES = ("pluginpreferences.txt", "recentdecks.txt")


@dataclass(frozen=True, order=True)
class LintFinding:
    file: str
    line: int
    severity: str
    code: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.severity}: {self.message} [{self.code}]"

    def to_dict(self) -> dict:
        return {
            "file": self.file,
            "line": self.line or None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


@dataclass
class Plugin:
    """What the checks share: the folder, its card data, and the findings so far."""

    root: Path
    name: str
    findings: list[LintFinding] = field(default_factory=list)
    card_files: dict[str, CardDataFile] = field(default_factory=dict)
    deck_zones: list[str] = field(default_factory=list)

    def add(self, severity: str, code: str, message: str, file: str = "", line: int = 0) -> None:
        self.findings.append(LintFinding(file, line, severity, code, message))

    @property
    def rows(self) -> Iterator[CardDataRow]:
        for card_file in self.card_files.values():
            yield from card_file.rows

    def columns(self) -> set[str]:
        return {column for f in self.card_files.values() for column in f.header}

    def files(self) -> list[str]:
        return sorted(
            p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file()
        )


def read_text(path: Path) -> str:
    """A text file of the plugin, decoded by the one policy (:mod:`lackey_plugin.text`)."""
    return decode_bytes(path.read_bytes())
