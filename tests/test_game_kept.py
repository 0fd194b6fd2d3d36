"""Another game's plugin, imported and published anywhere: the import keeps the game, so an
export with no flag writes that game's plugin; republished at a new address (a real local
HTTP server) it verifies, holds every file of the original, and imports back to the same
cards. Zombie CCG's own plugin keeps the built-in game."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from support.plugin_exports import serve_plugin

from lackey_plugin.updatelist import read_updatelist
from lackey_plugin.verify import verify_plugin
from zcards.cli import cli
from zcards.ingest.importer import import_sources
from zcards.publish.plugin_export import export_plugin
from zcards.store.game_columns import stored_game

CARD_COLUMNS = "name, set_name, image_file, type, rarity, text, cost, power, health, extra"


def _cards(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return [
            *conn.execute(f"select {CARD_COLUMNS} from cards order by name, set_name"),
            *conn.execute(f"select {CARD_COLUMNS} from card_variants order by name, set_name"),
        ]


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def _card_lines(folder: Path) -> Counter[bytes]:
    """Every card data line of the folder, as bytes, with its line ending; a line without
    one (the last) gets the file's, and empty fields past the header (which Lackey ignores)
    are left out."""
    lines: Counter[bytes] = Counter()
    for path in sorted((folder / "sets").glob("*.txt")):
        header, *rows = path.read_bytes().splitlines(keepends=True)
        ending = header[len(header.rstrip(b"\r\n")) :]
        width = header.count(b"\t") + 1
        for row in rows:
            fields = row.rstrip(b"\r\n").split(b"\t")
            while len(fields) > width and not fields[-1]:
                fields.pop()
            lines[b"\t".join(fields) + ending] += 1
    return lines


@pytest.mark.parametrize("plugin", ["lorcana", pytest.param("vtes", marks=pytest.mark.slow)])
def test_an_imported_plugin_is_republished_anywhere(
    plugin: str, reference_dir: Path, tmp_path: Path, httpserver: HTTPServer
) -> None:
    source = reference_dir / plugin
    report = import_sources(tmp_path / "cards.db", [str(source)])
    assert report.game_kept is not None and report.game_kept.game.name == plugin
    base = httpserver.url_for(f"/elsewhere/{plugin}/")

    exported = export_plugin(tmp_path / "cards.db", tmp_path / "out", base_url=base)

    folder = exported.plugin_dir
    assert folder.name == plugin  # that game's plugin, not zombieccg
    assert _files(source) <= _files(folder)  # every file of the original, plus what we add
    assert _card_lines(folder) == _card_lines(source)  # byte for byte, lorcana's CRLF too
    crlf = [p.name for p in (folder / "sets").glob("*.txt") if b"\r\n" in p.read_bytes()]
    assert crlf == (["carddata.txt"] if plugin == "lorcana" else [])
    updatelist = read_updatelist(folder / "updatelist.txt")
    assert [e.url for e in updatelist.entries if not e.url.startswith(base)] == []
    version_url = next(e.url for e in updatelist.entries if e.local_path.endswith("version.txt"))
    assert f"<versionurl>{version_url}</versionurl>" in (folder / "version.txt").read_text()
    assert any(m.startswith("card images stay at https://") for m in exported.messages)
    serve_plugin(httpserver, folder, prefix=f"/elsewhere/{plugin}/")
    assert verify_plugin(base + "updatelist.txt").problems == []
    again = tmp_path / "again.db"
    import_sources(again, [base + "updatelist.txt"])
    assert _cards(again) == _cards(tmp_path / "cards.db")


def test_the_zombie_plugin_keeps_the_built_in_game(mini_plugin: Path, tmp_path: Path) -> None:
    report = import_sources(tmp_path / "cards.db", [str(mini_plugin)])
    assert report.game_kept is None
    with sqlite3.connect(tmp_path / "cards.db") as conn:
        assert stored_game(conn) is None


def test_a_database_with_a_game_keeps_it(reference_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "cards.db"
    import_sources(db, [str(reference_dir / "lackey-example")])
    second = import_sources(db, [str(reference_dir / "tribbles")])
    assert second.game_kept is None
    assert any("the database's game is kept" in str(w) for w in second.warnings)
    with sqlite3.connect(db) as conn:
        game = stored_game(conn)
    assert game is not None and game.game.name == "lackey-example"


def test_a_zombie_database_stays_zombie(
    reference_dir: Path, sample_db_copy: Path, tmp_path: Path
) -> None:
    report = import_sources(sample_db_copy, [str(reference_dir / "lackey-example")])
    assert report.game_kept is None
    with sqlite3.connect(sample_db_copy) as conn:
        assert stored_game(conn) is None


def test_the_release_message_and_a_relative_root(reference_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    definition = tmp_path / "games" / "tribbles.toml"
    definition.parent.mkdir()
    source = str(reference_dir / "tribbles")
    assert runner.invoke(cli, ["plugin", "init", "--from", source, "--out", str(definition)])
    text = definition.read_text(encoding="utf-8")
    assert 'root = "../' in text and f'root = "{reference_dir}' not in text
    db = str(tmp_path / "cards.db")
    assert runner.invoke(cli, ["import", source, "--db", db]).exit_code == 0
    out = str(tmp_path / "out")
    result = runner.invoke(
        cli, ["plugin", "export", "--db", db, "--out", out, "--message", "Fixed <Tribbles> & co"]
    )
    assert result.exit_code == 0, result.output
    version = (tmp_path / "out" / "tribbles" / "version.txt").read_text(encoding="utf-8")
    assert "<message>Fixed &lt;Tribbles&gt; &amp; co</message>" in version
