"""Each real plugin, through zcards and back: init a game definition from it, import its folder
with that definition, export the plugin, and compare the two folders as Lackey reads them.

What must match: plugininfo.txt by meaning; every card data row, byte for byte (the spaces
around a cell kept); the updatelist entry (install path, URL, checksum) of every file shipped
as it was. What is written anew differs as it must: plugininfo.txt's layout, version.txt's
date, and the checksum of a card data file with empty trailing fields, another encoding
(potter's is Windows-1252; a release is UTF-8) or over 1 MB (split in two).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lackey_plugin.compare import compare_plugins
from lackey_plugin.gamefile_toml import game_toml
from lackey_plugin.updatelist import read_updatelist
from zcards.game.gamefile import init_game, load_game
from zcards.ingest.importer import import_sources
from zcards.publish.plugin_export import export_plugin

# plugin -> card rows, each written back exactly as it was (spaces around cells kept)
EXPECTED_ROWS = {
    "lackey-example": 5,
    "lorcana": 2719,
    "tribbles": 147,
    "potter": 640,
    "vtes": 4118,
    "dbztcg": 1246,
    "fow": 3220,
}
# Files written anew (their checksums change); every other listed file must be identical.
# pluginpreferences.txt is shipped as it is, with its real checksum: the originals list a
# stale one (lorcana) or 0, "never check" (vtes).
REWRITTEN = {"plugininfo.txt", "version.txt", "updatelist.txt", "pluginpreferences.txt"}
# A row's empty fields past the header are not kept (Lackey ignores them; budapest2012.txt
# ends two rows with an empty 13th field), so that file's checksum changes by the TABs; a
# Windows-1252 file (potter's) is written as UTF-8; allsets.txt (1.2 MB) continues in
# allsets-2.txt.
TRIMMED_FILES = {
    "potter": {"sets/carddata.txt"},
    "vtes": {"sets/budapest2012.txt", "sets/allsets.txt"},
}


@pytest.mark.parametrize("plugin", sorted(EXPECTED_ROWS))
def test_reference_plugin_round_trips(plugin: str, reference_dir: Path, tmp_path: Path) -> None:
    source = reference_dir / plugin
    definition = tmp_path / "game.toml"
    definition.write_text(game_toml(init_game(str(source))), encoding="utf-8")
    game = load_game(definition)
    name = read_updatelist(source / "updatelist.txt").name
    import_sources(tmp_path / "cards.db", [str(source)], game=game)
    export_plugin(tmp_path / "cards.db", tmp_path / "out", game=game, release=date(2026, 1, 2))

    result = compare_plugins(source, tmp_path / "out" / name)

    assert result.plugininfo == []
    assert result.rows_same == EXPECTED_ROWS[plugin]
    assert result.rows_only_left == result.rows_only_right == []
    differing = {line.split(":", 1)[0] for line in result.entries_different}
    allowed = REWRITTEN | TRIMMED_FILES.get(plugin, set())
    assert differing <= allowed, result.entries_different
    if plugin != "fow":  # its updatelist is a stub without file lines
        assert result.entries_same > 0
