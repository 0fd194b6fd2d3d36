"""updatelist.txt parsing against the seven real plugins, and canonical writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from lackey_plugin.errors import LackeyError
from lackey_plugin.updatelist import (
    UpdateEntry,
    UpdateList,
    parse_updatelist,
    read_updatelist,
    render_updatelist,
    valid_date,
)

# folder: (line-1 name, date, file lines, CardURLFiles, CardGeneralURLs)
EXPECTED = {
    "lackey-example": ("lackey-example", "03-04-22", 19, 1, 0),
    "lorcana": ("lorcana", "03-03-26", 22, 0, 1),
    "tribbles": ("tribbles", "10-13-16", 19, 0, 1),
    "potter": ("harrypotter_revival", "11-08-21", 15, 0, 1),
    "dbztcg": ("dbztcg", "06-20-16", 35, 6, 0),
    "fow": ("fow-modular", "02-03-22", 0, 8, 0),
}


@pytest.mark.parametrize("folder", sorted(EXPECTED))
def test_reference_updatelists_parse(reference_dir: Path, folder: str) -> None:
    parsed = read_updatelist(reference_dir / folder / "updatelist.txt")
    name, day, files, url_files, general = EXPECTED[folder]
    assert (parsed.name, parsed.date) == (name, day)
    assert valid_date(parsed.date)
    assert len(parsed.entries) == files
    assert len(parsed.card_url_files) == url_files
    assert len(parsed.card_general_urls) == general
    assert parsed.problems == []
    for entry in parsed.entries:
        assert entry.url.startswith("http") and "\t" not in entry.url


def test_vtes_has_hundreds_of_lines_and_paths_outside_the_plugin(reference_dir: Path) -> None:
    parsed = read_updatelist(reference_dir / "vtes/updatelist.txt")
    assert parsed.name == "vtes" and len(parsed.entries) > 500
    outside = [e for e in parsed.entries if parsed.plugin_path(e) is None]
    assert outside and all(
        e.local_path.startswith(("skins/", "fonts/", "images/")) for e in outside
    )
    assert parsed.card_general_urls == ["https://static.krcg.org/card/"]


def test_quirks_tabs_after_header_double_slash_and_self_listing(reference_dir: Path) -> None:
    tribbles = read_updatelist(reference_dir / "tribbles/updatelist.txt")
    assert tribbles.card_general_urls == [
        "https://raw.githubusercontent.com/lackeyccg-stccg/tribbles/master/sets/setimages/general/"
    ]
    assert any("master//saved/start.txt" in e.url for e in tribbles.entries)
    dbz = read_updatelist(reference_dir / "dbztcg/updatelist.txt")
    assert dbz.entries[0] == UpdateEntry(
        "plugins/dbztcg/updatelist.txt",
        "https://raw.githubusercontent.com/dbztcg/dbztcg/master/updatelist.txt",
        400522,
        2,
    )
    assert "perfectionURLS.txt" in dbz.card_url_files
    assert dbz.plugin_path(dbz.entries[1]) == "plugininfo.txt"


def test_round_trip_of_the_canonical_form() -> None:
    original = UpdateList(
        "zombieccg",
        "11-29-26",
        [
            UpdateEntry("plugins/zombieccg/plugininfo.txt", "https://h/z/plugininfo.txt", 123),
            UpdateEntry("images/backgrounds/z.jpg", "https://h/z/images/backgrounds/z.jpg", -45),
        ],
        card_image_urls=[("alpha/a.jpg", "https://h/a.jpg")],
        card_url_files=["CardImageURLs1.txt"],
        card_general_urls=["https://h/z/sets/setimages/alpha/"],
    )
    text = render_updatelist(original)
    assert text == (
        "zombieccg\t11-29-26\n"
        "plugins/zombieccg/plugininfo.txt\thttps://h/z/plugininfo.txt\t123\n"
        "images/backgrounds/z.jpg\thttps://h/z/images/backgrounds/z.jpg\t-45\n"
        "CardImageURLs:\nalpha/a.jpg\thttps://h/a.jpg\n\n"
        "CardURLFiles:\nCardImageURLs1.txt\n\n"
        "CardGeneralURLs:\nhttps://h/z/sets/setimages/alpha/\n"
    )
    parsed = parse_updatelist(text.encode())
    assert [(e.local_path, e.url, e.checksum) for e in parsed.entries] == [
        (e.local_path, e.url, e.checksum) for e in original.entries
    ]
    assert parsed.card_image_urls == original.card_image_urls
    assert parsed.card_url_files == original.card_url_files
    assert parsed.card_general_urls == original.card_general_urls


def test_bad_lines_are_reported_not_fatal_but_a_missing_name_is() -> None:
    parsed = parse_updatelist(b"z\t01-01-25\r\nplugins/z/a.txt\thttp://h/a\tabc\r\nonly-path\r\n")
    assert parsed.entries == []
    assert [line for line, _ in parsed.problems] == [2, 3]
    with pytest.raises(LackeyError, match="line 1"):
        parse_updatelist(b"\tdate\n")


def test_dates() -> None:
    assert valid_date("02-29-24") and not valid_date("02-30-24") and not valid_date("2024-01-01")
