"""Bad input that used to end in a traceback or a misleading message: each is exit 2 with a
message that says what is wrong and what to do, naming the file or the output."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.support.paths import ROOT
from tests.support.processes import run, zcards_argv

ZOMBIE_TOML = ROOT / "zcards" / "game" / "zombie.toml"
BUNDLED = ROOT / "zcards" / "data" / "alpha.txt"


def _fails(result, *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert all(word in result.stderr for word in words), result.stderr


def test_a_change_to_a_number_of_5000_digits(sample_db_path: Path, tmp_path: Path) -> None:
    change = "Gross Ghoul.power=" + "9" * 5000
    result = run(
        zcards_argv("balance", "--games", "1", "--change", change, "--db", sample_db_path), tmp_path
    )
    _fails(result, "at most 1,000,000,000", "5,000 digits")
    assert len(result.stderr) < 500


def test_a_game_definition_nested_100000_deep(sample_db_path: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run(
        zcards_argv("import", BUNDLED, "--game", deep, "--db", tmp_path / "c.db"), tmp_path
    )
    _fails(result, str(deep), "nested too deeply")


def test_a_column_without_its_field_says_so(tmp_path: Path) -> None:
    text = ZOMBIE_TOML.read_text(encoding="utf-8")
    game = tmp_path / "game.toml"
    game.write_text(
        text.replace(
            'name = "Name"\ntype = "text"\nfield = "name"\n', 'name = "Name"\ntype = "text"\n', 1
        ),
        encoding="utf-8",
    )
    result = run(
        zcards_argv("import", BUNDLED, "--game", game, "--db", tmp_path / "c.db"), tmp_path
    )
    _fails(result, 'no field = "name"')
    assert "expected 'Name'" not in result.stderr


def test_a_redirect_to_a_local_file_says_what_happened(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    httpserver.expect_request("/cards.txt").respond_with_data(
        "", 302, {"Location": "file:///etc/passwd"}
    )
    result = run(
        zcards_argv("import", httpserver.url_for("/cards.txt"), "--db", tmp_path / "c.db"), tmp_path
    )
    _fails(result, "file:///etc/passwd", "not http(s)")
    assert "connection adapters" not in result.stderr


def test_a_folder_as_the_previous_updatelist_says_it_is_a_folder(
    sample_db_path: Path, tmp_path: Path
) -> None:
    argv = zcards_argv(
        "plugin", "export", "--previous", tmp_path, "--db", sample_db_path, "--out", tmp_path / "x"
    )
    _fails(run(argv, tmp_path), str(tmp_path), "folder")


def test_a_full_disk_names_the_output_not_its_temporary_file(
    sample_db_path: Path, tmp_path: Path
) -> None:
    # A file-size limit (a full disk in miniature) past the database's 32 KiB -shm file and
    # short of the balance page (about 35 KB).
    page = tmp_path / "balance.html"
    argv = zcards_argv("balance", "--games", "1", "--db", sample_db_path, "--html", page)
    result = run(argv, tmp_path, limit_file_size=33_000)
    _fails(result, str(page), "limit")
    assert ".tmp" not in result.stderr and not page.exists()
    assert [path.name for path in tmp_path.iterdir()] == []


@pytest.mark.slow
def test_a_second_build_of_the_day_with_other_art_says_what_to_run(tmp_path: Path) -> None:
    from PIL import Image

    from zcards.errors import ZcardsError
    from zcards.publish.build import build

    build(tmp_path / "out", steps=["database", "plugin"])
    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (700, 420), (200, 30, 30)).save(art / "grossghoul.png")
    with pytest.raises(ZcardsError) as caught:
        build(tmp_path / "out", steps=["database", "plugin"], art_dir=art)
    message = caught.value.message
    assert "zcards plugin export" in message and "--date" in message and "tomorrow" in message
