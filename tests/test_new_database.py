"""A new database says so: the import that creates one says where it is and what it holds, and
the reading commands say, once, when the folder's database lacks cards of the bundled set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support.paths import ROOT

from zcards.cli import cli

EXAMPLE_CARDS = str(ROOT / "examples" / "cards.txt")  # Gross Ghoul changed, Grinning Ghoul new
OTHER_GAME = str(ROOT / "examples" / "other-game.txt")
LACKS = (
    "Note: cards.db lacks 99 of the bundled set's 100 cards; 'zcards import --bundled' adds them."
)
READING = [
    ["stats"],
    ["search", "t:zombie"],
    ["search", "k:fast", "--count"],
    ["search", "t:zombie", "--format", "json"],
    ["card", "Gross Ghoul"],
    ["deck", "check", str(ROOT / "examples" / "my-deck.txt")],
]


@pytest.fixture
def empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def zcards(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_the_first_import_says_where_the_database_is_and_what_it_holds(empty_folder: Path) -> None:
    done = zcards("import", EXAMPLE_CARDS)
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-3:] == [
        "New card database cards.db: 2 cards (alpha 2).",
        "Every command run in this folder reads it, not the bundled set.",
        "It lacks 99 of the bundled set's 100 cards: 'zcards import --bundled' adds them.",
    ]
    assert [p.name for p in empty_folder.iterdir()] == ["cards.db"]  # saying so leaves no WAL
    again = zcards("import", OTHER_GAME)
    assert again.exit_code == 0 and "New card database" not in again.stdout


def test_the_first_import_says_the_same_in_json(empty_folder: Path) -> None:
    done = zcards("import", EXAMPLE_CARDS, "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["database"] == {
        "path": "cards.db",
        "created": True,
        "cards": 2,
        "sets": {"alpha": 2},
        "bundled_missing": 99,
    }
    again = json.loads(zcards("import", OTHER_GAME, "--format", "json").stdout)
    assert again["database"] == {
        "path": "cards.db",
        "created": False,
        "cards": 6,
        "sets": {"alpha": 2, "coast": 4},
        "bundled_missing": 99,
    }


def test_a_dry_run_creates_nothing_and_says_nothing_of_it(empty_folder: Path) -> None:
    done = zcards("import", EXAMPLE_CARDS, "--dry-run", "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["database"]["created"] is False
    assert list(empty_folder.iterdir()) == []
    assert "New card database" not in zcards("import", EXAMPLE_CARDS, "--dry-run").stdout


@pytest.mark.parametrize("args", READING, ids=lambda args: " ".join(args[:2]))
def test_reading_commands_say_once_how_to_add_the_bundled_set(
    empty_folder: Path, args: list[str]
) -> None:
    assert zcards("import", EXAMPLE_CARDS).exit_code == 0
    done = zcards(*args)
    assert done.exit_code in (0, 1), done.output  # deck check: unknown cards (exit 1)
    assert done.stderr.splitlines().count(LACKS) == 1
    assert LACKS not in done.stdout


def test_import_bundled_adds_the_set_and_the_notes_stop(empty_folder: Path) -> None:
    assert zcards("import", EXAMPLE_CARDS).exit_code == 0
    done = zcards("import", "--bundled")
    assert done.exit_code == 0, done.output
    assert "changed: 99 added, 1 changed" in done.stdout  # Gross Ghoul as the set prints it
    for args in READING[:-1]:
        assert "bundled set" not in zcards(*args).stderr, args
    stats = json.loads(zcards("stats", "--format", "json").stdout)
    assert stats["total"] == 101


def test_a_new_folder_can_start_from_the_bundled_set(empty_folder: Path) -> None:
    done = zcards("import", "--bundled")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-2:] == [
        "New card database cards.db: 100 cards (alpha 100).",
        "Every command run in this folder reads it, not the bundled set.",
    ]


def test_the_bundled_set_and_the_built_database_get_no_note(empty_folder: Path) -> None:
    for build in (False, True):
        if build:
            assert zcards("build", "--step", "database").exit_code == 0
        for args in READING[:-1]:
            done = zcards(*args)
            assert done.exit_code == 0 and done.stderr == "", (build, args, done.stderr)


def test_a_database_named_with_db_is_left_to_its_owner(empty_folder: Path) -> None:
    """``--db other.db`` may hold another game: where it is, but no advice about the set."""
    done = zcards("import", OTHER_GAME, "--db", "other.db")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-2:] == [
        "New card database other.db: 4 cards (coast 4).",
        "The other commands read it with --db other.db.",
    ]
    searched = zcards("search", "type:Ally", "--db", "other.db")
    assert searched.exit_code == 0 and searched.stderr == ""


def test_another_games_database_gets_no_advice_about_the_set(empty_folder: Path) -> None:
    """Imported with its own game definition into this folder's ./cards.db: no word of the
    bundled set, which has no place there."""
    game = empty_folder / "coast.toml"
    fields = {"Name": "name", "Set": "set_name", "ImageFile": "image_file"}
    game.write_text(
        '[game]\nname = "coast"\n'
        + "".join(f'[[columns]]\nname = "{n}"\nfield = "{f}"\n' for n, f in fields.items()),
        encoding="utf-8",
    )
    done = zcards("import", OTHER_GAME, "--game", str(game))
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-2:] == [
        "New card database cards.db: 4 cards (coast 4).",
        "Every command run in this folder reads it, not the bundled set.",
    ]
    for args in (["stats"], ["search", "harbour"]):
        searched = zcards(*args)
        assert searched.exit_code == 0 and searched.stderr == "", (args, searched.stderr)


def test_import_needs_a_source_or_the_bundled_set(empty_folder: Path) -> None:
    done = zcards("import")
    assert done.exit_code == 2 and "give a SOURCE to import, or --bundled" in done.output
    assert list(empty_folder.iterdir()) == []
