"""Paths from untrusted data: a plugin's files must never land, or be read, outside its folder.

A card's Set or ImageFile, a deck's name and every path an updatelist lists come from data
someone else wrote. :func:`safe_component` turns a value into one harmless file-name component
(``../../x``, ``C:\\x`` and ``a/b`` all become plain names; idempotent on its own output), and
:func:`unsafe_path` says whether a relative path could leave the folder it is relative to.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

MAX_LENGTH = 100
_UNSAFE = re.compile(r"[^A-Za-z0-9 _.-]+")
_DOT_RUNS = re.compile(r"\.{2,}")
_RESERVED = re.compile(r"^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$", re.I)


def safe_component(value: str, fallback: str) -> str:
    """One harmless path component: no separators, drive letters, dot runs or reserved names."""
    name = _DOT_RUNS.sub(".", _UNSAFE.sub("_", value)).strip(" .")
    name = name[:MAX_LENGTH].strip(" .")
    if not name:
        return fallback
    return f"_{name}" if _RESERVED.match(name) else name


def is_safe_component(value: str) -> bool:
    """True when ``value`` is already a harmless file name (what :func:`safe_component` keeps)."""
    return bool(value) and safe_component(value, "") == value


def unsafe_path(path: str) -> bool:
    """True when ``path`` could leave the folder it is relative to (``..``, absolute, drive)."""
    normal = path.replace("\\", "/")
    return normal.startswith("/") or ":" in normal or ".." in PurePosixPath(normal).parts
