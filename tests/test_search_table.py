"""``zcards search``'s text table: the game's own columns (Lorcana's Strength, Willpower and
Lore, not Zombie CCG's empty faction and health), the rules text last, ``--columns`` to
choose."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from zcards.cli import cli
from zcards.ingest.importer import import_sources


@pytest.fixture(scope="module")
def lorcana_db(reference_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lorcana") / "cards.db"
    import_sources(db, [str(reference_dir / "lorcana")])
    return db


def _table(*arguments: str) -> list[str]:
    result = CliRunner().invoke(cli, ["search", *arguments])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_another_game_shows_its_own_columns(lorcana_db: Path) -> None:
    header, _rule, first, *_ = _table("order:-Strength", "--db", str(lorcana_db), "--limit", "2")
    assert header.split() == [
        "Name", "Set", "type", "Rarity", "Color", "Cost", "Inkwell", "Classifications",
        "Strength", "Willpower", "Lore", "Text",
    ]  # fmt: skip
    assert first.startswith("Te Kā - Elemental Terror") and " 12 " in first


def test_columns_chooses_them_by_any_spelling(lorcana_db: Path) -> None:
    lines = _table("order:-Strength", "--db", str(lorcana_db), "--limit", "1", "--columns",
                   "name, STRENGTH,lore")  # fmt: skip
    assert lines[0].split() == ["Name", "Strength", "Lore"]
    assert lines[2].split()[-2:] == ["12", "3"]


def test_the_zombie_table_shows_the_text_cut_to_fit(sample_db_path: Path) -> None:
    header, rule, *rows = _table("t:zombie", "--db", str(sample_db_path))
    assert header.split()[-1] == "text" and header.split()[0] == "name"
    assert max(len(row) for row in rows) <= len(rule)
    assert any(row.endswith("…") for row in rows)


def test_an_unknown_column_names_the_known_ones(sample_db_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["search", "t:zombie", "--db", str(sample_db_path), "--columns", "name,bogus"]
    )
    assert result.exit_code == 2
    assert "no column 'bogus'" in result.stderr and "faction" in result.stderr
