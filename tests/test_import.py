"""Importing local card data: provenance, one transaction, change log, dry run, CLI."""

from __future__ import annotations

import gc
import hashlib
import json
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner

from zcards.cards.normalise import CardDataError
from zcards.cli import cli
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET
from zcards.store.changes import run_changes
from zcards.store.db import iter_cards, keyword_clause, open_db


def snapshot(db_path: Path) -> dict[str, list]:
    """Every row of every card table: the observable content of the database."""
    db = sqlite_utils.Database(db_path)
    return {
        table: sorted(map(repr, db[table].rows)) for table in ("cards", "card_variants", "changes")
    }


def edited_alpha(tmp_path: Path, edit) -> Path:
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "alpha.txt"
    path.write_text("\n".join(edit(lines)) + "\n", encoding="utf-8")
    return path


def test_sample_db_has_the_bundled_set_with_provenance(sample_db_path: Path) -> None:
    db = open_db(sample_db_path)
    cards = list(iter_cards(db))
    assert len(cards) == 100
    (source,) = db["sources"].rows
    assert source["location"] == str(BUNDLED_SET)
    assert source["sha256"] == hashlib.sha256(BUNDLED_SET.read_bytes()).hexdigest()
    assert source["row_count"] == 100 and source["kind"] == "card-data"
    (run,) = db["import_runs"].rows
    assert run["added"] == 100 and json.loads(run["sources"]) == [str(BUNDLED_SET)]


def test_keywords_and_full_text_are_queryable(sample_db_path: Path) -> None:
    db = open_db(sample_db_path)
    fast = [c.name for c in iter_cards(db, keyword_clause("keywords"), ["fast"])]
    assert "Meat Stalker" in fast and "Gross Ghoul" not in fast
    assert all(c.has_keyword("Fast") for c in iter_cards(db, keyword_clause(), ["Fast"]))
    hits = db.execute("select name from cards_fts where cards_fts match 'ghoul'").fetchall()
    assert ("Gross Ghoul",) in hits


def test_reimport_of_same_data_changes_nothing(sample_db_copy: Path) -> None:
    before = snapshot(sample_db_copy)
    report = import_sources(sample_db_copy, [str(BUNDLED_SET)])
    assert (report.added, report.changed, report.removed) == (0, 0, 0)
    assert report.unchanged == 100
    assert snapshot(sample_db_copy) == before


def test_change_log_after_editing_a_card(sample_db_copy: Path, tmp_path: Path) -> None:
    def edit(lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            fields = line.split("\t")
            if fields[0] == "Gross Ghoul":
                fields[6], fields[8] = "2", "Tough, Enduring"
            if fields[0] != "Kyle Bjorn":
                out.append("\t".join(fields))
        return [*out, "Brand New Biter\talpha\tbiter\tZombie\tWeird\t\t1\t\t\t\t\tC\tBites."]

    source = edited_alpha(tmp_path, edit)
    import_sources(sample_db_copy, [str(BUNDLED_SET)])
    report = import_sources(sample_db_copy, [str(source)])
    db = open_db(sample_db_copy)
    run, changes = run_changes(db)
    assert run == report.run_id
    by_name = {change.name: change for change in changes}
    assert by_name["Gross Ghoul"].action == "changed"
    assert by_name["Gross Ghoul"].fields == {
        "power": [1, 2],
        "keywords": [["Tough"], ["Tough", "Enduring"]],
    }
    assert by_name["Brand New Biter"].action == "added"
    assert by_name["Brand New Biter"].name in {c.name for c in iter_cards(db)}
    # The edited file is another source: Kyle Bjorn stays, as the bundled file still has him.
    assert "Kyle Bjorn" not in by_name
    back = import_sources(sample_db_copy, [str(BUNDLED_SET)])
    assert [(c.action, c.name) for c in back.changes] == [("changed", "Gross Ghoul")]


def test_card_missing_from_a_reimported_source_is_removed(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    source = edited_alpha(tmp_path, lambda lines: lines)
    import_sources(db_path, [str(source)])
    edited_alpha(tmp_path, lambda lines: [ln for ln in lines if not ln.startswith("Kyle Bjorn\t")])
    report = import_sources(db_path, [str(source)])
    assert [(c.action, c.name) for c in report.changes] == [("removed", "Kyle Bjorn")]
    result = CliRunner().invoke(cli, ["changes", "--db", str(db_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["changes"] == [
        {"action": "removed", "set": "alpha", "name": "Kyle Bjorn", "fields": {}}
    ]


BAD = [
    "Good Zombie\talpha\tgood\tZombie\tRage\t\t1\t\tFast\t\t\tC\tFine.",
    "Short Zombie\talpha\tshort\tZombie\tRage\t\t1",
    "Costly Kid\talpha\tkid\tSurvivor\t\tlots\t1\t1\t\t\t\tC\tHm.",
    "Odd Zombie\talpha\todd\tZombie\tRaeg\t\t1\t\t\t\t\tC\tHm.",
]


def bad_file(tmp_path: Path) -> Path:
    header = BUNDLED_SET.read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "bad.txt"
    path.write_text("\n".join([header, *BAD]) + "\n", encoding="utf-8")
    return path


def test_bad_rows_leave_the_database_untouched(sample_db_copy: Path, tmp_path: Path) -> None:
    before = sample_db_copy.read_bytes()
    with pytest.raises(CardDataError) as caught:
        import_sources(sample_db_copy, [str(BUNDLED_SET), str(bad_file(tmp_path))])
    lines = {(p.location.line, p.location.column) for p in caught.value.problems}
    assert lines == {(3, 8), (4, "Cost"), (5, "Faction")}
    assert "did you mean 'Rage'?" in str(caught.value)
    assert sample_db_copy.read_bytes() == before


def test_skip_bad_rows_imports_the_rest_and_reports_each(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    report = import_sources(db_path, [str(bad_file(tmp_path))], skip_bad_rows=True)
    assert [c.name for c in report.changes if c.action == "added"] == ["Good Zombie"]
    assert sorted(p.location.line for p in report.skipped) == [3, 4, 5]
    assert open_db(db_path)["import_runs"].get(report.run_id)["skipped_rows"] == 3


def test_failed_first_import_creates_no_database(tmp_path: Path) -> None:
    with pytest.raises(CardDataError):
        import_sources(tmp_path / "cards.db", [str(bad_file(tmp_path))])
    assert not (tmp_path / "cards.db").exists()


def test_dry_run_reports_and_changes_nothing(sample_db_copy: Path, tmp_path: Path) -> None:
    source = edited_alpha(tmp_path, lambda lines: [*lines[:1], *lines[2:]])
    before = snapshot(sample_db_copy)
    report = import_sources(sample_db_copy, [str(BUNDLED_SET)], dry_run=True)
    fresh = import_sources(tmp_path / "new.db", [str(source)], dry_run=True)
    assert report.run_id is None and report.unchanged == 100
    assert fresh.added == 99 and not (tmp_path / "new.db").exists()
    assert snapshot(sample_db_copy) == before


def test_cross_file_duplicate_zombie_card_is_a_bad_row(tmp_path: Path) -> None:
    copy = edited_alpha(tmp_path, lambda lines: lines)
    with pytest.raises(CardDataError, match="duplicate card") as caught:
        import_sources(tmp_path / "cards.db", [str(BUNDLED_SET), str(copy)])
    assert len(caught.value.problems) == 100
    assert caught.value.problems[0].location.file == str(copy.resolve())


def test_cli_import_text_and_json(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    runner = CliRunner()
    result = runner.invoke(cli, ["import", str(BUNDLED_SET), "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert "100 added, 0 changed, 0 removed, 0 unchanged" in result.output
    result = runner.invoke(
        cli, ["import", str(BUNDLED_SET), "--db", str(db_path), "--dry-run", "--format", "json"]
    )
    data = json.loads(result.output)
    assert data["dry_run"] is True and data["unchanged"] == 100 and data["run_id"] is None
    assert data["sources"][0]["rows"] == 100


def test_cli_import_error_exit_code(tmp_path: Path) -> None:
    from zcards.cli import main

    with pytest.raises(SystemExit) as caught:
        main(["import", str(bad_file(tmp_path)), "--db", str(tmp_path / "c.db")])
    assert caught.value.code == 2


def test_other_games_repeated_names_become_variants(tmp_path: Path) -> None:
    header = "Name\tSet\tImageFile\tText"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(f"{header}\nElf\ts1\telf1\tone\nElf\ts1\telf2\ttwo\n", encoding="utf-8")
    second.write_text(f"{header}\nElf\ts1\telf3\tthree\nOrc\ts1\torc\tfour\n", encoding="utf-8")
    report = import_sources(tmp_path / "cards.db", [str(first), str(second)])
    added = [change.name for change in report.changes if change.action == "added"]
    assert added == ["Elf", "Orc"] and report.variants == 2
    db = sqlite_utils.Database(tmp_path / "cards.db")
    assert db.execute("select image_file from cards where name = 'Elf'").fetchone() == ("elf1",)
    variants = db.execute("select image_file, line from card_variants order by image_file")
    assert variants.fetchall() == [("elf2", 3), ("elf3", 2)]


def test_import_leaves_the_cycle_collector_as_it_was(tmp_path: Path) -> None:
    """Imports pause Python's cycle collector for speed, and restore it even on errors."""
    import_sources(tmp_path / "a.db", [str(BUNDLED_SET)])
    assert gc.isenabled()
    with pytest.raises(CardDataError):
        import_sources(tmp_path / "b.db", [str(bad_file(tmp_path))])
    assert gc.isenabled()
    gc.disable()
    try:
        import_sources(tmp_path / "c.db", [str(BUNDLED_SET)])
        assert not gc.isenabled()
    finally:
        gc.enable()
