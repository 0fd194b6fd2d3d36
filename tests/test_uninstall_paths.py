"""``uninstall.txt`` never names the plugin folder, a path out of it or the player's own
folders, however the previous release's updatelist spells it; the lint reads it as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest

from lackey_plugin.lint import lint_plugin
from lackey_plugin.uninstall import render_uninstall
from lackey_plugin.updatelist import parse_updatelist

HOSTILE = [
    "./",
    "",
    ".",
    "sets/..",
    "saved/game1.txt",
    "decks/",
    "DECKS",
    "sets/&#46;&#46;/&#46;&#46;/x",
    "<![CDATA[../]]>x",
    "a<!-- -->/../../b",
    "sets\\..\\..\\x",
    "sets/\x1b]0;x",
]
KEPT = {
    "sets/./old.txt": "sets/old.txt",
    "sets//older.txt": "sets/older.txt",
    "decks/a.dek": "decks/a.dek",
}


def test_uninstall_names_only_files_strictly_inside_the_plugin() -> None:
    lines = ["zombieccg\t01-30-26"]
    for index, path in enumerate([*HOSTILE, *KEPT]):
        lines.append(f"plugins/zombieccg/{path}\thttps://example.org/{index}\t5")
    previous = parse_updatelist("\n".join(lines).encode("utf-8"), "previous/updatelist.txt")
    text = render_uninstall(previous, [], date(2026, 2, 1))
    removed = [element.text for element in ET.fromstring(text).iter("removepath")]
    assert sorted(removed) == sorted(KEPT.values())
    assert "<!" not in text and "&" not in text


@pytest.mark.parametrize(
    "removed",
    ["./", "", "&#46;&#46;/", "<![CDATA[../]]>", "sets<!-- -->/../../x", "saved/", "decks/",
     "saved/game1.txt", "../outside.txt", "sets/%s" % ("a" * 3) + "/../../.."],
)  # fmt: skip
def test_the_lint_reads_the_paths_an_xml_reader_reads(tmp_path: Path, removed: str) -> None:
    plugin = tmp_path / "game"
    (plugin / "sets").mkdir(parents=True)
    (plugin / "plugininfo.txt").write_text("<plugin>\n</plugin>\n", encoding="utf-8")
    (plugin / "uninstall.txt").write_text(
        "<uninstall>\n<dateYYMMDD>260201</dateYYMMDD>\n"
        "<removepath>sets/setimages/old/</removepath>\n"
        f"<removepath>{removed}</removepath>\n</uninstall>\n",
        encoding="utf-8",
    )
    found = [(f.code, f.line) for f in lint_plugin(plugin) if f.file == "uninstall.txt"]
    assert found == [("unsafe-path", 4)]


def test_the_lint_refuses_entity_declarations(tmp_path: Path) -> None:
    plugin = tmp_path / "game"
    plugin.mkdir()
    (plugin / "uninstall.txt").write_text(
        '<!DOCTYPE u [<!ENTITY up "../">]>\n<uninstall>\n<dateYYMMDD>260201</dateYYMMDD>\n'
        "<removepath>&up;</removepath>\n</uninstall>\n",
        encoding="utf-8",
    )
    found = [f.code for f in lint_plugin(plugin) if f.file == "uninstall.txt"]
    assert found == ["uninstall-xml"]
