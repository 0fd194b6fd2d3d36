"""The one decoding policy for Lackey text files (card data, updatelists, decks, logs).

LackeyCCG reads bytes, splits lines on CR and LF only (CRLF, CR-only and LF all occur in
working plugins; a run of CRs before an LF, as a Windows text-mode stream writes a CRLF, is one
line break), and has met both UTF-8 (maybe with a BOM) and, in older plugins, Windows-1252.
The policy, line by line: a line that is valid UTF-8 is UTF-8; any byte that is not is read
as Windows-1252 and reported by line. So a UTF-8 file with one stray byte keeps its
UTF-8 everywhere else (no whole-file mojibake), and an old Windows-1252 file reads as it was
meant, with one note. A file whose lines end in U+0085, U+2028 or U+2029 (which Lackey would
read as a single line) has those read as line breaks, with a note.

:class:`LineReader` streams (memory bounded by the longest line and one block); for small
documents :func:`decode_text` returns the whole text. This module imports nothing from any
application: it is part of the Lackey library.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

BOM = b"\xef\xbb\xbf"
BLOCK_SIZE = 1 << 20
MAX_NOTED_LINES = 20
_HEAD_LIMIT = 1 << 16
_BREAKS = re.compile(rb"\r*\n|\r")
_TEXT_BREAKS = re.compile(r"\r*\n|\r")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Line ends Lackey does not know, as they look in the bytes: (bytes, name).
_FOREIGN_BREAKS = (
    (b"\xc2\x85", "U+0085 (NEXT LINE)"),
    (b"\xe2\x80\xa8", "U+2028 (LINE SEPARATOR)"),
    (b"\xe2\x80\xa9", "U+2029 (PARAGRAPH SEPARATOR)"),
)
_RAW_NEL = (b"\x85", "byte 0x85 (NEXT LINE)")
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


def _windows_1252(error: UnicodeError) -> tuple[str, int]:
    """Codec error handler: the bytes that are not UTF-8, read as Windows-1252."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    return bytes(bad).decode("cp1252", errors="replace"), error.end


codecs.register_error("lackey-windows-1252", _windows_1252)


@dataclass(frozen=True)
class TextNote:
    """Something the reader had to guess, and on which line (1-based)."""

    line: int
    message: str


@dataclass
class _Encoding:
    """What the lines read so far say about the file's encoding."""

    saw_utf8: bool = False
    bad_lines: list[tuple[int, int]] = field(default_factory=list)  # (line, first bad byte)
    bad_count: int = 0

    def notes(self) -> list[TextNote]:
        if not self.bad_lines:
            return []
        line, byte = self.bad_lines[0]
        if not self.saw_utf8:
            message = f"not UTF-8 (byte 0x{byte:02x}); read as Windows-1252"
            return [TextNote(line, message)]
        notes = [
            TextNote(line, f"byte 0x{byte:02x} is not UTF-8; read as Windows-1252")
            for line, byte in self.bad_lines
        ]
        more = self.bad_count - len(self.bad_lines)
        if more > 0:
            notes.append(TextNote(self.bad_lines[-1][0], f"... and {more} more such lines"))
        return notes


class LineTooLong(ValueError):
    """A line longer than the reader's ``max_line`` bytes: ``line`` is its number."""

    def __init__(self, line: int, limit: int) -> None:
        super().__init__(f"line {line} is longer than {limit:,} bytes")
        self.line = line
        self.limit = limit


class LineReader:
    """Decoded lines of a Lackey text stream, a block at a time, numbered from 1.

    After iterating, ``notes`` says what was guessed, ``ended_with_break`` whether the last
    line had a line break, ``saw_cr`` whether any line ended in CR (CRLF or CR alone), and
    ``size`` how many bytes were read. ``max_line``: a line still unfinished after that many
    bytes raises :class:`LineTooLong` (memory stays bounded on a file without line breaks).
    """

    def __init__(
        self, stream: BinaryIO, *, block_size: int = BLOCK_SIZE, max_line: int | None = None
    ) -> None:
        self.stream = stream
        self.block_size = block_size
        self.max_line = max_line
        self.size = 0
        self.had_bom = False
        self.ended_with_break = True
        self.saw_cr = False
        self._encoding = _Encoding()
        self._breaks = _BREAKS
        self._break_tokens: tuple[bytes, ...] = (b"\n", b"\r")
        self._foreign: TextNote | None = None

    @property
    def all_utf8(self) -> bool:
        """True when every line read so far was UTF-8 (no Windows-1252 fallback)."""
        return self._encoding.bad_count == 0

    @property
    def notes(self) -> list[TextNote]:
        notes = [self._foreign] if self._foreign else []
        return notes + self._encoding.notes()

    def blocks(self) -> Iterator[tuple[int, list[str]]]:
        """``(number of the first line, lines)`` pairs; blank lines are kept (numbering)."""
        data = self._read_head()
        carry = b""
        number = 1
        while data:
            data = carry + data
            # CRs at the end may still be followed by more CRs and an LF: they wait.
            settled = data.rstrip(b"\r")
            cut = max(settled.rfind(token) for token in self._break_tokens)
            if cut < 0:
                carry = data
            else:
                end = cut + len(next(t for t in self._break_tokens if data.startswith(t, cut)))
                body, carry = data[:end], data[end:]
                lines = self._decode(body, number)
                yield number, lines
                number += len(lines)
            if self.max_line is not None and len(carry) > self.max_line:
                raise LineTooLong(number, self.max_line)
            data = self._read()
        if carry:
            self.ended_with_break = carry.endswith(b"\r")
            yield number, self._decode(carry if self.ended_with_break else carry + b"\n", number)

    def _read_head(self) -> bytes:
        """The first block, read on until it holds the first line: the BOM and the line
        ends are decided from it."""
        head = self._read()
        while head and len(head) < _HEAD_LIMIT and not _BREAKS.search(head):
            more = self._read()
            if not more:
                break
            head += more
        if head.startswith(BOM):
            self.had_bom, head = True, head[len(BOM) :]
        self._choose_breaks(head)
        return head

    def _read(self) -> bytes:
        chunk = self.stream.read(self.block_size)
        self.size += len(chunk)
        return chunk

    def _choose_breaks(self, head: bytes) -> None:
        """Foreign line ends count when the first line is full of them (Lackey: one line)."""
        match = _BREAKS.search(head)
        first_line = head[: match.start()] if match else head
        candidates = list(_FOREIGN_BREAKS)
        if _RAW_NEL[0] in first_line and not _is_utf8(first_line):
            candidates.append(_RAW_NEL)
        for token, name in candidates:
            if token in first_line:
                self._break_tokens = (b"\n", b"\r", token)
                self._breaks = re.compile(rb"\r*\n|\r|" + re.escape(token))
                message = f"lines end in {name}, which LackeyCCG does not read as a line break"
                self._foreign = TextNote(1, message + "; read as line breaks")
                return

    def _decode(self, body: bytes, number: int) -> list[str]:
        """Lines of ``body`` (which ends with a line break), each UTF-8 or else Windows-1252."""
        if not self.saw_cr and b"\r" in body:
            self.saw_cr = True
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return self._decode_lines(body, number)
        if len(text) != len(body):
            self._encoding.saw_utf8 = True
        if self._breaks is not _BREAKS:
            # A foreign break byte (a raw NEL) may sit inside a UTF-8 sequence of the
            # whole body: each piece is decoded on its own, with the fallback.
            return self._decode_lines(body, number)
        lines = _TEXT_BREAKS.split(text) if "\r" in text else text.split("\n")
        lines.pop()  # after the last break
        return lines

    def _decode_lines(self, body: bytes, number: int) -> list[str]:
        raw = self._breaks.split(body)
        raw.pop()
        lines = []
        encoding = self._encoding
        for offset, line in enumerate(raw):
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError as error:
                encoding.bad_count += 1
                if len(encoding.bad_lines) < MAX_NOTED_LINES:
                    encoding.bad_lines.append((number + offset, line[error.start]))
                text = line.decode("utf-8", errors="lackey-windows-1252")
                if _has_utf8_sequence(line):
                    encoding.saw_utf8 = True
            else:
                if len(text) != len(line):
                    encoding.saw_utf8 = True
            lines.append(text)
        return lines


@dataclass(frozen=True)
class DecodedText:
    """A whole small document: its lines (no line breaks) and what was guessed."""

    lines: list[str]
    notes: list[TextNote]
    had_bom: bool
    ended_with_break: bool

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def decode_text(data: bytes) -> DecodedText:
    """Decode a whole document by the one policy (see :class:`LineReader`)."""
    reader = LineReader(io.BytesIO(data), block_size=max(len(data), 1))
    lines = [line for _, block in reader.blocks() for line in block]
    return DecodedText(lines, reader.notes, reader.had_bom, reader.ended_with_break)


def decode_bytes(data: bytes) -> str:
    """A document's text by the same policy, line breaks kept as they are (no notes)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    return data.decode("utf-8", errors="lackey-windows-1252")


def split_lines(text: str) -> list[str]:
    """Lines of already decoded text, split as Lackey does (CR and LF only)."""
    lines = _TEXT_BREAKS.split(text) if "\r" in text else text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _has_utf8_sequence(line: bytes) -> bool:
    """Whether a line with bad bytes also holds a well-formed multi-byte UTF-8 character."""
    return _UTF8_SEQUENCE.search(line) is not None


def control_characters(text: str) -> list[str]:
    """The control characters (TAB, line breaks, NUL, ESC…) in ``text``, each once, as
    ``repr`` shows them: a value of a game that reaches a Lackey file must hold none."""
    return sorted({repr(char) for char in _CONTROL.findall(text)})
