"""Opening input files someone else named (a deck, a log, a card file, a game definition):
only regular files, and small inputs only up to a size.

A FIFO as an input blocks the open or the read forever, ``/dev/zero`` never ends and a
device may do anything: each is refused before a byte is read, with the file and what it is.
A file is opened without blocking (so a FIFO cannot hold the open), then checked.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from lackey_plugin.errors import LackeyError, Location

MiB = 1 << 20


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words, from its ``st_mode``."""
    for test, kind in (
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a file"


def open_regular(path: str | os.PathLike[str], what: str) -> BinaryIO:
    """``path`` opened for reading, or a :class:`LackeyError` ("cannot read the WHAT: …")
    when it cannot be opened or is not a regular file."""
    location = Location(os.fspath(path))
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        reason = "it is a folder" if error.errno == 21 else error.strerror
        raise LackeyError(f"cannot read the {what}: {reason}", location) from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise LackeyError(
            f"cannot read the {what}: it is {file_kind(mode)}, not a regular file "
            "(give the path of a file)",
            location,
        )
    return open(descriptor, "rb")


def read_regular(path: str | os.PathLike[str], what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`), refused when it
    holds more than ``limit`` bytes (only ``limit`` + 1 are ever read)."""
    with open_regular(path, what) as stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise LackeyError(
            f"the {what} is larger than {_size(limit)}, more than any {what} needs",
            Location(os.fspath(path)),
        )
    return data


def _size(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit >= MiB else f"{limit} bytes"
