"""The render cache touches only what it wrote, and uses an entry only when it is whole:
``$ZCARDS_CACHE`` may name a home folder, and a cache folder may be damaged or tampered with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image

from tests.support.processes import run, zcards_argv
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.publish.cardface import render_faces
from zcards.publish.facecache import MARKER, Cache, open_cache
from zcards.store.db import iter_cards, open_db

DPI = 40


def _user_files(home: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(home)): path.read_bytes()
        for path in sorted(home.rglob("*"))
        if path.is_file()
    }


def _fake_home(home: Path) -> dict[str, bytes]:
    """A home with documents two folders deep, where the old pruning looked."""
    for relative, size in (
        ("Documents/taxes.pdf", 4000),
        ("faces/holiday.jpg", 3000),
        ("Music/song.mp3", 5000),
        ("notes.txt", 10),
    ):
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_bytes(os.urandom(size))
    for index, path in enumerate(sorted(home.rglob("*.*"))):
        os.utime(path, (index, index))  # older than anything the cache writes
    return _user_files(home)


def test_a_cache_folder_holding_other_files_is_refused(
    sample_db_path: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    before = _fake_home(home)
    result = run(
        zcards_argv("proxies", "name:ghoul", "--db", sample_db_path, "--out", tmp_path / "x.pdf"),
        tmp_path,
        env={"ZCARDS_CACHE": str(home)},
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert str(home) in result.stderr and "ZCARDS_CACHE" in result.stderr
    assert _user_files(home) == before and not (tmp_path / "x.pdf").exists()


def test_pruning_removes_only_the_caches_own_entries(tmp_path: Path) -> None:
    cache = open_cache(tmp_path / "cache")
    assert cache is not None and (tmp_path / "cache" / MARKER).is_file()
    cache.write("faces", "a" * 64, ".jpg", bytes(1000))
    strays = _fake_home(tmp_path / "cache" / "faces" / "mine")
    (tmp_path / "cache" / "faces" / "notes.jpg").write_bytes(bytes(2000))
    os.utime(tmp_path / "cache" / "faces" / "notes.jpg", (0, 0))
    assert cache.prune(max_bytes=0) == 1
    assert _user_files(tmp_path / "cache" / "faces" / "mine") == strays
    assert sorted(p.name for p in (tmp_path / "cache" / "faces").iterdir()) == ["mine", "notes.jpg"]


def test_a_cache_older_zcards_made_is_adopted(tmp_path: Path) -> None:
    (tmp_path / "old" / "faces").mkdir(parents=True)
    (tmp_path / "old" / "faces" / ("b" * 64 + ".jpg")).write_bytes(b"old face")
    assert open_cache(tmp_path / "old") is not None
    assert (tmp_path / "old" / MARKER).is_file()
    (tmp_path / "other" / "Documents").mkdir(parents=True)
    with pytest.raises(UsageError, match="did not write"):
        open_cache(tmp_path / "other")


@pytest.fixture(scope="module")
def cards(sample_db_path: Path) -> list[Card]:
    return list(iter_cards(open_db(sample_db_path)))[:4]


@pytest.mark.parametrize("damage", ["truncated", "empty", "replaced", "symlink"])
def test_a_damaged_cache_entry_is_drawn_again(
    cards: list[Card], tmp_path: Path, damage: str
) -> None:
    store = tmp_path / "cache"
    first = render_faces(cards, tmp_path / "one", dpi=DPI, cache_dir=store)
    good = {path.name: path.read_bytes() for path in first.paths}
    entry = sorted((store / "faces").iterdir())[0]
    secret = tmp_path / "secret.jpg"
    Image.new("RGB", (20, 20), (255, 0, 0)).save(secret)
    data = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "replaced":
        entry.write_bytes(secret.read_bytes())
    else:
        entry.unlink()
        entry.symlink_to(secret)
    again = render_faces(cards, tmp_path / "two", dpi=DPI, cache_dir=store)
    assert (again.rendered, again.reused) == (1, len(cards) - 1)
    assert {path.name: path.read_bytes() for path in again.paths} == good
    assert Cache(store).read("faces", entry.stem, ".jpg") is not None  # sealed again
