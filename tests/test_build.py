"""``zcards build``: the bundled set into OUT/cards.db, offline and atomically."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from zcards import build as build_module
from zcards.build import STEPS, BuildContext, StepResult, build
from zcards.cli import cli


def test_build_creates_the_card_database(tmp_path: Path) -> None:
    result = build(tmp_path / "out")
    assert result.db_path == tmp_path / "out" / "cards.db"
    assert sqlite_utils.Database(result.db_path)["cards"].count == 100
    assert [step.name for step in result.steps] == ["database"]
    assert sorted(p.name for p in result.out_dir.iterdir()) == ["cards.db"]


def test_rebuild_replaces_the_database(tmp_path: Path) -> None:
    build(tmp_path)
    db = sqlite_utils.Database(tmp_path / "cards.db")
    db["cards"].delete_where()
    db.close()
    build(tmp_path)
    assert sqlite_utils.Database(tmp_path / "cards.db")["import_runs"].count == 1
    assert sqlite_utils.Database(tmp_path / "cards.db")["cards"].count == 100


def test_a_failing_step_keeps_the_previous_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(tmp_path)
    before = (tmp_path / "cards.db").read_bytes()
    broken = tmp_path / "broken.txt"
    broken.write_text("Name\tSet\tImageFile\tFaction\nx\t\tx\tRage\n", encoding="utf-8")
    monkeypatch.setattr(build_module, "BUNDLED_SET", broken)
    with pytest.raises(Exception, match="Set is empty"):
        build(tmp_path)
    assert (tmp_path / "cards.db").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.txt", "cards.db"]


def test_steps_are_a_list_later_parts_extend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def count_step(context: BuildContext) -> StepResult:
        count = sqlite_utils.Database(context.db_path)["cards"].count
        return StepResult("count", (), f"{count} cards seen by a later step")

    monkeypatch.setattr(build_module, "STEPS", [*STEPS, ("count", count_step)])
    result = build(tmp_path)
    assert result.steps[-1].summary == "100 cards seen by a later step"
    with pytest.raises(ValueError, match="unknown build step"):
        build(tmp_path, steps=["nope"])


def test_cli_build(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("database: 100 cards in ")
    assert (tmp_path / "b" / "cards.db").is_file()
