"""Plain pictures for any game, drawn with Pillow: a card face of its name, columns and stat
badges, a card back of the game's title, and one image per phase (``images/Phase<N>.jpg``).

A game without a face template of its own still gets a playable plugin: each card image
names the card, shows its number columns (Lorcana's Cost, Strength, Willpower, Lore) as big
badges and lists its other columns as the game spells them, the text shrunk until it fits
(a face it still does not fit is reported). Every character is drawn with the first font
that has it (:mod:`zcards.publish.fonts`). The pictures are deterministic (fixed fonts, fixed
JPEG settings), like :mod:`zcards.publish.art`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from zcards.publish.art import save_jpeg
from zcards.publish.fonts import font_chain

CARD_SIZE = (250, 350)
PHASE_SIZE = (120, 40)
BODY_SIZES = (12, 11, 10, 9, 8, 7)
"""The body text's sizes, tried in turn until the text fits."""
BADGE = 46
"""A stat badge's diameter, in pixels."""
_MARGIN = 12
_PAPER = (244, 240, 228)
_INK = (30, 30, 30)
_FRAME = (90, 90, 90)
_BADGE_FILL = (52, 56, 64)


@dataclass
class Face:
    """What drawing a face found: whether its text fit, and characters no font has."""

    fits: bool = True
    missing: set[str] = field(default_factory=set)


def render_generic_face(
    path: Path,
    name: str,
    fields: Sequence[tuple[str, str]],
    badges: Sequence[tuple[str, str]] = (),
) -> Face:
    """A card image: the name on top, ``badges`` (label, number) along the bottom, and
    ``label: value`` for each non-empty field between, at the largest size that fits."""
    width, height = CARD_SIZE
    image = Image.new("RGB", CARD_SIZE, _PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((4, 4, width - 5, height - 5), outline=_FRAME, width=3)
    title = font_chain(17)
    y = _MARGIN
    for line in title.wrap(name, width - 2 * _MARGIN)[:2]:
        title.draw(draw, (_MARGIN, y), line, _INK)
        y += 21
    draw.line((_MARGIN, y + 2, width - _MARGIN, y + 2), fill=_FRAME, width=2)
    top = y + 10
    bottom = height - _MARGIN - (BADGE + 14 if badges else 0)
    texts = [f"{label}: {value}" for label, value in fields if value]
    face = Face(missing=title.missing(name) | _missing(texts + [v for _, v in badges]))
    for size in BODY_SIZES:
        body = font_chain(size)
        lines = [line for text in texts for line in body.wrap(text, width - 2 * _MARGIN)]
        step = size + 3
        if top + step * len(lines) <= bottom or size == BODY_SIZES[-1]:
            break
    shown = max(0, (bottom - top) // step)
    face.fits = len(lines) <= shown
    for index, line in enumerate(lines[:shown]):
        body.draw(draw, (_MARGIN, top + index * step), line, _INK)
    _badges(draw, badges, height - _MARGIN - BADGE - 12)
    save_jpeg(image, path)
    return face


def _missing(texts: Sequence[str]) -> set[str]:
    chain = font_chain(BODY_SIZES[0])
    return set().union(*(chain.missing(text) for text in texts)) if texts else set()


def _badges(draw: ImageDraw.ImageDraw, badges: Sequence[tuple[str, str]], y: int) -> None:
    """Each (label, number) as a filled circle with the number, the label under it."""
    if not badges:
        return
    width = CARD_SIZE[0]
    gap = (width - 2 * _MARGIN - BADGE * len(badges)) / max(len(badges), 1)
    number, label_font = font_chain(20), font_chain(9)
    for index, (label, value) in enumerate(badges):
        x = _MARGIN + gap / 2 + index * (BADGE + gap)
        draw.ellipse((x, y, x + BADGE, y + BADGE), fill=_BADGE_FILL, outline=_FRAME, width=2)
        text = value[:3]
        number.draw(draw, (x + (BADGE - number.length(text)) / 2, y + 11), text, _PAPER)
        small = label[:10]
        centre = x + (BADGE - label_font.length(small)) / 2
        label_font.draw(draw, (centre, y + BADGE + 1), small, _INK)


def render_generic_back(path: Path, title: str) -> Path:
    """A card back with the game's title (also the spawned-card image)."""
    width, height = CARD_SIZE
    image = Image.new("RGB", CARD_SIZE, (40, 52, 78))
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, width - 11, height - 11), outline=_PAPER, width=4)
    font = font_chain(22)
    lines = font.wrap(title, width - 40)[:4]
    for index, line in enumerate(lines):
        y = height // 2 - 14 * len(lines) + index * 28
        font.draw(draw, ((width - font.length(line)) / 2, y), line, _PAPER)
    return save_jpeg(image, path)


def render_phase_image(path: Path, label: str) -> Path:
    """A phase button picture: the phase's label (Pillow's own font: a label is refused
    unless it is plain, see :func:`lackey_plugin.plugininfo.check_labels`)."""
    width, height = PHASE_SIZE
    image = Image.new("RGB", PHASE_SIZE, (52, 56, 64))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    left, upper, right, lower = draw.textbbox((0, 0), label, font=font)
    x, y = (width - (right - left)) / 2, (height - (lower - upper)) / 2 - upper
    draw.text((x, y), label, font=font, fill=_PAPER)
    return save_jpeg(image, path)
