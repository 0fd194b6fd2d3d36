"""The plugin linter: no errors on real working plugins (warnings pinned), and each defect it
exists for is caught on a damaged copy of our own export."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.plugin_exports import lint_ignoring_placeholders

from lackey_plugin.lint import ERROR, lint_plugin
from zcards.cli import cli

# Exactly the warnings each real plugin gets: the known quirks of reference/README.md.
REFERENCE_WARNINGS = {
    "dbztcg": {
        "asset-missing": 2,
        "cardurlfile-missing": 2,
        "duplicate-card": 4,
        "format-unknown-set": 13,
        "images-missing": 7,
        "line-endings": 7,
        "pack-unknown-value": 48,
        "placeholder-checksum": 6,
        "updatelist-file-absent": 1,
        "updatelist-self": 1,
    },
    "fow": {
        "asset-missing": 7,
        "bom": 2,
        "deck-unknown-card": 2,
        "duplicate-card": 1,
        "format-unknown-set": 3,
        "images-missing": 1,
        "line-endings": 6,
        "tag-typo": 1,
        "updatelist-name": 1,
    },
    "lackey-example": {
        "asset-missing": 3,
        "format-unknown-set": 5,
        "images-missing": 1,
        "line-endings": 1,
        "pack-unknown-value": 7,
        "runtime-file": 2,
        "sound-missing": 1,
        "updatelist-file-absent": 1,
        "updatelist-runtime-file": 1,
        "updatelist-unlisted": 1,
        "xml-malformed": 3,
    },
    "lorcana": {
        "asset-missing": 2,
        "deck-unknown-card": 1,
        "duplicate-card": 1,
        "images-missing": 1,
        "legacy-zonetoloadto": 1,
        "line-endings": 1,
        "pack-unknown-column": 2,
        "updatelist-file-absent": 1,
        "updatelist-runtime-file": 1,
        "xml-malformed": 2,
    },
    "potter": {
        "asset-missing": 6,
        "images-missing": 1,
        "legacy-setlist": 1,
        "line-endings": 1,
        "not-utf8": 1,
        "text-deck": 2,
        "unknown-kind": 1,
        "updatelist-file-absent": 1,
        "updatelist-name": 1,
        "updatelist-unlisted": 1,
    },
    "tribbles": {
        "asset-missing": 2,
        "format-unknown-set": 5,
        "images-missing": 1,
        "legacy-setlist": 1,
        "updatelist-file-absent": 1,
    },
    "vtes": {
        "asset-missing": 24,
        "carddata-size": 1,
        "deck-unknown-card": 7,
        "extra-fields": 2,
        "format-unknown-set": 1,
        "images-missing": 1,
        "pack-unknown-value": 9,
        "sound-missing": 1,
        "text-deck": 44,
        "updatelist-file-absent": 1,
        "updatelist-runtime-file": 1,
    },
}


@pytest.mark.parametrize("folder", sorted(REFERENCE_WARNINGS))
def test_real_plugins_have_no_errors_and_exactly_the_known_warnings(
    reference_dir: Path, folder: str
) -> None:
    findings = lint_plugin(reference_dir / folder)
    assert [f for f in findings if f.severity == ERROR] == []
    assert dict(Counter(f.code for f in findings)) == REFERENCE_WARNINGS[folder]


def test_specific_reference_quirks_are_named(reference_dir: Path) -> None:
    fow = lint_plugin(reference_dir / "fow")
    assert any(f.code == "tag-typo" and "</lab>" in f.message for f in fow)
    assert {f.file for f in fow if f.code == "bom"} == {"sets/Lapis.txt", "sets/Stones.txt"}
    lorcana = lint_plugin(reference_dir / "lorcana")
    assert any("DraftQualities" in f.message for f in lorcana)
    assert any("'Type'" in f.message and "'type'" in f.message for f in lorcana)
    assert any("Ludwig von Drake" in f.message and "case" in f.message for f in lorcana)
    potter = lint_plugin(reference_dir / "potter")
    assert any("PEREVIOUSTURN" in f.message for f in potter)
    dbz = lint_plugin(reference_dir / "dbztcg")
    assert any(f.code == "duplicate-card" and "Goku -- Dashing" in f.message for f in dbz)


@pytest.fixture
def damaged(mini_plugin: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "zombieccg"
    shutil.copytree(mini_plugin, copy)
    return copy


def _codes(folder: Path) -> set[tuple[str, str]]:
    return {(f.severity, f.code) for f in lint_plugin(folder)}


def test_errors_for_what_breaks_loading(damaged: Path) -> None:
    assert lint_ignoring_placeholders(damaged) == []
    (damaged / "sets/beta.txt").write_bytes(b"Title\tSet\tImageFile\nX\tbeta\tx\n")
    (damaged / "version.txt").write_text(
        "<version><lastupdateYYMMDD>26-1-1</lastupdateYYMMDD></version>\n"
    )
    codes = _codes(damaged)
    assert ("error", "carddata-header") in codes
    assert ("error", "version-date") in codes
    assert ("error", "checksum-mismatch") in codes  # both edited files are listed
    (damaged / "plugininfo.txt").unlink()
    assert ("error", "plugininfo-missing") in _codes(damaged)


def test_a_card_file_list_is_read_as_lackey_reads_it_even_without_a_root(damaged: Path) -> None:
    """Every <filetoinclude> counts (the importer reads the list with the same reader); the
    missing root is an XML warning."""
    (damaged / "ListOfCardDataFiles.txt").write_text(
        "<filetoinclude>alpha.txt</filetoinclude>\n<FileToInclude>gone.txt</FileToInclude>\n",
        encoding="utf-8",
    )
    findings = lint_plugin(damaged)
    missing = [f for f in findings if f.code == "carddata-list-missing"]
    assert [(f.message, f.line) for f in missing] == [
        ("listed card file sets/gone.txt is missing", 2)
    ]
    assert any(f.code == "xml-malformed" for f in findings)


def test_unsafe_image_paths_are_errors(damaged: Path) -> None:
    card_file = damaged / "sets/alpha.txt"
    card_file.write_text(
        card_file.read_text(encoding="utf-8").replace("\tgrossghoul\t", "\t../../evil\t"),
        encoding="utf-8",
    )
    findings = lint_plugin(damaged)
    assert any(f.code == "unsafe-path" and f.severity == ERROR and f.line == 2 for f in findings)


def test_image_and_reference_warnings(damaged: Path) -> None:
    images = damaged / "sets/setimages/alpha"
    (images / "kylebjorn.jpg").rename(images / "KyleBjorn.jpg")
    (images / "meatstalker.jpg").unlink()
    (images / "stray.jpg").write_bytes(b"\xff\xd8\xff")
    deck = damaged / "decks/mini-starter.dek"
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("Meat Stalker", "Meat Stalkr"), encoding="utf-8"
    )
    packs = damaged / "packs/packdefinitions1.xml"
    packs.write_text(
        packs.read_text(encoding="utf-8").replace(
            "<field>Rarity</field>", "<field>Rarety</field>", 1
        ),
        encoding="utf-8",
    )
    codes = {code for severity, code in _codes(damaged) if severity == "warning"}
    assert {
        "image-case",
        "images-missing",
        "images-orphaned",
        "deck-unknown-card",
        "pack-unknown-column",
    } <= codes


def test_updatelist_problems(damaged: Path) -> None:
    updatelist = damaged / "updatelist.txt"
    lines = updatelist.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].rsplit("\t", 1)[0] + "\tnot-a-number"
    lines.insert(2, "plugins/zombieccg/../../x.txt\thttp://h/x\t5")
    updatelist.write_text("\n".join(lines) + "\n", encoding="utf-8")
    codes = _codes(damaged)
    assert ("error", "updatelist-line") in codes and ("error", "unsafe-path") in codes
    assert ("warning", "updatelist-unlisted") in codes  # the line made invalid lists no file


def test_updatelist_entries_must_stay_in_the_plugin_and_on_http(damaged: Path) -> None:
    """An entry installing into another plugin, or a file:// (or ftp:) URL, is an error."""
    updatelist = damaged / "updatelist.txt"
    lines = updatelist.read_text(encoding="utf-8").splitlines()
    lines[1:1] = [
        "plugins/otherplugin/plugininfo.txt\thttps://h/p.txt\t5",
        "plugins/ZombieCCG/cardback.jpg\tfile:///etc/passwd\t5",
        "images/backgrounds/t.jpg\tftp://h/t.jpg\t5",
    ]
    assert "CardGeneralURLs:" in lines[-3:]
    lines.append("file:///home/me/images/")
    updatelist.write_text("\n".join(lines) + "\n", encoding="utf-8")
    findings = [f for f in lint_plugin(damaged) if f.severity == ERROR]
    assert {(f.code, f.line) for f in findings} == {
        ("updatelist-other-plugin", 2),
        ("updatelist-url", 3),
        ("updatelist-url", 4),
        ("updatelist-url", 0),
    }
    (other,) = [f for f in findings if f.code == "updatelist-other-plugin"]
    assert "'otherplugin'" in other.message


def test_cli_json_and_exit_codes(reference_dir: Path, damaged: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["plugin", "lint", "--format", "json", str(reference_dir / "tribbles")])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert {item["severity"] for item in data} == {"warning"} and len(data) == 10
    strict = runner.invoke(cli, ["plugin", "lint", "--strict", str(reference_dir / "tribbles")])
    assert strict.exit_code == 1
    (damaged / "plugininfo.txt").unlink()
    broken = runner.invoke(cli, ["plugin", "lint", str(damaged)])
    assert broken.exit_code == 1
    assert "plugininfo.txt is missing" in broken.output
