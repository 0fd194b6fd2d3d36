"""Errors that reach the user: each names where the problem is (file, line, column).

:class:`ZcardsError` is a :class:`lackey_plugin.errors.LackeyError`, so the command line
turns an error of either layer into its message and exit code the same way.
"""

from __future__ import annotations

from lackey_plugin.errors import LackeyError, Location

__all__ = ["Location", "ProblemsFound", "UsageError", "ZcardsError"]


class ZcardsError(LackeyError):
    """A failure explained to the user; the CLI prints it and exits with ``exit_code``.

    The default, 2, means the input was unusable (a file, a URL, a database): the command
    could not do its job. :class:`ProblemsFound` (1) is for a job done that found problems.
    """


class UsageError(ZcardsError):
    """Bad input from the command line itself (a query, an option): exit code 2."""

    exit_code = 2


class ProblemsFound(ZcardsError):
    """What the command was asked to look for and found: audit violations, lint errors,
    unknown deck cards, no such card, broken published files. Exit code 1."""

    exit_code = 1
