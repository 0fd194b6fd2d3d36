"""Game definition files: the shipped Zombie one, mistakes named at file and line, and the
documented route of another game's author (plugin init, import --game, export, card)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from lackey_plugin.errors import LackeyError
from lackey_plugin.gamefile_toml import game_toml
from zcards.cli import cli
from zcards.game import definition
from zcards.game.gamefile import load_game, parse_game, zombie_game_file


def test_the_shipped_zombie_file_names_what_the_rules_use() -> None:
    zombie = zombie_game_file()
    assert zombie.game.phases == (
        definition.READY_PHASE,
        definition.DRAW_PHASE,
        definition.BUILD_PHASE,
        definition.ATTACK_PHASE,
        definition.RECOUP_PHASE,
        definition.END_PHASE,
    )
    assert zombie.game.zone_labels == (
        definition.HAND,
        definition.DECK,
        definition.DISCARD,
        definition.REMOVED,
    )
    assert zombie.game.player_stats[0].label == definition.FOOD_STAT
    assert definition.ZOMBIE_GAME.card_function("Wound").meaning is definition.Meaning.WOUND
    assert parse_game(game_toml(zombie)).game == zombie.game  # the writer loses nothing


MINIMAL = """[game]
name = "mini"

[[columns]]
name = "Name"

[[columns]]
name = "Set"

[[columns]]
name = "ImageFile"
"""


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (MINIMAL.replace('name = "mini"', "name = 3"), 2, "name in [game] must be a string"),
        (MINIMAL + '\n[[columns]]\nname = "Power"\ntype = "float"\n', 15, "must be one of"),
        (MINIMAL + "\n[colums]\n", 13, "unknown table [colums]"),
        (MINIMAL + '\n[[columns]]\nname = "name"\n', 14, "repeated"),
        (MINIMAL.replace('"ImageFile"', '"Image"'), 10, "Name, Set, ImageFile"),
        (MINIMAL + "\n[[zones]]\nvisible_to_owner = true\n", 13, "needs 'label'"),
        (MINIMAL + "\n[game\n", 13, "not valid TOML"),
    ],
)
def test_a_mistake_names_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(LackeyError, match=re.escape(message)) as caught:
        load_game(path)
    assert (caught.value.location.file, caught.value.location.line) == (str(path), line)


def test_a_bad_game_file_is_a_usage_error_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(MINIMAL.replace('name = "mini"', "name = 3"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "x.txt", "--db", "x.db", "--game", str(path)])
    assert result.exit_code == 2
    assert f"{path}, line 2" in result.output


def test_a_lorcana_author_gets_a_lorcana_plugin(reference_dir: Path, tmp_path: Path) -> None:
    """The README's route: one game definition, then the usual commands."""
    source = reference_dir / "lorcana"
    run = CliRunner().invoke
    game, db = tmp_path / "lorcana.toml", tmp_path / "lorcana.db"
    assert run(cli, ["plugin", "init", "--from", str(source), "--out", str(game)]).exit_code == 0
    cards = str(source / "sets" / "carddata.txt")
    imported = run(cli, ["import", cards, "--db", str(db), "--game", str(game)])
    assert imported.exit_code == 0, imported.output
    card = run(cli, ["card", "Ariel - On Human Legs", "--db", str(db), "--format", "json"])
    columns = json.loads(card.output)["columns"]
    assert list(columns)[:5] == ["Name", "Set", "ImageFile", "type", "Rarity"]
    assert columns["Strength"] == "3" and "Power" not in columns
    text = run(cli, ["card", "Ariel - On Human Legs", "--db", str(db)]).output
    assert "Strength" in text and "Power" not in text

    out = str(tmp_path / "dist")
    exported = run(cli, ["plugin", "export", "--db", str(db), "--out", out, "--date", "2026-03-05"])
    assert exported.exit_code == 0, exported.output
    plugin = tmp_path / "dist" / "lorcana"
    info = (plugin / "plugininfo.txt").read_text(encoding="utf-8")
    assert "Food" not in info and "<label>Lore</label>" in info and "<shuffle>" in info
    header = (plugin / "sets" / "carddata.txt").read_text(encoding="utf-8").split("\n", 1)[0]
    assert header.split("\t") == list(columns)
    assert not (plugin / "cardback.jpg").exists()  # its images live elsewhere
    with sqlite3.connect(db) as conn:
        facets = dict(conn.execute('select "Color", count(*) from cards group by 1').fetchall())
        plan = conn.execute(
            "explain query plan select * from cards where \"Color\" = 'Steel' collate nocase"
        ).fetchall()
    assert facets["Amber"] > 300
    assert "idx_cards_game_Color" in str(plan)


def test_init_reads_a_published_plugin_by_url(
    reference_dir: Path, tmp_path: Path, httpserver: HTTPServer
) -> None:
    source = reference_dir / "tribbles"
    updatelist = "tribbles\t01-01-26\n" + "".join(
        f"plugins/tribbles/{name}\t{httpserver.url_for('/t/' + name)}\t1\n"
        for name in ("plugininfo.txt", "sets/tribbles.txt", "sets/trouble.txt", "defaultchat.txt")
    )
    httpserver.expect_request("/t/updatelist.txt").respond_with_data(updatelist)
    for name in ("plugininfo.txt", "sets/tribbles.txt", "sets/trouble.txt", "defaultchat.txt"):
        httpserver.expect_request(f"/t/{name}").respond_with_data((source / name).read_bytes())
    out = tmp_path / "tribbles.toml"
    result = CliRunner().invoke(
        cli,
        ["plugin", "init", "--from", httpserver.url_for("/t/updatelist.txt"), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    game = load_game(out)
    names = [c.name for c in game.columns]
    assert names == ["Name", "Set", "ImageFile", "Info", "Type", "Count", "Text"]
    assert game.column("Count").type == "integer"
    assert "!Draw 5!/draw5" in game.chat
    assert len(game.game.phases) == 12
