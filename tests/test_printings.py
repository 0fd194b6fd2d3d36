"""A name printed in several sets, or twice in one (an alternate art), is one card with
printings: ``zcards card`` lists them, and an import says when two printings of one name in
one set disagree."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from zcards.cli import cli
from zcards.ingest.importer import import_sources

CARDS = (
    "Name\tSet\tImageFile\tCost\tText\n"
    "Knight\tCore\tknight\t2\tBrave.\n"
    "Knight\tCore\tknight-foil\t3\tBrave.\n"
    "Knight\tPromo\tknight-promo\t2\tBrave.\n"
    "Archer\tCore\tarcher\t1\tShoots.\n"
    "Archer\tCore\tarcher-alt\t1\tShoots.\n"
)


def test_card_lists_the_printings_and_import_names_a_clash(tmp_path: Path) -> None:
    source = tmp_path / "cards.txt"
    source.write_text(CARDS, encoding="utf-8")
    db = tmp_path / "cards.db"
    report = import_sources(db, [str(source)])
    (clash,) = [str(w) for w in report.warnings if "printed twice" in str(w)]
    assert clash.startswith(f"{source}: 1 names are printed twice in one set")
    assert "'Knight' in set 'Core': another cost" in clash  # Archer's two agree

    result = CliRunner().invoke(cli, ["card", "Knight", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].split(None, 1) == [
        "Printings",
        "Core (knight); Core (knight-foil); Promo (knight-promo)",
    ]
    data = CliRunner().invoke(cli, ["card", "Archer", "--db", str(db), "--format", "json"])
    printings = json.loads(data.stdout)["printings"]
    assert [p["image_file"] for p in printings] == ["archer", "archer-alt"]


def test_a_single_printing_is_not_listed(sample_db_path: Path) -> None:
    result = CliRunner().invoke(cli, ["card", "Gross Ghoul", "--db", str(sample_db_path)])
    assert result.exit_code == 0 and "Printings" not in result.stdout
