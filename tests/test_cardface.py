"""Card faces rendered for real: JPEG sizes, safe file names, frame colours, shrink-to-fit and
overflow, the card back."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from PIL import Image, ImageStat

from zcards.cards.model import Card
from zcards.publish.cardart import Assets
from zcards.publish.cardface import (
    card_document,
    lay_out_faces,
    placed,
    render_extras,
    render_faces,
)
from zcards.publish.facefit import overflowing
from zcards.publish.facelayout import FaceLayout
from zcards.publish.faceview import face_view
from zcards.publish.layout import CARD_SIZES
from zcards.publish.safe_names import sanitize_cards

DPI = 60  # low: fast, and enough to check sizes and colours
POKER_PX = (round(63 / 25.4 * DPI), round(88 / 25.4 * DPI))


def _long(card: Card, sentences: int, name: str = "Wordy Walker") -> Card:
    text = " ".join(f"Sentence {i} of rules text that keeps going." for i in range(sentences))
    return dataclasses.replace(card, name=name, image_file=name.replace(" ", ""), text=text)


def test_one_jpeg_per_card_named_by_image_file_at_the_dpi(
    bundled_by_name: dict[str, Card], tmp_path: Path
) -> None:
    chosen = [
        bundled_by_name["Sprinter"],
        bundled_by_name["Nurse Ratchet"],
        bundled_by_name["Shotgun"],
    ]
    paths = render_faces(chosen, tmp_path / "img", dpi=DPI).paths
    assert paths == [tmp_path / "img" / f"{card.image_file}.jpg" for card in chosen]
    umask = os.umask(0)
    os.umask(umask)
    for path in paths:
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # not the temp file's 0600
        with Image.open(path) as image:
            assert image.format == "JPEG"
            assert image.size == POKER_PX
    with Image.open(render_faces(chosen[:1], tmp_path / "hi", dpi=150).paths[0]) as image:
        assert image.size == (372, 520)


def test_frame_is_coloured_by_faction(bundled_by_name: dict[str, Card], tmp_path: Path) -> None:
    # The frame is the faction colour: sample the left frame, mid-height.
    expected = {"Rage": "red", "Horde": "orange", "Contagion": "green", "Weird": "purple"}
    chosen = [next(c for c in bundled_by_name.values() if c.faction == f) for f in expected]
    paths = render_faces(chosen, tmp_path, dpi=DPI).paths
    hues = {}
    for card, path in zip(chosen, paths, strict=True):
        with Image.open(path) as image:
            r, g, b = image.getpixel((2, POKER_PX[1] // 2))
        hues[card.faction] = (
            "red" if r > 150 and g < 80 else
            "orange" if r > 180 and 80 <= g < 160 and b < 60 else
            "green" if g > r and g > b else
            "purple" if b > g and r > g else "?"
        )  # fmt: skip
    assert hues == expected


def test_hostile_image_file_writes_only_inside_out_dir(
    bundled_by_name: dict[str, Card], tmp_path: Path
) -> None:
    out = tmp_path / "deep" / "out"
    hostile = dataclasses.replace(bundled_by_name["Sprinter"], image_file="../../../escaped")
    (path,) = render_faces([hostile], out, dpi=DPI).paths
    assert path.parent == out
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()] == [
        path.relative_to(tmp_path)
    ]


def test_images_are_named_as_the_plugin_card_data_names_them(
    bundled_by_name: dict[str, Card], tmp_path: Path
) -> None:
    # Same rule as the exporter (zcards.publish.safe_names): a colliding name gets -2 and a message.
    chosen = [
        dataclasses.replace(bundled_by_name["Sprinter"], image_file="a/b"),
        dataclasses.replace(bundled_by_name["Zombie Dog"], image_file="A:b"),
        dataclasses.replace(bundled_by_name["Spitter"], image_file="CON"),
        dataclasses.replace(bundled_by_name["Shotgun"], image_file="a/b"),
    ]
    report = render_faces(chosen, tmp_path, dpi=DPI)
    expected = [card.image_file for card in sanitize_cards(chosen).cards]
    assert expected == ["a_b", "A_b-2", "_CON", "a_b"]
    assert report.paths == [tmp_path / f"{stem}.jpg" for stem in expected]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["A_b-2.jpg", "_CON.jpg", "a_b.jpg"]
    assert report.renamed == [
        "'Sprinter' (alpha): ImageFile 'a/b' renamed to 'a_b'",
        "'Zombie Dog' (alpha): ImageFile 'A:b' renamed to 'A_b-2'",
        "'Spitter' (alpha): ImageFile 'CON' renamed to '_CON'",
        "'Shotgun' (alpha): ImageFile 'a/b' renamed to 'a_b'",
    ]


def test_long_text_shrinks_to_fit_and_is_not_reported(
    bundled_by_name: dict[str, Card], tmp_path: Path
) -> None:
    card = _long(bundled_by_name["Sprinter"], 10)
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    page = placed(face_view(card), 0, {}, layout, Assets(tmp_path / "assets"))
    first = lay_out_faces(card_document([page], layout), layout)
    assert overflowing(first) == {0: {"text"}}, "the full-size text must not fit"
    report = render_faces([card], tmp_path, dpi=DPI)
    assert report.overflow == []


def test_text_that_cannot_fit_is_reported_by_card_name(
    bundled_by_name: dict[str, Card], tmp_path: Path
) -> None:
    hopeless = _long(bundled_by_name["Sprinter"], 60, name="Endless Essay")
    long_name = dataclasses.replace(
        bundled_by_name["Zombie Dog"],
        name="The Zombie Dog Who Would Not Stop Growling At The Mailman",
    )
    long_type = dataclasses.replace(
        bundled_by_name["Spitter"],
        image_file="t",
        type="Zombie Overlord of the Seven Screaming Wastes, Undying and Unbowed",
    )
    report = render_faces(
        [bundled_by_name["Sprinter"], hopeless, long_name, long_type], tmp_path, dpi=DPI
    )
    assert report.overflow == ["Endless Essay", long_name.name, "Spitter"]
    assert all(path.exists() for path in report.paths)


def test_card_back_and_spawned_images(tmp_path: Path) -> None:
    back, spawned = tmp_path / "cardback.jpg", tmp_path / "sub" / "spawned.jpg"
    render_extras({"back": back, "spawned": spawned}, dpi=DPI)
    for path in (back, spawned):
        with Image.open(path) as image:
            assert image.format == "JPEG" and image.size == POKER_PX
            grey = image.convert("L")
            assert ImageStat.Stat(grey).mean[0] < 110, "a dark picture"
            assert grey.getextrema()[1] > 180, "with a light moon"
