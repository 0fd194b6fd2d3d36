"""A game definition is untrusted: the files it ships come only from inside its own folder,
a definition stored in a database by someone else ships nothing without --trust-game, the
export names every file it ships as it is, and no text of it reaches a Lackey file with
markup or control characters in it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from lackey_plugin.errors import LackeyError
from lackey_plugin.export import PluginContent, write_plugin
from lackey_plugin.game import GameDefinition, GeneralFunction
from lackey_plugin.gamefile_init import init_game
from lackey_plugin.plugininfo import render_plugininfo
from lackey_plugin.release import render_chat
from zcards.cards.model import Card
from zcards.cli import cli
from zcards.errors import ZcardsError
from zcards.game.gamefile import load_game, parse_game
from zcards.ingest.importer import import_sources
from zcards.publish.plugin_export import export_plugin
from zcards.rules.page import card_images

DEFINITION = """[game]
name = "skirmish"
face = "none"
back = "{back}"

[[columns]]
name = "Name"
field = "name"

[[columns]]
name = "Set"
field = "set_name"

[[columns]]
name = "ImageFile"
field = "image_file"

[files]
root = "{root}"
other = {other}
"""
CARDS = "Name\tSet\tImageFile\nKnight\tCore\tknight\n"


def _game(*general: GeneralFunction) -> GameDefinition:
    return GameDefinition("skirmish", (), (), (), (), (), (), general)


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file of the user's that no definition may ship."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bash_history").write_text("rm -rf ~\n", encoding="utf-8")
    return home / ".bash_history"


def _game_folder(tmp_path: Path, *, back: str = "none", root: str = ".", other: str = "[]"):
    folder = tmp_path / "game"
    folder.mkdir(exist_ok=True)
    (folder / "cards.txt").write_text(CARDS, encoding="utf-8")
    definition = folder / "skirmish.toml"
    text = DEFINITION.format(back=back, root=root, other=other)
    definition.write_text(text, encoding="utf-8")
    return folder, definition


def _import(tmp_path: Path, definition: Path) -> Path:
    db = tmp_path / "cards.db"
    import_sources(db, [str(definition.parent / "cards.txt")], game=load_game(definition))
    return db


def test_a_definition_stored_elsewhere_ships_nothing_without_trust(
    tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, definition = _game_folder(tmp_path, root=str(secret.parent), other='[".bash_history"]')
    db = _import(tmp_path, definition)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-user"))  # their database

    with pytest.raises(ZcardsError, match="--trust-game") as refused:
        export_plugin(db, tmp_path / "out")
    assert "[files]" in refused.value.message and not (tmp_path / "out" / "skirmish").exists()
    trusted = export_plugin(db, tmp_path / "out", trust_game=True)
    assert (trusted.plugin_dir / ".bash_history").read_bytes() == secret.read_bytes()
    assert any(".bash_history" in m and "shipped as they are" in m for m in trusted.messages)


def test_the_importer_s_own_definition_ships_its_files(tmp_path: Path) -> None:
    folder, definition = _game_folder(tmp_path, other='["notes/*.txt"]')
    (folder / "notes").mkdir()
    (folder / "notes" / "rules.txt").write_text("Play nice.\n", encoding="utf-8")
    db = _import(tmp_path, definition)
    (tmp_path / "elsewhere").mkdir()
    report = export_plugin(db, tmp_path / "out")  # run from any folder: paths start at its own
    assert (report.plugin_dir / "notes" / "rules.txt").read_text() == "Play nice.\n"
    assert f"1 files shipped as they are, from {folder}: notes/rules.txt" in report.messages


@pytest.mark.parametrize(
    ("back", "other", "message"),
    [
        ("none", '["../home/.bash_history"]', "would leave"),
        ("none", '["link"]', "leads outside"),
        ("../home/.bash_history", "[]", "leads outside"),
    ],
)
def test_no_path_of_a_definition_leaves_its_folder(
    tmp_path: Path, secret: Path, back: str, other: str, message: str
) -> None:
    folder, definition = _game_folder(tmp_path, back=back, other=other)
    (folder / "link").symlink_to(secret)
    db = _import(tmp_path, definition)
    with pytest.raises(LackeyError, match=message):
        export_plugin(db, tmp_path / "out", game=load_game(definition), trust_game=True)
    assert not (tmp_path / "out" / "skirmish").exists()


def test_init_lists_no_link_leading_out_of_the_plugin(tmp_path: Path, secret: Path) -> None:
    plugin = tmp_path / "plugin"
    (plugin / "sets").mkdir(parents=True)
    (plugin / "plugininfo.txt").write_text("<plugin></plugin>\n", encoding="utf-8")
    (plugin / "sets" / "core.txt").write_text(CARDS, encoding="utf-8")
    (plugin / "rules.txt").write_text("Play nice.\n", encoding="utf-8")
    (plugin / "history.txt").symlink_to(secret)
    (plugin / "rules-link.txt").symlink_to(plugin / "rules.txt")
    files = init_game(str(plugin)).files
    assert files is not None and files.other == ("rules-link.txt", "rules.txt")


@pytest.mark.parametrize(
    "function",
    [
        GeneralFunction("Draw", "DRAWCARD</kind><kind>DELETEALL"),
        GeneralFunction("Move", "TRANSFERCARD", options=(("sourcegamezone", "Hand</x>"),)),
        GeneralFunction("Move", "TRANSFERCARD", options=(("a><b", "Hand"),)),
        GeneralFunction("Move", "TRANSFERCARD", options=(("sourcegamezone", "Hand\x00"),)),
    ],
)
def test_plugininfo_refuses_markup_from_a_game(function: GeneralFunction) -> None:
    with pytest.raises(LackeyError):
        render_plugininfo(_game(function))


def test_plugininfo_refuses_markup_in_the_version() -> None:
    with pytest.raises(LackeyError, match="pluginversion"):
        render_plugininfo(_game(), version="1</pluginversion><x>")


@pytest.mark.parametrize("line", ["gg\x00", "\x1b[31mgg", "g\tg"])
def test_chat_lines_hold_no_control_characters(line: str) -> None:
    with pytest.raises(LackeyError, match="control character"):
        render_chat([line])


def test_a_column_name_cannot_split_the_card_data_header() -> None:
    text = DEFINITION.format(back="none", root=".", other="[]")
    text += '\n[[columns]]\nname = "Str\\tength"\n'
    with pytest.raises(LackeyError, match="control character") as refused:
        parse_game(text, "skirmish.toml")
    assert refused.value.location is not None and refused.value.location.line == 23


def test_an_address_cannot_split_an_updatelist_line(tmp_path: Path) -> None:
    content = PluginContent(
        name="skirmish",
        game=_game(),
        release=date(2026, 5, 1),
        base_url="https://example.org/skirmish/",
        message="First",
        urls={"plugininfo.txt": "https://example.org/p.txt\nplugins/x\thttps://evil/x\t0"},
    )
    with pytest.raises(LackeyError, match="updatelist.txt cannot hold"):
        write_plugin(content, tmp_path / "skirmish")


def test_the_cli_says_what_to_do_with_a_foreign_definition(
    tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, definition = _game_folder(tmp_path, root=str(secret.parent), other='[".bash_history"]')
    db = _import(tmp_path, definition)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-user"))
    result = CliRunner().invoke(cli, ["plugin", "export", "--db", str(db), "--out", "out"])
    assert result.exit_code == 2 and "pass --trust-game" in result.stderr


def test_replay_images_come_only_from_inside_the_plugin(tmp_path: Path, secret: Path) -> None:
    faces = tmp_path / "plugin" / "sets" / "setimages" / "alpha"
    faces.mkdir(parents=True)
    (faces / "knight.png").write_bytes(b"\x89PNG knight")
    (faces / "thief.png").symlink_to(secret)
    (secret.parent / "sets" / "setimages" / "loot").mkdir(parents=True)
    (secret.parent / "sets" / "setimages" / "loot" / "rogue.png").write_bytes(b"\x89PNG stolen")
    cards = [
        Card("Knight", "alpha", "knight"),
        Card("Thief", "alpha", "thief"),
        Card("Rogue", "../../../home/sets/setimages/loot", "rogue"),
    ]
    images = card_images(tmp_path / "plugin", cards, {"Knight", "Thief", "Rogue"})
    assert list(images) == ["Knight"]


def test_without_a_signing_key_the_import_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocked))  # no key can be made under a file
    folder, definition = _game_folder(tmp_path, other='["cards.txt"]')
    report = import_sources(
        tmp_path / "cards.db", [str(folder / "cards.txt")], game=load_game(definition)
    )
    assert any("ship only with --trust-game" in str(w) for w in report.warnings)
    with pytest.raises(ZcardsError, match="--trust-game"):
        export_plugin(tmp_path / "cards.db", tmp_path / "out")
