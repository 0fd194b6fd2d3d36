"""An empty search explains values no card has, instead of staying silent."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from zcards.cli import cli
from zcards.query.search import unknown_values
from zcards.store.db import open_db


def test_typos_in_values_get_did_you_mean(sample_db_path: Path) -> None:
    db = open_db(sample_db_path)
    hints = unknown_values(db, "k:fats (f:rage or t:zombi) sym:medik req:tuogh")
    assert hints == [
        "no card has k 'fats' (did you mean 'Fast'?)",
        "no card has t 'zombi' (did you mean 'Zombie'?)",
        "no card has sym 'medik' (did you mean 'Medic'?)",
        "no card has req 'tuogh' (did you mean 'Tough'?)",
    ]


def test_known_values_need_no_hint(sample_db_path: Path) -> None:
    db = open_db(sample_db_path)
    assert unknown_values(db, "k:FAST r:common r:U f:horde -t:item cost<=2 name:ghoul") == []


def test_cli_prints_hints_only_when_nothing_matched(sample_db_path: Path) -> None:
    runner = CliRunner()
    empty = runner.invoke(cli, ["search", "k:fats", "--db", str(sample_db_path)])
    assert empty.exit_code == 0
    assert "Note: no card has k 'fats' (did you mean 'Fast'?)" in empty.stderr
    found = runner.invoke(cli, ["search", "k:fast or k:fats", "--db", str(sample_db_path)])
    assert found.exit_code == 0 and "Note:" not in found.stderr
    assert "Fast" in found.stdout  # the hint is left out because cards matched
