"""LackeyCCG's updatelist checksum (docs/lackey-formats.md §10), bit-for-bit.

Lackey sums the file's bytes as *signed* chars, skipping CR and LF, reduces the running sum with
C's truncated ``% 100000000`` after every byte, and adds one final -1 for the EOF read. A missing
file is 0. The per-byte reduction makes the value order-dependent only near +-10^8, so whole
chunks are summed at C speed whenever they provably cannot cross the bound, and only a chunk
that might cross is walked byte by byte. That keeps large files fast and exact.
"""

from __future__ import annotations

import os
from pathlib import Path
from zlib import adler32

MODULUS = 100_000_000
_CHUNK = 1 << 16
_NEWLINES = b"\n\r"
_HIGH_BYTES = bytes(range(128, 256))


def _trunc_rem(value: int) -> int:
    """C's ``%``: the remainder keeps the sign of the dividend."""
    return value % MODULUS if value >= 0 else -((-value) % MODULUS)


def _add_exact(total: int, data: bytes) -> int:
    """The literal per-byte loop, used only where a wrap can happen."""
    for byte in data:
        total = _trunc_rem(total + (byte - 256 if byte >= 128 else byte))
    return total


def _byte_sum(data: bytes) -> int:
    """The unsigned sum of ``data``, at C speed.

    Adler-32's low half is ``(1 + sum) % 65521``; a 256-byte piece sums to at most 65280, so
    per piece that is the exact sum plus one.
    """
    view = memoryview(data)
    pieces = range(0, len(data), 256)
    return sum(adler32(view[start : start + 256]) & 0xFFFF for start in pieces) - len(pieces)


def _add_chunk(total: int, data: bytes) -> int:
    """Add ``data`` (CR/LF already removed) to ``total`` as Lackey's loop would."""
    if abs(total) + 128 * len(data) < MODULUS:
        # No prefix of this chunk can reach +-10^8, so no reduction fires inside it.
        high = len(data) - len(data.translate(None, _HIGH_BYTES))
        return total + _byte_sum(data) - 256 * high
    if len(data) <= 64:
        return _add_exact(total, data)
    middle = len(data) // 2
    return _add_chunk(_add_chunk(total, data[:middle]), data[middle:])


class Checksum:
    """The checksum of data fed in pieces (a download as it arrives, a file read in chunks):
    memory stays one piece, whatever the size. Any split gives the same value."""

    def __init__(self) -> None:
        self._total = 0

    def update(self, data: bytes) -> None:
        for start in range(0, len(data), _CHUNK):
            piece = data[start : start + _CHUNK].translate(None, _NEWLINES)
            self._total = _add_chunk(self._total, piece)

    @property
    def value(self) -> int:
        """The checksum of everything fed so far (nothing fed: -1, the EOF step alone)."""
        return _trunc_rem(self._total - 1)


def checksum_bytes(data: bytes) -> int:
    """The Lackey checksum of ``data`` (an empty input gives -1, the EOF step alone)."""
    checksum = Checksum()
    checksum.update(data)
    return checksum.value


def checksum_file(path: str | os.PathLike[str]) -> int:
    """The checksum Lackey lists for ``path``; 0 when it cannot be opened, like Lackey."""
    checksum = Checksum()
    try:
        with Path(path).open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                checksum.update(chunk)
    except OSError:
        return 0
    return checksum.value
