"""Sealed render cache entries: the data followed by its size and SHA-256, so an entry cut
short, emptied or replaced by something else is told from a good one before it is used.

The seal travels inside each entry (or, for a picture the renderer reads by path, in a
``NAME.sum`` file beside it) instead of in one index file, so parallel runs sharing a cache
never race on a shared file. Entries are opened without following links and must be regular
files: a link planted in the cache never ships as a card's image.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from pathlib import Path

from lackey_plugin.files import renamed_into

MAGIC = b"zcards-seal-1"
_DIGEST = 32
_SIZE = 8
_TRAILER = _DIGEST + _SIZE + len(MAGIC)
# What pruning may remove, per subfolder: entries and the temporary files of killed writes.
_TEMPORARY = r"(\.{0}\.\d+-[0-9a-f]{{8}}\.tmp)"
_ENTRY = {
    "faces": r"[0-9a-f]{64}(\.overflow)?\.jpg",
    "runs": r"[0-9a-f]{64}\.(json|pdf)",
    "assets": r"(placeholder-[0-9a-f]{32}\.svg|art-[0-9a-f]{40}-\d+x\d+\.jpg)(\.sum)?",
}
ENTRY_NAMES = {
    kind: re.compile(f"({entry})|{_TEMPORARY.format(f'({entry})')}")
    for kind, entry in _ENTRY.items()
}


def seal(data: bytes) -> bytes:
    """``data`` with its seal after it."""
    return data + hashlib.sha256(data).digest() + len(data).to_bytes(_SIZE, "big") + MAGIC


def unsealed(stored: bytes) -> bytes | None:
    """The data of a sealed entry, or None when the seal is missing or does not match."""
    if len(stored) < _TRAILER or not stored.endswith(MAGIC):
        return None
    data = stored[:-_TRAILER]
    digest = stored[-_TRAILER : -_TRAILER + _DIGEST]
    size = int.from_bytes(stored[-_TRAILER + _DIGEST : -len(MAGIC)], "big")
    if size != len(data) or hashlib.sha256(data).digest() != digest:
        return None
    return data


def read_regular(path: Path, limit: int | None = None) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (not a link, FIFO or device) of at most
    ``limit`` bytes, else None (also when it is missing)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.ENXIO):
            return None
        raise
    with open(descriptor, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode) or (limit is not None and status.st_size > limit):
            return None
        return stream.read()


def verified_file(path: Path) -> bool:
    """Whether ``path`` is a regular file whose content its ``.sum`` file vouches for."""
    try:
        data, sum_file = read_regular(path), read_regular(_sum_path(path), limit=4096)
    except OSError:
        return False
    expected = unsealed(sum_file) if sum_file is not None else None
    return data is not None and expected == hashlib.sha256(data).digest()


def write_verified(path: Path, data: bytes) -> None:
    """Write ``path`` (replacing whatever is there, a link included) and its ``.sum`` file."""
    for target, content in ((path, data), (_sum_path(path), seal(hashlib.sha256(data).digest()))):
        with renamed_into(target) as temporary, open(temporary, "xb") as stream:
            stream.write(content)


def _sum_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.sum")
