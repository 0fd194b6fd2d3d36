"""Byte-exact golden export of a five-card fixture database, and run-to-run determinism.

Regenerate the golden files after an intended change with ``ZCARDS_REGOLD=1 pytest`` and
review the diff. Images are compared run against run (their bytes depend on the installed
renderer); every text file, the updatelist included, is compared with the golden copy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from support.plugin_exports import GOLDEN, export_mini, lint_ignoring_placeholders, tree

EXPECTED = GOLDEN / "expected"
TEXT = (".txt", ".xml", ".dek")
_JPG_CHECKSUM = re.compile(r"^(.*\.jpg\t[^\t]*\t)-?\d+$", re.M)


def _normalised(name: str, data: bytes) -> bytes:
    """The updatelist with image checksums masked (compared separately, run against run)."""
    if name != "updatelist.txt":
        return data
    return _JPG_CHECKSUM.sub(r"\1<jpg>", data.decode("utf-8")).encode("utf-8")


@pytest.fixture(scope="module")
def two_exports(tmp_path_factory, mini_db_path: Path, mini_plugin: Path) -> tuple[Path, Path]:
    """The session's export of the five cards and a second, separate run of the same export."""
    second = tmp_path_factory.mktemp("golden-b")
    export_mini(mini_db_path, second)
    return mini_plugin, second / "zombieccg"


def test_export_matches_the_golden_text_files(two_exports) -> None:
    plugin = two_exports[0]
    actual = {
        name: _normalised(name, data) for name, data in tree(plugin).items() if name.endswith(TEXT)
    }
    if os.environ.get("ZCARDS_REGOLD"):
        for name, data in actual.items():
            (EXPECTED / name).parent.mkdir(parents=True, exist_ok=True)
            (EXPECTED / name).write_bytes(data)
    assert actual == tree(EXPECTED)
    assert set(actual) == {
        "plugininfo.txt",
        "ListOfCardDataFiles.txt",
        "formats.txt",
        "sets/alpha.txt",
        "sets/beta.txt",
        "packs/packdefinitions1.xml",
        "decks/mini-starter.dek",
        "defaultchat.txt",
        "version.txt",
        "updatelist.txt",
    }
    assert lint_ignoring_placeholders(plugin) == []


def test_the_same_database_gives_the_same_bytes(two_exports) -> None:
    first, second = (tree(plugin) for plugin in two_exports)
    assert sorted(first) == sorted(second)
    assert len([name for name in first if name.endswith(".jpg")]) == 9 + 6  # 6 phase images
    for name in first:
        assert first[name] == second[name], name


def test_markup_and_accents_are_escaped_where_xml_and_kept_in_card_data(two_exports) -> None:
    plugin = two_exports[0]
    beta = (plugin / "sets/beta.txt").read_text(encoding="utf-8")
    assert "Zoë Park\tbeta\tzoepark" in beta and "<Brave> & quick." in beta
    deck = (plugin / "decks/mini-starter.dek").read_text(encoding="utf-8")
    assert '<name id="zoepark">Zoë Park</name><set>beta</set>' in deck
    packs = (plugin / "packs/packdefinitions1.xml").read_text(encoding="utf-8")
    assert "<packtitle>Mini Starter</packtitle>" in packs and "<data>Zoë Park</data>" in packs
