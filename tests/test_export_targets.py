"""Where an export writes: deck files that would collide, a plugin folder reached through a
symbolic link. Real exports of the five-card database."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.plugin_exports import MINI_DECK, export_mini, hidden_files

from zcards.cli import cli


@pytest.mark.parametrize("second", ["mini-starter.txt", "MINI-Starter.txt", "same file"])
def test_two_decks_of_one_name_are_an_error(
    second: str, mini_db_copy: Path, tmp_path: Path
) -> None:
    """Both would be ``decks/mini-starter.dek`` (one file on Windows and macOS, also when
    the names differ in case); before, the second silently replaced the first."""
    other = MINI_DECK
    if second != "same file":
        other = tmp_path / "elsewhere" / second
        other.parent.mkdir()
        other.write_text(MINI_DECK.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["plugin", "export", "--db", str(mini_db_copy), "--out", str(out),
         "--deck", str(MINI_DECK), "--deck", str(other)],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "would both be decks/" in result.output and str(other) in result.output
    assert not (out / "zombieccg").exists()


def test_a_plugin_folder_that_is_a_link_is_updated_through_it(
    mini_db_copy: Path, tmp_path: Path
) -> None:
    """``out/zombieccg`` links to the folder a web server publishes: the export replaces
    that folder's content and the link stays (before: the link was replaced by a real folder
    and left behind as ``.zombieccg.build-*``)."""
    out, releases = tmp_path / "out", tmp_path / "www"
    out.mkdir()
    (releases / "current").mkdir(parents=True)
    (out / "zombieccg").symlink_to(releases / "current")
    export_mini(mini_db_copy, out, release=date(2026, 1, 31))
    export_mini(mini_db_copy, out, release=date(2026, 2, 1))
    assert (out / "zombieccg").is_symlink()
    version = (releases / "current" / "version.txt").read_text(encoding="utf-8")
    assert "<lastupdateYYMMDD>260201</lastupdateYYMMDD>" in version
    assert hidden_files(out) == [] and hidden_files(releases) == []


def test_a_link_to_nothing_is_refused(mini_db_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "zombieccg").symlink_to(tmp_path / "gone")
    with pytest.raises(Exception, match="is a symbolic link to .*gone, which is not a folder"):
        export_mini(mini_db_copy, out)
    assert (out / "zombieccg").is_symlink()
