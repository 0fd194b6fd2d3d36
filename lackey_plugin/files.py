"""Atomic file writes: a reader (or a failed run) never sees half a file.

Every file output (plugin files, card images, proxy sheets, deck files, game logs) goes through
:func:`replacing`, so all of them get the same permissions and none is ever left half written.
(A SQLite database in WAL mode is more than its file: it is put in place by code that knows
about its ``-wal`` and ``-shm`` files.)

An output path is the user's (``--out``): a symbolic link there is written through (its
target is replaced, the link stays), and anything else that is not a regular file (a FIFO, a
device such as ``/dev/full``, a folder) is refused, never renamed over. A write that fails is
reported against the output, never against the temporary file.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.inputs import file_kind


def current_umask() -> int:
    """The process umask (reading it means setting it, so it is put straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


class OutputError(LackeyError, OSError):
    """An output that cannot be written, named after the output (an :class:`OSError` too,
    so code that treats a failed write as a lost speed-up still does)."""


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A fresh temporary path next to ``path`` (nothing is there yet) for the caller to
    write, by any means (a stream, SQLite); on success it replaces ``path`` in one rename,
    with the usual permissions (0666 - umask), on any error it is removed and ``path`` is
    left as it was. ``path`` is an output: see :func:`output_target`."""
    target = output_target(path)
    try:
        with renamed_into(target) as temporary:
            yield temporary
    except OutputError:
        raise
    except OSError as error:
        raise OutputError(f"cannot write it: {_reason(error)}", Location(str(path))) from None


_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EFBIG: "a file-size limit was reached",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "no permission to write there",
    errno.EPERM: "no permission to write there",
}


def _reason(error: OSError) -> str:
    """Why a write failed, in words that say what to do about it."""
    return _REASONS.get(error.errno or 0) or error.strerror or str(error)


def output_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: ``path``, or the file a link there points to;
    an :class:`OutputError` when that exists and is not a regular file."""
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    except OSError as error:
        raise OutputError(f"cannot write it: {error.strerror}", Location(str(path))) from None
    if not stat.S_ISREG(mode):
        raise OutputError(
            f"it is {file_kind(mode)}, not a regular file: an output is written whole and renamed "
            "into place, so name a file (a new one, or one to replace)",
            Location(str(path)),
        )
    return target


@contextmanager
def renamed_into(path: str | os.PathLike[str]) -> Iterator[Path]:
    """:func:`replacing` for a path the program owns (a cache entry): the rename replaces
    whatever is at ``path``, a link included, and errors stay :class:`OSError`."""
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
