"""Atomic file writes: a reader (or a failed run) never sees half a file.

Every file output (plugin files, card images, proxy sheets, deck files, game logs) goes through
:func:`replacing`, so all of them get the same permissions and none is ever left half written.
(A SQLite database in WAL mode is more than its file: it is put in place by code that knows
about its ``-wal`` and ``-shm`` files.)
"""

from __future__ import annotations

import os
import secrets
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
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh temporary path next to ``path`` (nothing is there yet) for the caller to
    write, by any means (a stream, SQLite); on success it replaces ``path`` in one rename,
    with the usual permissions (0666 - umask), on any error it is removed and ``path`` is
    left as it was."""
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        yield temporary
        os.chmod(temporary, 0o666 & ~current_umask())
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def atomic_text(path: str | os.PathLike[str], encoding: str = "utf-8") -> Iterator[TextIO]:
    """Write text (LF line ends) to ``path`` atomically, as a stream."""
    with replacing(path) as temporary, open(temporary, "x", encoding=encoding, newline="\n") as f:
        yield f


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` through a temporary file in the same folder, then rename over ``path``."""
    with replacing(path) as temporary, open(temporary, "xb") as stream:
        stream.write(data)
