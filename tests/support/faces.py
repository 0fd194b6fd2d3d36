"""Card faces as a player and a printer see them: synthetic art, Lackey-sized thumbnails, and
numbers read back from them with the ``tesseract`` OCR program.

Shared by the tests and the benchmark scripts (which put ``tests/`` on ``sys.path``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageOps

LACKEY_TABLE_PX = 100  # how wide Lackey draws a card on the table
BADGE_INSET = 0.18  # of a badge's width: the figure, without the badge's ring
OCR_SCALE = 4


def thumbnail(path: Path, width: int = LACKEY_TABLE_PX) -> Image.Image:
    """A card image scaled down to ``width`` pixels, as Lackey shows it on the table."""
    with Image.open(path) as image:
        height = round(image.height * width / image.width)
        return image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)


def badge_figure(image: Image.Image, box) -> Image.Image:
    """What a reader looks at in a badge (``box``: its place as fractions of the card): the
    middle of the disc, without its ring, enlarged, dark on light, in a white margin."""
    width, height = image.size
    inset = box.width * BADGE_INSET
    crop = image.crop(
        (
            round((box.x + inset) * width),
            round((box.y + box.height * BADGE_INSET) * height),
            round((box.x + box.width - inset) * width),
            round((box.y + box.height * (1 - BADGE_INSET)) * height),
        )
    ).convert("L")
    crop = crop.resize((crop.width * OCR_SCALE, crop.height * OCR_SCALE), Image.Resampling.BICUBIC)
    crop = ImageOps.autocontrast(crop)
    if sum(i * n for i, n in enumerate(crop.histogram())) < 128 * crop.width * crop.height:
        crop = ImageOps.invert(crop)  # light figures on a dark badge
    outside = Image.new("L", crop.size, 255)
    ImageDraw.Draw(outside).ellipse((0, 0, crop.width - 1, crop.height - 1), fill=0)
    crop = Image.composite(Image.new("L", crop.size, 255), crop, outside)
    return ImageOps.expand(crop, border=crop.width // 2, fill=255)


def read_numbers(tesseract: str, figures: Sequence[Image.Image], workdir: Path) -> list[str]:
    """The text tesseract reads in each image (one run for all: a page per image)."""
    workdir.mkdir(parents=True, exist_ok=True)
    names = []
    for index, figure in enumerate(figures):
        name = workdir / f"{index:05d}.png"
        figure.save(name)
        names.append(str(name))
    listing = workdir / "images.txt"
    listing.write_text("\n".join(names) + "\n", encoding="utf-8")
    done = subprocess.run(
        [tesseract, str(listing), "stdout", "--psm", "7"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    pages = done.stdout.split("\f")
    return [page.strip() for page in pages[: len(figures)]]
