"""``zcards db metadata``: Datasette's metadata.json for a card database, the game's own
columns described and faceted, zcards' bookkeeping tables hidden, canned queries that run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from zcards.cli import cli
from zcards.ingest.importer import import_sources


def _metadata(db: Path, tmp_path: Path) -> dict:
    out = tmp_path / "metadata.json"
    result = CliRunner().invoke(cli, ["db", "metadata", "--db", str(db), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf-8"))


def test_another_game_s_columns_are_described_and_faceted(
    reference_dir: Path, tmp_path: Path
) -> None:
    db = tmp_path / "lorcana.db"
    import_sources(db, [str(reference_dir / "lorcana")])
    database = _metadata(db, tmp_path)["databases"]["lorcana"]
    cards = database["tables"]["cards"]
    assert cards["columns"]["Strength"] == "lorcana's Strength (integer)"
    assert cards["columns"]["faction"] == "not a column of lorcana (always empty)"
    assert cards["facets"][:3] == ["set_name", "Color", "Inkwell"]
    assert database["tables"]["game"] == {"hidden": True}
    with sqlite3.connect(db) as conn:
        by_set = conn.execute(database["queries"]["cards_by_set"]["sql"]).fetchall()
        assert sum(count for _set, count in by_set) == 2325
        deck = "4\tAriel - On Human Legs\r\n2 Stitch - Rock Star\nMickey Mouse - Detective\n"
        names = conn.execute(database["queries"]["cards_in_deck"]["sql"], {"deck": deck})
        assert {row[0] for row in names} == {
            "Ariel - On Human Legs",
            "Stitch - Rock Star",
            "Mickey Mouse - Detective",
        }


def test_the_zombie_game_facets_its_factions(sample_db_path: Path, tmp_path: Path) -> None:
    metadata = _metadata(sample_db_path, tmp_path)
    cards = metadata["databases"]["cards"]["tables"]["cards"]
    assert metadata["title"] == "Zombie CCG cards"
    assert cards["facets"] == ["set_name", "type", "faction", "rarity"]
    assert cards["columns"]["power"].startswith("Power")
