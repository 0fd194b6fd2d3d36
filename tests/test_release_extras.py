"""Release extras of an export: defaultchat.txt (Zombie: bids the audit reads), phase images,
uninstall.txt from the previous release's updatelist (a local file or a URL), and their lint."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from support.plugin_exports import export_mini, lint_ignoring_placeholders

from lackey_plugin.lint import ERROR, lint_plugin
from lackey_plugin.updatelist import read_updatelist
from zcards.cli import cli
from zcards.game.definition import PHASES, STARTING_FOOD
from zcards.rules.bids import read_bid


def test_the_zombie_plugin_ships_bid_lines_and_phase_images(mini_plugin: Path) -> None:
    plugin = mini_plugin
    chat = (plugin / "defaultchat.txt").read_text(encoding="utf-8").splitlines()
    assert [read_bid(line, bare=False) for line in chat] == list(range(STARTING_FOOD + 1))
    phase_images = sorted(p.name for p in (plugin / "images").glob("Phase*.jpg"))
    assert phase_images == [f"Phase{n}.jpg" for n in range(1, len(PHASES) + 1)]
    listed = {entry.local_path for entry in read_updatelist(plugin / "updatelist.txt").entries}
    assert {"plugins/zombieccg/defaultchat.txt", "plugins/zombieccg/images/Phase1.jpg"} <= listed
    assert not (plugin / "uninstall.txt").exists()  # a first release removes nothing
    assert lint_ignoring_placeholders(plugin) == []


def test_uninstall_lists_what_the_previous_release_had(
    mini_db_copy: Path, mini_release: Path
) -> None:
    out = mini_release
    db = sqlite_utils.Database(mini_db_copy)
    sets = [row[0] for row in db.execute("select distinct set_name from cards order by 1")]
    db.execute("delete from cards where set_name = ?", [sets[-1]])
    db.conn.commit()

    export_mini(mini_db_copy, out, release=date(2026, 2, 1))

    plugin = out / "zombieccg"
    uninstall = (plugin / "uninstall.txt").read_text(encoding="utf-8")
    assert "<dateYYMMDD>260201</dateYYMMDD>" in uninstall
    assert f"<removepath>sets/{sets[-1]}.txt</removepath>" in uninstall
    assert f"<removepath>sets/setimages/{sets[-1]}/" in uninstall
    assert not (plugin / "sets" / f"{sets[-1]}.txt").exists()
    listed = {entry.local_path for entry in read_updatelist(plugin / "updatelist.txt").entries}
    assert "plugins/zombieccg/uninstall.txt" in listed
    assert lint_ignoring_placeholders(plugin) == []


@pytest.mark.slow
def test_the_previous_release_can_come_from_a_url(
    mini_db_copy: Path, tmp_path: Path, httpserver: HTTPServer
) -> None:
    previous = (
        "zombieccg\t01-30-26\n"
        "plugins/zombieccg/sets/Retired.txt\thttps://example.org/zombieccg/sets/Retired.txt\t5\n"
        "plugins/zombieccg/plugininfo.txt\thttps://example.org/zombieccg/plugininfo.txt\t7\n"
    )
    httpserver.expect_request("/old/updatelist.txt").respond_with_data(previous)
    result = CliRunner().invoke(
        cli,
        [
            "plugin", "export", "--db", str(mini_db_copy), "--out", str(tmp_path),
            "--date", "2026-01-31", "--dpi", "30",
            "--previous", httpserver.url_for("/old/updatelist.txt"),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    uninstall = (tmp_path / "zombieccg" / "uninstall.txt").read_text(encoding="utf-8")
    assert "<removepath>sets/Retired.txt</removepath>" in uninstall
    assert "plugininfo.txt" not in uninstall


def test_lint_refuses_an_uninstall_that_removes_a_shipped_file(tmp_path: Path) -> None:
    plugin = tmp_path / "game"
    (plugin / "sets").mkdir(parents=True)
    (plugin / "plugininfo.txt").write_text(
        "<plugin>\n<phase><label>Main</label></phase>\n</plugin>\n"
    )
    (plugin / "sets" / "cards.txt").write_text("Name\tSet\tImageFile\nA\tS\ta\n")
    (plugin / "images").mkdir()
    (plugin / "images" / "Phase2.jpg").write_bytes(b"\xff\xd8\xff\xd9")
    (plugin / "uninstall.txt").write_text(
        "<uninstall>\n<dateYYMMDD>261301</dateYYMMDD>\n<removepath>sets/cards.txt</removepath>\n"
        "<removepath>../outside.txt</removepath>\n</uninstall>\n"
    )
    found = {(f.code, f.severity, f.line) for f in lint_plugin(plugin)}
    assert ("uninstall-date", ERROR, 0) in found
    assert ("uninstall-shipped", ERROR, 3) in found
    assert ("unsafe-path", ERROR, 4) in found
    assert ("phase-image-extra", "warning", 0) in found
