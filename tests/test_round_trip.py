"""Each real plugin, through zcards and back: init a game definition from it, import its folder
with that definition, export the plugin, and compare the two folders as Lackey reads them.

What must match: plugininfo.txt by meaning; every card data row (the importer trims the
spaces around a cell, so a few rows differ there and nowhere else: counted and pinned); the
updatelist entry (install path, URL, checksum) of every file shipped as it was. What is
written anew differs as it must: plugininfo.txt's layout, version.txt's date, and the
checksum of a card data file with trimmed cells or another encoding (potter's is
Windows-1252; a release is UTF-8).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lackey_plugin.compare import Row, compare_plugins
from lackey_plugin.gamefile_toml import game_toml
from lackey_plugin.updatelist import read_updatelist
from zcards.game.gamefile import init_game, load_game
from zcards.ingest.importer import import_sources
from zcards.publish.plugin_export import export_plugin

# plugin -> (card rows, rows whose cells differ only by surrounding spaces)
EXPECTED_ROWS = {
    "lackey-example": (5, 0),
    "lorcana": (2719, 1),
    "tribbles": (147, 3),
    "potter": (640, 6),
    "vtes": (4118, 20),
    "dbztcg": (1246, 0),
    "fow": (3220, 7),
}
# Files written anew (their checksums change); every other listed file must be identical.
# pluginpreferences.txt is shipped as it is, with its real checksum: the originals list a
# stale one (lorcana) or 0, "never check" (vtes).
REWRITTEN = {"plugininfo.txt", "version.txt", "updatelist.txt", "pluginpreferences.txt"}
# A row's empty fields past the header are not kept (Lackey ignores them; budapest2012.txt
# ends two rows with an empty 13th field), so that file's checksum changes by the TABs.
TRIMMED_FILES = {
    "lorcana": {"sets/carddata.txt"},
    "tribbles": {"sets/tribbles.txt"},
    "potter": {"sets/carddata.txt"},
    "vtes": {
        f"sets/{name}.txt"
        for name in ("allsets", "antipodean", "budapest2012", "redsign", "tokens")
    },
}


def _trimmed(row: Row) -> Row:
    return tuple(value.strip() for value in row)


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
    rows, trimmed = EXPECTED_ROWS[plugin]
    assert result.rows_same + len(result.rows_only_left) == rows
    assert len(result.rows_only_left) == len(result.rows_only_right) == trimmed
    assert sorted(map(_trimmed, result.rows_only_left)) == sorted(
        map(_trimmed, result.rows_only_right)
    )
    differing = {line.split(":", 1)[0] for line in result.entries_different}
    allowed = REWRITTEN | TRIMMED_FILES.get(plugin, set())
    assert differing <= allowed, result.entries_different
    if plugin != "fow":  # its updatelist is a stub without file lines
        assert result.entries_same > 0
