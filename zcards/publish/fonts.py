"""A chain of fonts for pictures drawn with Pillow: each character is drawn with the first
font that has it, so another game's symbols (Lorcana's ⟳ and ⬡) are drawn, not boxes.

The chain is the system's DejaVu Sans Condensed, DejaVu Sans and Liberation Sans (the fonts
the card faces use, Debian packages fonts-dejavu-core and fonts-liberation), then Pillow's
own font; a character none of them has is reported by :meth:`FontChain.missing`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_FILES = ("DejaVuSansCondensed.ttf", "DejaVuSans.ttf", "LiberationSans-Regular.ttf")
FONT_FOLDERS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))


@functools.cache
def _fonts() -> tuple[tuple[Path, frozenset[int]], ...]:
    """The chain's font files found on this machine, each with the characters it has."""
    from fontTools.ttLib import TTFont

    found = []
    for name in FONT_FILES:
        path = next((p for folder in FONT_FOLDERS for p in sorted(folder.rglob(name))), None)
        if path is not None:
            found.append((path, frozenset(TTFont(path, lazy=True).getBestCmap())))
    return tuple(found)


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class FontChain:
    """The chain's fonts at one size (:func:`font_chain` keeps one per size)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.fonts: list[tuple[Font, frozenset[int] | None]] = [
            (ImageFont.truetype(str(path), size), characters) for path, characters in _fonts()
        ]
        self.fonts.append((ImageFont.load_default(size=size), None))

    def font_for(self, char: str) -> Font:
        code = ord(char)
        return next(font for font, has in self.fonts if has is None or code in has)

    def runs(self, text: str) -> Iterator[tuple[Font, str]]:
        """``text`` cut into runs of characters drawn with one font."""
        start, current = 0, None
        for index, char in enumerate(text):
            font = self.font_for(char)
            if current is not None and font is not current:
                yield current, text[start:index]
                start = index
            current = font
        if current is not None:
            yield current, text[start:]

    def length(self, text: str) -> float:
        return sum(font.getlength(run) for font, run in self.runs(text))

    def draw(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill) -> None:
        x, y = xy
        for font, run in self.runs(text):
            draw.text((x, y), run, font=font, fill=fill)
            x += font.getlength(run)

    def missing(self, text: str) -> set[str]:
        """The characters of ``text`` no font of the chain has (Pillow's own font draws them
        as boxes)."""
        known = [has for _font, has in self.fonts if has is not None]
        return {c for c in text if not c.isspace() and not any(ord(c) in has for has in known)}

    def wrap(self, text: str, width: float) -> list[str]:
        """``text`` in lines no wider than ``width`` pixels (a longer word is cut); each
        word is measured once."""
        space = self.length(" ")
        lines: list[str] = []
        line, used = "", 0.0
        for word in text.split():
            size = self.length(word)
            if line and used + space + size <= width:
                line, used = f"{line} {word}", used + space + size
                continue
            if line:
                lines.append(line)
            while size > width and len(word) > 1:
                cut = next(
                    (i for i in range(len(word) - 1, 0, -1) if self.length(word[:i]) <= width), 1
                )
                lines.append(word[:cut])
                word = word[cut:]
                size = self.length(word)
            line, used = word, size
        if line:
            lines.append(line)
        return lines


@functools.cache
def font_chain(size: int) -> FontChain:
    """The chain at ``size``, loaded once (a face draws at several sizes, a plugin thousands
    of faces)."""
    return FontChain(size)
