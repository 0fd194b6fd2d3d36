"""Atomic file writes: a reader (or a failed run) never sees half a file.

Every output of the project (plugin files, card images, proxy sheets, deck files, game logs)
is written here, so all of them get the same permissions.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO


def current_umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def _replacing(path: str | os.PathLike[str]) -> Iterator[int]:
    """A descriptor of a temporary file next to ``path``; on success it replaces ``path``,
    on any error it is removed and ``path`` is left as it was."""
    target = Path(path)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        yield handle
        # mkstemp makes private files; give the result the usual permissions (0666 - umask).
        os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_text(path: str | os.PathLike[str], encoding: str = "utf-8") -> Iterator[TextIO]:
    """Write text (LF line ends) to ``path`` atomically, as a stream."""
    with _replacing(path) as handle, open(handle, "w", encoding=encoding, newline="\n") as stream:
        yield stream


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` through a temporary file in the same folder, then rename over ``path``."""
    with _replacing(path) as handle, open(handle, "wb") as stream:
        stream.write(data)
