"""A spreadsheet's header is matched by name, in any order (people sort columns as they
like); a missing Name or Set column is an error naming it (exit 2)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from zcards.cli import cli


def _import(tmp_path: Path, text: str) -> tuple[int, str, Path]:
    source = tmp_path / "cards.csv"
    source.write_text(text, encoding="utf-8")
    db = tmp_path / "cards.db"
    result = CliRunner().invoke(cli, ["import", str(source), "--db", str(db)])
    return result.exit_code, result.stderr, db


def test_columns_in_any_order(tmp_path: Path) -> None:
    code, _, db = _import(tmp_path, "Set,Cost,Name,ImageFile\nCore,2,Knight,knight\n")
    assert code == 0
    card = CliRunner().invoke(cli, ["card", "Knight", "--db", str(db), "--format", "json"])
    assert '"set_name": "Core"' in card.stdout and '"cost": 2' in card.stdout


def test_a_missing_set_column_is_named(tmp_path: Path) -> None:
    code, error, _ = _import(tmp_path, "Cost,Name\n2,Knight\n")
    assert code == 2
    assert "cards.csv, line 1: the header has no Set column (columns: Cost, Name)" in error
