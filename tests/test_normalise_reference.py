"""Every card data file of the seven real Lackey plugins reads with every row."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils
from support.reference_plugins import EXPECTED_ROWS

from zcards.cards.normalise import parse_card_data, read_card_file
from zcards.ingest.importer import import_sources

PLUGINS = sorted({name.split("/")[0] for name in EXPECTED_ROWS})


def test_every_reference_card_file_is_listed(reference_dir: Path) -> None:
    found = {str(p.relative_to(reference_dir)) for p in reference_dir.glob("*/sets/*.txt")}
    assert found == set(EXPECTED_ROWS)


@pytest.mark.parametrize("relative", sorted(EXPECTED_ROWS))
def test_reference_file_reads_every_row(reference_dir: Path, relative: str) -> None:
    path = reference_dir / relative
    parsed = parse_card_data(path.read_bytes(), str(path))
    assert parsed.problems == []
    assert len(parsed.rows) == EXPECTED_ROWS[relative]
    assert not parsed.zombie
    first_name = path.read_bytes().splitlines()[1].split(b"\t")[0].decode("utf-8", "replace")
    assert parsed.rows[0].card.name == first_name.strip()
    assert len(read_card_file(path)) == EXPECTED_ROWS[relative]


@pytest.mark.parametrize("plugin", PLUGINS)
def test_reference_plugin_imports_every_row(reference_dir: Path, tmp_path: Path, plugin: str):
    """Alternate printings (same Set and Name) land in card_variants: no row is lost."""
    db_path = tmp_path / "cards.db"
    report = import_sources(db_path, [str(reference_dir / plugin)])
    expected = sum(n for name, n in EXPECTED_ROWS.items() if name.startswith(f"{plugin}/"))
    assert report.added + report.variants == expected
    db = sqlite_utils.Database(db_path)
    assert db["cards"].count + db["card_variants"].count == expected
    card_files = [r for r in db["sources"].rows if r["kind"] == "card-data"]
    assert sum(r["row_count"] for r in card_files) == expected


def test_bom_is_not_part_of_the_first_header(reference_dir: Path) -> None:
    path = reference_dir / "fow/sets/Lapis.txt"
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    parsed = parse_card_data(path.read_bytes(), str(path))
    assert parsed.columns[0] == "Name"
    assert parsed.warnings == []


def test_windows_1252_is_read_with_a_warning_naming_the_line(reference_dir: Path) -> None:
    path = reference_dir / "potter/sets/carddata.txt"
    parsed = parse_card_data(path.read_bytes(), str(path))
    (warning,) = parsed.warnings
    assert "Windows-1252" in warning.message
    assert warning.location.file == str(path)
    line_text = path.read_bytes().replace(b"\r\n", b"\n").split(b"\n")[warning.location.line - 1]
    assert b"\x92" in line_text
    assert any("can\u2019t" in card.text for card in parsed.cards)


def test_cr_only_file_and_other_games_columns(reference_dir: Path) -> None:
    path = reference_dir / "lackey-example/sets/carddata.txt"
    assert b"\n" not in path.read_bytes()
    cards = read_card_file(path)
    assert len(cards) == 5
    assert {"Sound", "Script", "$", "Number"} <= set(cards[0].extra)
    assert all(isinstance(card.power, int) for card in cards)


def test_unnamed_overflow_column_is_kept(reference_dir: Path) -> None:
    cards = read_card_file(reference_dir / "vtes/sets/mythic.txt")
    assert all("Column13" in card.extra for card in cards)
    assert cards[0].extra["Column13"]


def test_non_numeric_column_of_another_game_stays_text(reference_dir: Path) -> None:
    cards = read_card_file(reference_dir / "fow/sets/Alice.txt")
    assert cards[0].cost is None
    assert cards[0].extra["Cost"] == "[L][1]"
    assert cards[0].to_lackey_fields()["Cost"] == "[L][1]"
