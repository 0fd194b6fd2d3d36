"""Atomic file writes: a reader (or a failed run) never sees half a file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def current_umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        # mkstemp makes private files; give the result the usual permissions (0666 - umask).
        os.chmod(temp, 0o666 & ~current_umask())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
