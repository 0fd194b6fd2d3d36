"""The exported plugin: layout, formats, checksums, decks and packs, from the real sample db."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from lxml import etree
from PIL import Image
from support.plugin_exports import SAMPLE_URL, lint_ignoring_placeholders

from lackey_plugin.carddata import read_card_data
from lackey_plugin.checksum import checksum_file
from lackey_plugin.dek import read_deck
from lackey_plugin.game import GameDefinition
from lackey_plugin.plugininfo import parse_plugininfo, render_plugininfo
from lackey_plugin.updatelist import read_updatelist
from zcards.game.definition import ZOMBIE_GAME
from zcards.query.decks import resolve_deck
from zcards.resources import starter_decks
from zcards.store.db import open_db


def test_layout_and_own_lint_is_clean(sample_plugin: Path) -> None:
    files = {
        p.relative_to(sample_plugin).as_posix() for p in sample_plugin.rglob("*") if p.is_file()
    }
    not_images = {f for f in files if not f.startswith("sets/setimages/")}
    decks = {f"decks/{p.stem}.dek" for p in starter_decks()}
    assert len(decks) == 3
    assert not_images == {
        "plugininfo.txt",
        "ListOfCardDataFiles.txt",
        "formats.txt",
        "sets/alpha.txt",
        "packs/packdefinitions1.xml",
        "packs/zombiebooster.jpg",
        "cardback.jpg",
        "spawned.jpg",
        "images/backgrounds/zombieccg-table.jpg",
        "defaultchat.txt",
        *(f"images/Phase{n}.jpg" for n in range(1, 7)),
        "version.txt",
        "updatelist.txt",
        *decks,
    }
    assert lint_ignoring_placeholders(sample_plugin) == []  # served from localhost
    assert not any(p.name.startswith(".") for p in sample_plugin.parent.iterdir())


def test_text_files_are_utf8_lf_without_bom(sample_plugin: Path) -> None:
    texts = [p for p in sample_plugin.rglob("*") if p.suffix in (".txt", ".xml", ".dek")]
    assert len(texts) >= 9
    for path in texts:
        data = path.read_bytes()
        assert b"\r" not in data and not data.startswith(b"\xef\xbb\xbf"), path
        data.decode("utf-8")
        assert data.endswith(b"\n"), path
    card_file = (sample_plugin / "sets/alpha.txt").read_bytes()
    assert card_file.startswith(b"Name\tSet\tImageFile\t")
    assert len(card_file) < 1_000_000


def test_plugininfo_comes_from_the_game_definition(sample_plugin: Path) -> None:
    text = (sample_plugin / "plugininfo.txt").read_text(encoding="utf-8")
    assert text == render_plugininfo(ZOMBIE_GAME, "2026.11.29")
    info = parse_plugininfo(text)
    assert info.labels("phase") == ["Ready", "Draw", "Build", "Attack", "Recoup", "End"]
    assert info.labels("gamezone") == ["Hand", "Deck", "Discard", "Removed"]
    assert info.labels("cardfunction") == [
        "Spend",
        "Ready",
        "Wound",
        "Heal",
        "Infect",
        "Cure",
        "To Combat",
        "Leave Combat",
        "Flip",
        "Take Control",
        "Note",
    ]
    assert info.labels("generalfunction") == [
        "Draw",
        "Ready All",
        "Next Phase",
        "Next Turn",
        "Roll d6",
        "Flip Coin",
    ]
    (food,) = info.of("playerstat")
    assert (food.get("label"), food.get("initialvalue")) == ("Food", "10")
    (deck,) = info.of("deckzone")
    assert (deck.get("gamezonetoloadto"), deck.get("shuffle")) == ("Deck", "yes")
    hand = info.of("gamezone")[0]
    assert (hand.get("visibletoowner"), hand.get("visibletoothers")) == ("yes", "no")
    (definition,) = info.of("definition")
    assert (definition.get("kind"), definition.get("value")) == ("ISYOURFACEDOWNVISIBLE", "yes")
    wound = info.of("cardfunction")[2]
    assert (wound.get("kind"), wound.get("color")) == ("ADDCOUNTER", "red")
    combat = info.of("cardfunction")[6]
    assert (combat.get("kind"), combat.get("color")) == ("ADDCOUNTER", "orange")


def test_every_card_row_matches_the_database_and_has_a_jpeg(sample_plugin, sample_cards) -> None:
    card_file = read_card_data((sample_plugin / "sets/alpha.txt").read_bytes())
    assert [row.fields["Name"] for row in card_file.rows] == [c.name for c in sample_cards]
    assert card_file.header[:13] == [
        "Name",
        "Set",
        "ImageFile",
        "Type",
        "Faction",
        "Cost",
        "Power",
        "Health",
        "Keywords",
        "Requirements",
        "Symbols",
        "Rarity",
        "Text",
    ]
    for row, card in zip(card_file.rows, sample_cards, strict=True):
        assert row.fields["Text"] == card.text
        image = sample_plugin / "sets/setimages/alpha" / f"{row.fields['ImageFile']}.jpg"
        with Image.open(image) as picture:
            assert picture.format == "JPEG"
    for name in ("cardback.jpg", "spawned.jpg", "images/backgrounds/zombieccg-table.jpg"):
        with Image.open(sample_plugin / name) as picture:
            assert picture.format == "JPEG"


def test_updatelist_lists_every_file_with_its_checksum(sample_plugin: Path) -> None:
    updatelist = read_updatelist(sample_plugin / "updatelist.txt")
    assert (updatelist.name, updatelist.date) == ("zombieccg", "11-29-26")
    shipped = sorted(
        p.relative_to(sample_plugin).as_posix()
        for p in sample_plugin.rglob("*")
        if p.is_file() and p.name != "updatelist.txt"
    )
    listed = []
    for entry in updatelist.entries:
        relative = updatelist.plugin_path(entry) or entry.local_path
        listed.append(relative)
        assert entry.url == SAMPLE_URL + relative
        assert entry.checksum == checksum_file(sample_plugin / relative)
    assert sorted(listed) == shipped
    background = [e for e in updatelist.entries if updatelist.plugin_path(e) is None]
    assert [e.local_path for e in background] == ["images/backgrounds/zombieccg-table.jpg"]
    assert updatelist.card_general_urls == [SAMPLE_URL + "sets/setimages/alpha/"]
    version = (sample_plugin / "version.txt").read_text(encoding="utf-8")
    assert "<lastupdateYYMMDD>261129</lastupdateYYMMDD>" in version
    assert f"<updateurl>{SAMPLE_URL}updatelist.txt</updateurl>" in version


def test_decks_and_fixed_packs_match_the_starter_lists(sample_plugin, sample_db_path) -> None:
    db = open_db(sample_db_path)
    packs = etree.parse(str(sample_plugin / "packs/packdefinitions1.xml")).getroot()
    titles = [pack.findtext("packtitle") for pack in packs.iter("pack")]
    assert titles[0] == "alpha Booster"
    for source in starter_decks():
        expected = resolve_deck(read_deck(source), db).require_ok()
        written = resolve_deck(read_deck(sample_plugin / "decks" / f"{source.stem}.dek"), db)
        assert written.require_ok().total == expected.total == 40
        title = source.stem.replace("-", " ").title()
        (pack,) = [p for p in packs.iter("pack") if p.findtext("packtitle") == title]
        assert sum(int(q.text) for q in pack.iter("qty")) == 40
    booster = packs.find("pack")
    chances = booster.findall("chance")
    assert [c.findtext("prob") for c in chances] == ["90", "10"]
    assert [(k.findtext("qty"), k.findtext("crit/data")) for k in chances[1].iter("kind")] == [
        ("10", "C"),
        ("3", "U"),
        ("1", "S"),
    ]


def test_formats_and_card_file_list(sample_plugin: Path) -> None:
    formats = etree.parse(str(sample_plugin / "formats.txt")).getroot()
    assert [(f.findtext("label"), [s.text for s in f.iter("set")]) for f in formats] == [
        ("alpha", ["alpha"]),
        ("All Sets", ["alpha"]),
    ]
    listing = etree.parse(str(sample_plugin / "ListOfCardDataFiles.txt")).getroot()
    assert [e.text for e in listing] == ["alpha.txt"]


def test_plugininfo_reads_back_as_the_game_definition_it_was_rendered_from() -> None:
    """The typed model round-trips: what plugininfo.txt cannot hold (meanings, descriptions)
    aside, parsing the rendered file gives the definition back."""

    def without_descriptions(game: GameDefinition) -> GameDefinition:
        functions = [replace(f, meaning=None, description="") for f in game.card_functions]
        general = [replace(f, meaning=None, description="") for f in game.general_functions]
        return replace(
            game,
            player_stats=tuple(replace(stat, meaning="") for stat in game.player_stats),
            counters=tuple(replace(counter, meaning="") for counter in game.counters),
            card_functions=tuple(functions),
            general_functions=tuple(general),
        )

    text = render_plugininfo(ZOMBIE_GAME, "2026.1.31")
    assert parse_plugininfo(text).game() == without_descriptions(ZOMBIE_GAME)
