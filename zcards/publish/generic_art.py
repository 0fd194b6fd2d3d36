"""Plain pictures for any game, drawn with Pillow: a card face of its name and columns, a card
back of the game's title, and one image per phase (``images/Phase<N>.jpg``).

A game without a face template of its own still gets a playable plugin: each card image
names the card and lists its columns as the game spells them. The pictures are deterministic
(Pillow's bundled font, fixed JPEG settings), like :mod:`zcards.publish.art`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from zcards.publish.art import save_jpeg

CARD_SIZE = (250, 350)
PHASE_SIZE = (120, 40)
_PAPER = (244, 240, 228)
_INK = (30, 30, 30)
_FRAME = (90, 90, 90)


def render_generic_face(path: Path, name: str, fields: Sequence[tuple[str, str]]) -> Path:
    """A card image: the name on top, then ``label: value`` for each non-empty field,
    wrapped to the card's width and cut at its bottom edge."""
    width, height = CARD_SIZE
    image = Image.new("RGB", CARD_SIZE, _PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((4, 4, width - 5, height - 5), outline=_FRAME, width=3)
    title = ImageFont.load_default(size=17)
    body = ImageFont.load_default(size=12)
    y = 12
    for line in textwrap.wrap(name, 24)[:2]:
        draw.text((12, y), line, font=title, fill=_INK)
        y += 21
    draw.line((12, y + 2, width - 12, y + 2), fill=_FRAME, width=2)
    y += 10
    for label, value in fields:
        for line in textwrap.wrap(f"{label}: {value}", 36) if value else ():
            if y > height - 24:
                break
            draw.text((12, y), line, font=body, fill=_INK)
            y += 15
    return save_jpeg(image, path)


def render_generic_back(path: Path, title: str) -> Path:
    """A card back with the game's title (also the spawned-card image)."""
    width, height = CARD_SIZE
    image = Image.new("RGB", CARD_SIZE, (40, 52, 78))
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, width - 11, height - 11), outline=_PAPER, width=4)
    font = ImageFont.load_default(size=22)
    lines = textwrap.wrap(title, 16)[:4]
    for index, line in enumerate(lines):
        left, _, right, _ = draw.textbbox((0, 0), line, font=font)
        y = height // 2 - 14 * len(lines) + index * 28
        draw.text(((width - (right - left)) / 2, y), line, font=font, fill=_PAPER)
    return save_jpeg(image, path)


def render_phase_image(path: Path, label: str) -> Path:
    """A phase button picture: the phase's label."""
    width, height = PHASE_SIZE
    image = Image.new("RGB", PHASE_SIZE, (52, 56, 64))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    left, upper, right, lower = draw.textbbox((0, 0), label, font=font)
    x, y = (width - (right - left)) / 2, (height - (lower - upper)) / 2 - upper
    draw.text((x, y), label, font=font, fill=_PAPER)
    return save_jpeg(image, path)
