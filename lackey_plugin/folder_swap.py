"""Replacing a published plugin folder so that a complete one is there at every instant.

A plugin is built next to its target (``.<name>.build-*``) and swapped in. On Linux the swap is
one ``renameat2(RENAME_EXCHANGE)`` call: the target is the old plugin, then the new one, never
missing. Where the system cannot exchange, the old folder is first renamed aside
(``.<name>.old-*``) and the build renamed into place; a run killed between those two renames
leaves no target, so every run first :func:`recover`\\ s: it restores an orphaned old folder and
deletes leftover build and old folders. Runs into one folder are serialised by :func:`locked`,
so a run never mistakes another's build folder for a leftover.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # from <linux/fs.h>
_CANNOT_EXCHANGE = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EXDEV}


def build_prefix(name: str) -> str:
    return f".{name}.build-"


def old_prefix(name: str) -> str:
    return f".{name}.old-"


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` (waiting for another run to finish).

    The lock is on the folder itself, so nothing is left behind; on systems without
    ``fcntl`` (Windows) runs into one folder are not serialised.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def recover(folder: Path, name: str) -> None:
    """Undo what an interrupted run left in ``folder``; call with :func:`locked` held."""
    target = folder / name
    olds = sorted(
        (p for p in folder.glob(f"{old_prefix(name)}*") if p.is_dir()),
        key=lambda path: path.stat().st_mtime,
    )
    if olds and not target.exists():
        olds.pop().rename(target)  # killed between the two renames: the previous plugin
    for leftover in [*olds, *folder.glob(f"{build_prefix(name)}*")]:
        shutil.rmtree(leftover, ignore_errors=True)


def replace_folder(build: Path, target: Path) -> None:
    """Move the finished ``build`` to ``target``; afterwards ``build`` holds the old folder
    (when there was one) for the caller to delete."""
    if not target.exists():
        build.rename(target)
        return
    if _exchange(build, target):
        return
    old = Path(tempfile.mkdtemp(prefix=old_prefix(target.name), dir=target.parent))
    old.rmdir()
    target.rename(old)
    try:
        build.rename(target)
    except OSError:
        old.rename(target)
        raise
    old.rename(build)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step; False where the system or file system cannot."""
    if sys.platform != "linux":
        return False
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:  # glibc < 2.28, or another C library
        return False
    result = renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in _CANNOT_EXCHANGE:
        return False
    raise OSError(code, os.strerror(code), str(second))
