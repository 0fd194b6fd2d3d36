"""Atomic file writes: a reader (or a failed run) never sees half a file.

Every output of the project (plugin files, card images, proxy sheets, deck files, game logs)
goes through :func:`atomic_open`, so all of them get the same permissions.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


def current_umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_open(path: str | os.PathLike[str], *, encoding: str | None = None) -> Iterator[IO[Any]]:
    """A temporary file next to ``path``, open for writing; on success it replaces ``path``.

    Binary unless ``encoding`` is given (text then gets LF line ends). On any error the
    temporary file is removed and ``path`` is left as it was.
    """
    target = Path(path)
    handle, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        if encoding is None:
            stream: IO[Any] = os.fdopen(handle, "wb")
        else:
            stream = os.fdopen(handle, "w", encoding=encoding, newline="\n")
        with stream:
            yield stream
        # mkstemp makes private files; give the result the usual permissions (0666 - umask).
        os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` through a temporary file in the same folder, then rename over ``path``."""
    with atomic_open(path) as stream:
        stream.write(data)
