"""Deterministic and drawn once: the same inputs give byte-identical card images, and a face is
drawn again only when what it shows changed (renders counted where WeasyPrint lays them out)."""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from zcards.cards.model import Card
from zcards.publish.cardface import render_faces
from zcards.publish.facecache import Cache
from zcards.publish.plugin_export import export_plugin
from zcards.publish.proxies import write_proxies
from zcards.store.db import iter_cards, open_db

DPI = 60


@pytest.fixture(scope="module")
def cards(sample_db_path: Path) -> list[Card]:
    return list(iter_cards(open_db(sample_db_path)))[:12]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.jpg"))}


def test_the_same_inputs_give_byte_identical_images(sample_db_path: Path, tmp_path: Path) -> None:
    # Two separate processes (this one, whatever it drew before, and a fresh one), no cache:
    # nothing but the inputs decide the bytes.
    script = (
        "import sys\n"
        "from zcards.publish.cardface import render_faces\n"
        "from zcards.store.db import iter_cards, open_db\n"
        "cards = list(iter_cards(open_db(sys.argv[1])))[:6]\n"
        "render_faces(cards, sys.argv[2], dpi=60, cache_dir=None)\n"
    )
    command = [sys.executable, "-c", script, str(sample_db_path), str(tmp_path / "one")]
    subprocess.run(command, check=True, timeout=120)
    cards = list(iter_cards(open_db(sample_db_path)))[:6]
    render_faces(cards, tmp_path / "two", dpi=60, cache_dir=None)
    first, second = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert len(first) == 6 and first == second


def test_a_face_is_drawn_again_only_when_what_it_shows_changed(
    cards: list[Card], tmp_path: Path, laid_out: list[int]
) -> None:
    cache, out = tmp_path / "cache", tmp_path / "out"
    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (700, 420), (10, 90, 200)).save(art / f"{cards[1].image_file}.png")
    first = render_faces(cards, out, dpi=DPI, cache_dir=cache, art_dir=art)
    assert (first.rendered, first.reused, sum(laid_out)) == (12, 0, 12)
    before = _files(out)

    laid_out.clear()
    again = render_faces(cards, tmp_path / "again", dpi=DPI, cache_dir=cache, art_dir=art)
    assert (again.rendered, again.reused, sum(laid_out)) == (0, 12, 0)
    assert _files(tmp_path / "again") == before

    changed = list(cards)
    changed[4] = dataclasses.replace(cards[4], text="A brand new rule.")
    render_faces(changed, out, dpi=DPI, cache_dir=cache, art_dir=art)
    assert sum(laid_out) == 1
    after = _files(out)
    assert [name for name in before if before[name] != after[name]] == [
        f"{cards[4].image_file}.jpg"
    ]

    laid_out.clear()  # the art's bytes change: that card's face, and only it
    Image.new("RGB", (700, 420), (200, 90, 10)).save(art / f"{cards[1].image_file}.png")
    report = render_faces(cards, out, dpi=DPI, cache_dir=cache, art_dir=art)
    assert (report.rendered, sum(laid_out)) == (1, 1)

    laid_out.clear()  # another resolution: every face
    assert render_faces(cards, out, dpi=DPI + 1, cache_dir=cache, art_dir=art).rendered == 12
    assert sum(laid_out) == 12


def test_overflow_is_reported_from_the_cache_too(cards: list[Card], tmp_path: Path) -> None:
    essay = " ".join(f"Sentence {i} of rules text that keeps going." for i in range(60))
    wordy = [dataclasses.replace(cards[0], text=essay), cards[1]]
    first = render_faces(wordy, tmp_path / "a", dpi=DPI, cache_dir=tmp_path / "cache")
    again = render_faces(wordy, tmp_path / "b", dpi=DPI, cache_dir=tmp_path / "cache")
    assert first.overflow == again.overflow == [cards[0].name]
    assert again.rendered == 0


def test_proxies_are_laid_out_again_only_when_a_sheet_changed(
    cards: list[Card], tmp_path: Path, laid_out: list[int]
) -> None:
    cache = tmp_path / "cache"
    first = write_proxies(cards, tmp_path / "one.pdf", cache_dir=cache)
    assert (first.rendered, first.reused) == (12, 0) and laid_out == [2]
    laid_out.clear()
    again = write_proxies(cards, tmp_path / "two.pdf", cache_dir=cache)
    assert (again.rendered, again.reused, laid_out) == (0, 12, [])
    assert (tmp_path / "one.pdf").read_bytes() == (tmp_path / "two.pdf").read_bytes()


def test_a_changed_card_lays_its_sheets_out_again(
    cards: list[Card], tmp_path: Path, laid_out: list[int]
) -> None:
    """A run is keyed on what its HTML is made from: a card's new text is a new key."""
    cache = tmp_path / "cache"
    write_proxies(cards, tmp_path / "one.pdf", cache_dir=cache)
    changed = [dataclasses.replace(cards[0], text="Changed."), *cards[1:]]
    laid_out.clear()
    again = write_proxies(changed, tmp_path / "two.pdf", cache_dir=cache)
    assert (again.rendered, again.reused) == (12, 0) and laid_out == [2]
    assert (tmp_path / "one.pdf").read_bytes() != (tmp_path / "two.pdf").read_bytes()


def test_a_one_card_change_draws_one_face_in_the_plugin(
    mini_db_copy: Path, tmp_path: Path, laid_out: list[int]
) -> None:
    cache = tmp_path / "cache"
    first = export_plugin(mini_db_copy, tmp_path / "one", cache_dir=cache)
    assert first.faces_rendered == first.cards and first.faces_reused == 0
    again = export_plugin(mini_db_copy, tmp_path / "two", cache_dir=cache)
    assert (again.faces_rendered, again.faces_reused) == (0, first.cards)
    with sqlite3.connect(mini_db_copy) as db:
        name = db.execute("select name from cards order by name limit 1").fetchone()[0]
        db.execute("update cards set text = 'Changed.' where name = ?", (name,))
    laid_out.clear()
    changed = export_plugin(mini_db_copy, tmp_path / "three", cache_dir=cache)
    assert (changed.faces_rendered, changed.faces_reused) == (1, first.cards - 1)
    assert sum(laid_out) == 1  # the card back and spawned picture came from the cache as well


def test_a_cache_that_cannot_be_written_costs_speed_not_the_output(
    cards: list[Card], tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    halfway = tmp_path / "halfway"  # the cache folder is there, its subfolders cannot be
    for kind in ("faces", "assets"):
        (halfway / kind).parent.mkdir(exist_ok=True)
        (halfway / kind).write_text("in the way", encoding="utf-8")
    for cache in (blocked / "cache", blocked, halfway):
        report = render_faces(cards[:3], tmp_path / "out", dpi=DPI, cache_dir=cache)
        assert (report.rendered, report.reused) == (3, 0)
        assert all(path.is_file() for path in report.paths)


def test_the_cache_stays_under_its_size_by_dropping_the_least_recently_used(
    tmp_path: Path,
) -> None:
    cache = Cache(tmp_path)
    keys = [f"{index:064x}" for index in range(5)]
    for index, key in enumerate(keys):
        cache.write("faces", key, ".jpg", bytes(1000))
        os.utime(tmp_path / "faces" / f"{key}.jpg", (index, index))
    assert cache.read("faces", keys[0], ".jpg") == bytes(1000)  # used now: the newest
    assert cache.prune(max_bytes=2500) == 3
    assert sorted(p.name for p in (tmp_path / "faces").iterdir()) == [
        f"{keys[0]}.jpg",
        f"{keys[4]}.jpg",
    ]
