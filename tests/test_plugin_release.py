"""Release rules of the export: version must increase, swaps are atomic, and untrusted
Set/ImageFile values never leave the plugin folder (the naming rule itself:
test_plugin_safe_names.py)."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
import sqlite_utils
from click.testing import CliRunner
from support.plugin_exports import (
    MINI_DECK,
    export_mini,
    hidden_files,
    lint_ignoring_placeholders,
    tree,
)

from lackey_plugin.errors import LackeyError
from zcards.cli import cli
from zcards.publish import plugin_export as export_module


def test_version_must_increase_unless_nothing_changed(
    mini_db_copy: Path, mini_release: Path
) -> None:
    out = mini_release
    before = tree(out / "zombieccg")

    again = export_mini(mini_db_copy, out)
    assert again.unchanged and tree(out / "zombieccg") == before

    with pytest.raises(LackeyError, match="newer than 260130"):
        export_mini(mini_db_copy, out, release=date(2026, 1, 30))

    sqlite_utils.Database(mini_db_copy).execute(
        "update cards set text = 'Changed.' where name = 'Gross Ghoul'"
    ).connection.commit()
    with pytest.raises(LackeyError, match="already holds version 260131"):
        export_mini(mini_db_copy, out)
    assert tree(out / "zombieccg") == before and hidden_files(out) == []

    newer = export_mini(mini_db_copy, out, release=date(2026, 2, 1))
    assert not newer.unchanged and newer.version == "260201"
    after = tree(out / "zombieccg")
    assert b"Changed." in after["sets/alpha.txt"]
    assert b"<lastupdateYYMMDD>260201</lastupdateYYMMDD>" in after["version.txt"]
    assert after["updatelist.txt"].startswith(b"zombieccg\t02-01-26\n")


def test_a_failed_export_leaves_the_previous_plugin_intact(
    mini_db_copy: Path, mini_release: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = mini_release
    before = tree(out / "zombieccg")

    def broken_pack_image(path: Path, title: str) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half a jpeg")
        raise OSError("disk full")

    monkeypatch.setattr(export_module, "render_pack_image", broken_pack_image)
    with pytest.raises(OSError, match="disk full"):
        export_mini(mini_db_copy, out, release=date(2026, 3, 1))
    assert tree(out / "zombieccg") == before
    assert hidden_files(out) == []


def test_untrusted_set_and_image_names_stay_inside(mini_db_copy: Path, tmp_path: Path) -> None:
    db = sqlite_utils.Database(mini_db_copy)
    db.execute("update cards set image_file = '../../evil' where name = 'Gross Ghoul'")
    db.execute("update cards set image_file = 'a/b' where name = 'Kyle Bjorn'")
    db.execute(
        "update cards set set_name = 'C:\\x', image_file = 'C:\\x' where name = 'Patient Zero'"
    )
    db.conn.commit()
    out = tmp_path / "deep" / "out"
    report = export_mini(mini_db_copy, out, decks=[])
    everything = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")}
    assert not [p for p in everything if "evil" in p and not p.startswith("deep/out/zombieccg/")]
    images = tree(out / "zombieccg/sets/setimages")
    assert "alpha/_._evil.jpg" in images and "alpha/a_b.jpg" in images
    assert "C_x/C_x.jpg" in images
    assert any("'../../evil' renamed to '_._evil'" in m for m in report.messages)
    assert any("set 'C:\\\\x' renamed to 'C_x'" in m for m in report.messages)
    card_data = (out / "zombieccg/sets/alpha.txt").read_text(encoding="utf-8")
    assert "\t_._evil\t" in card_data and "../" not in card_data
    assert lint_ignoring_placeholders(out / "zombieccg") == []


def test_an_image_file_with_an_extension_is_not_doubled(mini_db_copy: Path, tmp_path: Path) -> None:
    """ImageFile 'grossghoul.jpg' used to give grossghoul.jpg.jpg, and the export failed its own
    lint; now card data and image agree on the stem, as Lackey appends .jpg itself."""
    db = sqlite_utils.Database(mini_db_copy)
    db.execute("update cards set image_file = 'grossghoul.jpg' where name = 'Gross Ghoul'")
    db.execute("update cards set image_file = 'kyle.PNG' where name = 'Kyle Bjorn'")
    db.conn.commit()
    out = tmp_path / "out"
    report = export_mini(mini_db_copy, out, decks=[])
    images = tree(out / "zombieccg/sets/setimages/alpha")
    assert "grossghoul.jpg" in images and "kyle.jpg" in images
    assert not [name for name in images if name.count(".") > 1]
    card_data = (out / "zombieccg/sets/alpha.txt").read_text(encoding="utf-8")
    assert "\tgrossghoul\t" in card_data and "\tkyle\t" in card_data
    assert any("'grossghoul.jpg' renamed to 'grossghoul'" in m for m in report.messages)
    assert lint_ignoring_placeholders(out / "zombieccg") == []


def test_cli_export_json_and_bad_name(mini_db_copy: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    args = [
        "plugin",
        "export",
        "--db",
        str(mini_db_copy),
        "--out",
        str(tmp_path / "out"),
        "--date",
        "2026-01-31",
        "--dpi",
        "30",
        "--deck",
        str(MINI_DECK),
        "--format",
        "json",
    ]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["version"] == "260131" and report["cards"] == 5
    assert report["sets"] == ["alpha", "beta"]
    assert any("placeholder" in message for message in report["messages"])
    bad = runner.invoke(
        cli,
        ["plugin", "export", "--db", str(mini_db_copy), "--out", str(tmp_path), "--name", "../up"],
    )
    assert bad.exit_code == 2 and "plain folder name" in bad.output
    assert not (tmp_path.parent / "up").exists()


def test_build_step_writes_build_plugin(mini_db_path: Path, tmp_path: Path) -> None:
    from zcards.publish.build import BuildContext, plugin_step

    context = BuildContext(tmp_path / "build")
    context.out_dir.mkdir()
    shutil.copy(mini_db_path, context.db_path)
    result = plugin_step(context)
    assert result.name == "plugin"
    assert result.outputs == (tmp_path / "build/plugin/zombieccg",)
    assert lint_ignoring_placeholders(tmp_path / "build/plugin/zombieccg") == []
    (note,) = result.notes  # built without --base-url
    assert "for local testing only" in note
    again = plugin_step(context)
    assert "unchanged" in again.summary


def test_images_summing_to_placeholder_checksums_are_nudged(tmp_path: Path) -> None:
    from PIL import Image

    from lackey_plugin.checksum import checksum_file
    from lackey_plugin.export import unambiguous_checksum

    zero, minus_one = tmp_path / "zero.jpg", tmp_path / "minus.jpg"
    zero.write_bytes(b"\x01")
    minus_one.write_bytes(b"\x00")
    assert (checksum_file(zero), checksum_file(minus_one)) == (0, -1)
    assert unambiguous_checksum(zero) == unambiguous_checksum(minus_one) == 1
    picture = tmp_path / "real.jpg"
    Image.new("RGB", (8, 8), "red").save(picture)
    before = checksum_file(picture)
    assert unambiguous_checksum(picture) == before  # ordinary files are untouched
    with picture.open("ab") as handle:
        handle.write(b"\x01")
    with Image.open(picture) as reopened:
        assert reopened.size == (8, 8)


def test_the_plugin_folder_is_readable_by_others(mini_db_path: Path, tmp_path: Path) -> None:
    """A plugin is served by a web server and installed by other users: not a private folder."""
    import os

    umask = os.umask(0o022)
    try:
        report = export_mini(mini_db_path, tmp_path)
    finally:
        os.umask(umask)
    assert report.plugin_dir.stat().st_mode & 0o777 == 0o755


def test_progress_counts_every_card_once(mini_db_copy: Path, tmp_path: Path) -> None:
    # Two beta cards share one ImageFile, so one face: progress still ends at the card count.
    db = sqlite_utils.Database(mini_db_copy)
    db.execute("update cards set image_file = 'zoepark' where name = 'Patient Zero'")
    db.conn.commit()
    calls: list[tuple[int, int]] = []

    def record(stage: str, done: int, total: int) -> None:
        if stage == "card images":
            calls.append((done, total))

    export_mini(mini_db_copy, tmp_path, progress=record)
    assert calls == [(0, 5), (3, 5), (4, 5), (5, 5)]
