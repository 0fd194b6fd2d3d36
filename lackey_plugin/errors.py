"""The error every reader and writer of this library raises: what is wrong, and where.

Bad input gets a message naming the file, line and column (whatever is known), never a bare
traceback. Applications may subclass :class:`LackeyError`; ``exit_code`` tells a command-line
front end what kind of failure it is (2: the input was unusable).
"""

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


class LackeyError(Exception):
    """A failure explained to the user, with its :class:`Location` when known.

    ``exit_code`` 2 means the input was unusable (a file, a URL): the job could not be done.
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
