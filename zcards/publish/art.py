"""Plugin artwork drawn with Pillow: the table background and the booster pack image.

Lackey's table is free-form, so the Zombie CCG areas (survivor, resource and combat zones, rules
§12) exist only as a picture under the cards. Each half of the table belongs to one player and
mirrors the other, combat zones meeting in the middle. Pillow's bundled font and fixed JPEG
settings keep the bytes identical from run to run.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from lackey_plugin.files import atomic_write
from zcards.publish.facecache import (
    FROM_ENVIRONMENT,
    CacheChoice,
    cache_key,
    open_cache,
    publish_code,
)

if TYPE_CHECKING:  # Pillow is imported to draw
    from PIL import Image

TABLE_SIZE = (1600, 1000)
# One player's half, from the table edge inwards: (label, fill colour, share of the half).
ZONES = (
    ("Survivor zone", (46, 64, 52), 0.40),
    ("Resource zone", (58, 52, 40), 0.30),
    ("Combat zone", (88, 34, 30), 0.30),
)
_BORDER = (200, 190, 160)
_TEXT = (235, 228, 205)
_JPEG = {"quality": 85, "optimize": False, "progressive": False, "subsampling": 2}


def render_table_background(path: Path, cache_dir: CacheChoice = FROM_ENVIRONMENT) -> Path:
    """A table picture with both players' survivor, resource and combat zones labelled, from
    the render cache (keyed on the publish package's source) when it holds it: drawing it
    costs a tenth of a build that draws nothing else."""
    store = open_cache(cache_dir)
    key = cache_key("table", TABLE_SIZE, publish_code())
    data = store.read("faces", key, ".jpg") if store else None
    if data is None:
        buffer = io.BytesIO()
        _table().save(buffer, "JPEG", **_JPEG)
        data = buffer.getvalue()
        if store is not None:
            store.write("faces", key, ".jpg", data)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)
    return path


def _table() -> Image.Image:
    from PIL import Image, ImageDraw, ImageFont

    width, height = TABLE_SIZE
    image = Image.new("RGB", TABLE_SIZE, (24, 26, 24))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=height // 22)
    half = height // 2
    margin = width // 40
    for player, (start, step) in (("You", (height, -1)), ("Opponent", (0, 1))):
        edge = start
        for label, colour, share in ZONES:
            depth = int(half * share)
            top, bottom = sorted((edge, edge + step * depth))
            box = (margin, top + 6, width - margin, bottom - 6)
            draw.rounded_rectangle(box, radius=18, fill=colour, outline=_BORDER, width=3)
            text = f"{player}: {label}"
            left, upper, right, lower = draw.textbbox((0, 0), text, font=font)
            draw.text(
                ((width - (right - left)) / 2, (top + bottom - (lower - upper)) / 2 - upper),
                text,
                font=font,
                fill=_TEXT,
            )
            edge += step * depth
    draw.line((margin, half, width - margin, half), fill=_BORDER, width=4)
    return image


def render_pack_image(path: Path, title: str, size: tuple[int, int] = (250, 350)) -> Path:
    """Booster artwork named by ``<packimage>``: a wrapper with the game's title on it."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", size, (70, 20, 18))
    draw = ImageDraw.Draw(image)
    width, height = size
    draw.rectangle((8, 8, width - 9, height - 9), outline=_BORDER, width=4)
    font = ImageFont.load_default(size=width // 9)
    for index, line in enumerate(title.split()):
        left, _, right, _ = draw.textbbox((0, 0), line, font=font)
        y = height // 3 + index * (width // 7)
        draw.text(((width - (right - left)) / 2, y), line, font=font, fill=_TEXT)
    return save_jpeg(image, path)


def save_jpeg(image: Image.Image, path: Path) -> Path:
    """Save with the fixed settings that keep the bytes the same from run to run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, "JPEG", **_JPEG)
    return path
