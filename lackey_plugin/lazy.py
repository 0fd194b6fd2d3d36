"""Lazy package exports (PEP 562): a package's public names, imported on first use.

A package names each public name in ``__all__`` and imports it, from its module, in an
``if TYPE_CHECKING:`` block (type checkers and editors read them there; that block is the only
table of where each name lives, and tests/test_api_docs.py keeps it equal to ``__all__``). At
run time nothing is imported until a name is asked for, so importing the package stays cheap
(a command's ``--help`` need not load lxml).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def declared_exports(source: str) -> dict[str, str]:
    """Name -> module of every import in the ``if TYPE_CHECKING:`` block of the file
    ``source`` (read when a first name is asked for: a package import reads nothing)."""
    import ast

    with open(source, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    homes: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    for alias in statement.names:
                        homes[alias.asname or alias.name] = statement.module
    return homes


def lazy_getattr(package: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: imports a declared name from its module, once."""
    homes: dict[str, str] = {}

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook's own name
        module = sys.modules[package]
        if not homes:
            homes.update(declared_exports(module.__file__ or ""))
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(module, name, value)
        return value

    return __getattr__
