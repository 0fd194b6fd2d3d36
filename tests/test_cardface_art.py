"""The art box: a card's own art from an art folder (any common format, found by ImageFile or
name, cropped to the box and never stretched, nothing read from outside the folder), else a
placeholder drawn from the card's faction and type."""

from __future__ import annotations

import dataclasses
import json
import os
import struct
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from zcards.cards.model import Card
from zcards.cli import cli, main
from zcards.errors import UsageError, ZcardsError
from zcards.publish.build import build
from zcards.publish.cardart import ArtFolder
from zcards.publish.cardface import render_faces
from zcards.publish.facelayout import FaceLayout
from zcards.publish.layout import CARD_SIZES, Rect
from zcards.store.db import iter_cards, open_db

DPI = 100
RED, GREEN, BLUE = (220, 20, 20), (20, 200, 20), (20, 20, 220)
MAGENTA = (235, 0, 235)  # in no placeholder


@pytest.fixture(scope="module")
def cards(sample_db_path: Path) -> dict[str, Card]:
    return {card.name: card for card in iter_cards(open_db(sample_db_path))}


def _art_box(image: Image.Image) -> Rect:
    """The art box in pixels of a rendered face."""
    box = FaceLayout.for_card(CARD_SIZES["poker"]).fraction("art")
    w, h = image.size
    return Rect(box.x * w, box.y * h, box.width * w, box.height * h)


def _colour_at(image: Image.Image, fx: float, fy: float) -> tuple[int, int, int]:
    """The colour at a point of the art box (fractions of its width and height)."""
    box = _art_box(image)
    return image.getpixel((round(box.x + fx * box.width), round(box.y + fy * box.height)))


def _near(colour: tuple[int, int, int], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 60 for a, b in zip(colour, expected, strict=True))


def _stripes(path: Path, size: tuple[int, int], fmt: str | None = None) -> Path:
    """A picture much wider than the art box: red, green and blue bands (a quarter, a half, a
    quarter). Cropped to the box it shows only green; stretched into it, red and blue would
    show at its sides."""
    image = Image.new("RGB", size, GREEN)
    quarter = size[0] // 4
    image.paste(RED, (0, 0, quarter, size[1]))
    image.paste(BLUE, (size[0] - quarter, 0, size[0], size[1]))
    image.save(path, fmt)
    return path


def _png_header(width: int, height: int) -> bytes:
    """A PNG that only claims its size: what Pillow reads before decoding anything."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("file_name", "size"),
    [
        ("sprinter.png", (1500, 300)),
        ("SPRINTER.webp", (1500, 300)),
        ("sprinter.gif", (1200, 200)),
        ("Sprinter.bmp", (1200, 200)),
        ("sprinter.tiff", (1200, 200)),
        ("sprinter.jpg", (1500, 300)),  # a large JPEG: cropped and resized by Pillow
        ("sprinter.jpeg", (1000, 200)),  # a JPEG about the box's size: used as is, clipped
    ],
)
def test_art_is_cropped_to_the_box_never_stretched(
    cards: dict[str, Card], tmp_path: Path, file_name: str, size: tuple[int, int]
) -> None:
    art = tmp_path / "art"
    art.mkdir()
    _stripes(art / file_name, size)
    report = render_faces([cards["Sprinter"]], tmp_path / "out", dpi=DPI, art_dir=art)
    assert report.art_problems == []
    with Image.open(report.paths[0]) as image:
        face = image.convert("RGB")
    for fx in (0.03, 0.5, 0.97):
        assert _near(_colour_at(face, fx, 0.5), GREEN), (fx, _colour_at(face, fx, 0.5))


def test_art_is_found_by_image_file_or_by_name(cards: dict[str, Card], tmp_path: Path) -> None:
    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (600, 360), BLUE).save(art / "Frenzied Runner.png")  # by name
    Image.new("RGB", (600, 360), RED).save(art / "sprinter.png")  # by ImageFile
    chosen = [cards["Sprinter"], cards["Frenzied Runner"], cards["Shambler"]]
    report = render_faces(chosen, tmp_path / "out", dpi=DPI, art_dir=art)
    colours = []
    for path in report.paths:
        with Image.open(path) as image:
            colours.append(_colour_at(image.convert("RGB"), 0.5, 0.5))
    assert _near(colours[0], RED) and _near(colours[1], BLUE)
    assert not _near(colours[2], RED) and not _near(colours[2], BLUE)  # its placeholder


def test_no_art_file_outside_the_folder_is_read(cards: dict[str, Card], tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.mkdir()
    Image.new("RGB", (600, 360), MAGENTA).save(secret / "sprinter.png")
    art = tmp_path / "art"
    art.mkdir()
    (art / "sprinter.png").symlink_to(secret / "sprinter.png")  # a link out of the folder
    Image.new("RGB", (600, 360), MAGENTA).save(tmp_path / "escape.png")
    hostile = dataclasses.replace(cards["Frenzied Runner"], image_file="../escape")
    folder = ArtFolder.open(art)
    assert folder.find(cards["Sprinter"]) is None
    assert folder.find(hostile) is None
    report = render_faces([cards["Sprinter"], hostile], tmp_path / "out", dpi=DPI, art_dir=art)
    for path in report.paths:
        with Image.open(path) as image:
            assert not _near(_colour_at(image.convert("RGB"), 0.5, 0.5), MAGENTA)


def test_unusable_art_is_reported_and_the_placeholder_drawn(
    cards: dict[str, Card], tmp_path: Path
) -> None:
    art = tmp_path / "art"
    art.mkdir()
    (art / "sprinter.png").write_bytes(b"not a picture at all")
    Image.new("RGB", (40, 30)).save(art / "frenziedrunner.jpg", "PNG")  # a PNG named .jpg
    (art / "shambler.png").write_bytes(_png_header(10_000, 8_000))  # too big to decode
    chosen = [cards["Sprinter"], cards["Frenzied Runner"], cards["Shambler"]]
    report = render_faces(chosen, tmp_path / "out", dpi=DPI, art_dir=art)
    assert report.art_problems == [
        "art sprinter.png: not a PNG image Pillow can read; the card shows its placeholder",
        "art frenziedrunner.jpg: not a JPEG image Pillow can read; the card shows its placeholder",
        "art shambler.png: 10000 x 8000 pixels is more than 64,000,000; the card shows its "
        "placeholder",
    ]
    assert all(path.is_file() for path in report.paths)


@pytest.mark.parametrize("size", [(3000, 2000), (1000, 600)])  # resized, or used as it is
def test_a_truncated_art_file_is_a_clear_error(
    cards: dict[str, Card], tmp_path: Path, size: tuple[int, int]
) -> None:
    art = tmp_path / "art"
    art.mkdir()
    _stripes(art / "sprinter.jpg", size)
    whole = (art / "sprinter.jpg").read_bytes()
    (art / "sprinter.jpg").write_bytes(whole[: len(whole) // 2])  # its header is still fine
    with pytest.raises(ZcardsError, match="cannot read the card art") as caught:
        render_faces([cards["Sprinter"]], tmp_path / "out", dpi=DPI, art_dir=art)
    assert caught.value.location.file == str(art.resolve() / "sprinter.jpg")


def test_a_missing_art_folder_is_a_usage_error(cards: dict[str, Card], tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="art folder"):
        render_faces([cards["Sprinter"]], tmp_path / "out", art_dir=tmp_path / "nowhere")


def test_without_art_each_card_has_a_drawn_placeholder(
    cards: dict[str, Card], tmp_path: Path
) -> None:
    """Not an empty box: a picture in the card's own colours, different per faction and type."""
    names = ["Sprinter", "Gross Ghoul", "Spitter", "Nurse Ratchet", "Shotgun"]
    report = render_faces([cards[n] for n in names], tmp_path, dpi=DPI)
    pictures = {}
    for name, path in zip(names, report.paths, strict=True):
        with Image.open(path) as image:
            box = _art_box(image)
            picture = image.convert("RGB").crop(
                (round(box.x), round(box.y), round(box.right), round(box.bottom))
            )
        assert max(ImageStat.Stat(picture).stddev) > 25, f"{name}: a drawing, not a flat box"
        pictures[name] = ImageStat.Stat(picture).mean
    red, green, blue = pictures["Sprinter"]
    assert red > green + 30 and red > blue + 30  # Rage
    red, green, blue = pictures["Spitter"]
    assert green > red + 20 and green > blue  # Contagion
    assert len({tuple(round(c) for c in mean) for mean in pictures.values()}) == len(names)


def test_art_folder_index_is_the_folders_own_files(tmp_path: Path) -> None:
    art = tmp_path / "art"
    (art / "nested").mkdir(parents=True)
    Image.new("RGB", (10, 10)).save(art / "nested" / "deep.png")
    (art / "notes.txt").write_text("not art", encoding="utf-8")
    os.mkfifo(art / "pipe.png")  # not a regular file: never opened
    Image.new("RGB", (10, 10)).save(art / "Card.PNG")
    folder = ArtFolder.open(art)
    card = Card(name="card", set_name="s")
    assert folder.find(card) is not None
    assert folder.find(dataclasses.replace(card, name="deep")) is None
    assert folder.find(dataclasses.replace(card, name="pipe")) is None
    assert folder.problems == []


def test_plugin_export_takes_an_art_folder(mini_db_copy: Path, tmp_path: Path, capsys) -> None:
    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (700, 420), MAGENTA).save(art / "Patient Zero.webp")  # found by name
    (art / "grossghoul.png").write_bytes(b"broken")
    out = tmp_path / "dist"
    main(["plugin", "export", "--db", str(mini_db_copy), "--out", str(out), "--art", str(art),
          "--dpi", "60", "--format", "json"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["faces_rendered"] + report["faces_reused"] == report["cards"] == 5
    assert report["art_problems"] == [
        "art grossghoul.png: not a PNG image Pillow can read; the card shows its placeholder"
    ]
    with Image.open(out / "zombieccg" / "sets" / "setimages" / "beta" / "patientzero.jpg") as image:
        assert _near(_colour_at(image.convert("RGB"), 0.5, 0.5), MAGENTA)


def test_build_refuses_a_missing_art_folder_before_writing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", "--out", str(out), "--art", str(tmp_path / "no")])
    assert result.exit_code == 2 and "does not exist" in result.output
    with pytest.raises(UsageError, match="art folder"):
        build(out, art_dir=tmp_path / "no")
    assert not out.exists()
