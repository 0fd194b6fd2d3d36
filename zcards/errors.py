"""Errors that reach the user: each names where the problem is (file, line, column)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """Where a problem sits; any part may be unknown."""

    file: str | None = None
    line: int | None = None
    column: int | str | None = None

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)


class ZcardsError(Exception):
    """A failure explained to the user; the CLI prints it and exits with ``exit_code``.

    The default, 2, means the input was unusable (a file, a URL, a database): the command
    could not do its job. :class:`Finding` (1) is for a job done that found problems.
    """

    exit_code = 2

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return self.message
        return f"{self.location}: {self.message}"


class UsageError(ZcardsError):
    """Bad input from the command line itself (a query, an option): exit code 2."""

    exit_code = 2


class Finding(ZcardsError):
    """What the command was asked to look for and found: audit violations, lint errors,
    unknown deck cards, no such card, broken published files. Exit code 1."""

    exit_code = 1
