"""What a module imports, read from its source (no import is run): the repository's layer and
recipe tests ask it of many files."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def imported_names(path: Path) -> Iterator[str]:
    """The dotted names a module imports, absolute imports only: ``import a.b`` gives ``a.b``,
    ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a module or a name in ``a``)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
