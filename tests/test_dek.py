"""Lackey .dek files: written exactly as Lackey writes them, read from real plugins."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from lackey_plugin.dek import DeckEntry, parse_dek, read_dek, write_dek
from lackey_plugin.errors import LackeyError
from lackey_plugin.game import DeckZone
from zcards.game.definition import ZOMBIE_GAME

GHOUL = DeckEntry(1, "Gross Ghoul", set_name="alpha", image_file="grossghoul")
ZOE = DeckEntry(1, "Zoë Park", set_name="alpha", image_file="zoepark")
BAT = DeckEntry(1, "Beater's Bat & <Ball>", set_name="alpha", image_file='bat"1')


def copies(count: int, entry: DeckEntry, section: str = "Deck") -> DeckEntry:
    return dataclasses.replace(entry, count=count, section=section)


def test_write_dek_is_exactly_the_reference_layout() -> None:
    text = write_dek([copies(2, GHOUL), ZOE], ZOMBIE_GAME)
    assert text == (
        '<deck version="0.8">\n'
        "\t<meta>\n"
        "\t\t<game>zombieccg</game>\n"
        "\t</meta>\n"
        '\t<superzone name="Deck">\n'
        '\t\t<card><name id="grossghoul">Gross Ghoul</name><set>alpha</set></card>\n'
        '\t\t<card><name id="grossghoul">Gross Ghoul</name><set>alpha</set></card>\n'
        '\t\t<card><name id="zoepark">Zoë Park</name><set>alpha</set></card>\n'
        "\t</superzone>\n"
        "</deck>\n"
    )


def test_untrusted_text_is_escaped_and_reads_back() -> None:
    text = write_dek([BAT, ZOE], ZOMBIE_GAME)
    assert "&amp; &lt;Ball&gt;" in text and 'id="bat&quot;1"' in text
    deck = parse_dek(text.encode("utf-8"))
    assert [(e.name, e.image_file, e.set_name) for e in deck.entries] == [
        ("Beater's Bat & <Ball>", 'bat"1', "alpha"),
        ("Zoë Park", "zoepark", "alpha"),
    ]


def test_control_characters_in_card_data_are_a_clear_error() -> None:
    with pytest.raises(LackeyError, match="cannot be written"):
        write_dek([DeckEntry(1, "Bad\x01Name", set_name="alpha", image_file="bad")], ZOMBIE_GAME)


def test_sections_that_are_not_deck_zones_load_into_the_first_zone() -> None:
    two_zones = dataclasses.replace(
        ZOMBIE_GAME, deck_zones=(DeckZone("Deck", "Deck"), DeckZone("Side", "Side"))
    )
    entries = [copies(1, ZOE, "side"), copies(1, GHOUL, "Zombies")]
    deck = parse_dek(write_dek(entries, two_zones).encode())
    assert [(e.section, e.name) for e in deck.entries] == [
        ("Deck", "Gross Ghoul"),
        ("Side", "Zoë Park"),
    ]


REFERENCE_DEKS = [
    "lackey-example/decks/sample.dek",
    "lorcana/decks/Amber_&_Amethyst_UR.dek",
    "fow/decks/SDL1.dek",
    "dbztcg/decks/Evolution_Black_Starter.dek",
]


@pytest.mark.parametrize("relative", REFERENCE_DEKS)
def test_real_decks_are_rewritten_byte_for_byte(reference_dir: Path, relative: str) -> None:
    """Read a real Lackey deck and write it again: the same text (line endings aside)."""
    path = reference_dir / relative
    deck = read_dek(path)
    game = dataclasses.replace(
        ZOMBIE_GAME,
        name=deck.game,
        deck_zones=tuple(DeckZone(section, section) for section in deck.sections),
    )
    original = path.read_bytes().decode("utf-8").replace("\r\n", "\n")
    assert write_dek(deck.entries, game) == original


def test_reading_counts_copies_and_keeps_superzones(reference_dir: Path) -> None:
    deck = read_dek(reference_dir / "fow/decks/SDL1.dek")
    assert deck.game == "ForceOfWill-brewhouse"
    assert deck.sections == ("Ruler", "Deck", "Stone deck")
    ruler = [e for e in deck.entries if e.section == "Ruler"]
    assert [(e.count, e.image_file) for e in ruler] == [(1, "SDL1-009-r,SDL1-009-j")]
    assert deck.entries[1].count == 4 and deck.entries[1].name == "Fairy Tale Kingdom, Light Palace"
    assert deck.total == 51


def test_old_dek_with_declaration_and_doctype_is_read_offline() -> None:
    data = (
        b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
        b'<!DOCTYPE deck SYSTEM "http://www.lackeyccg.com/deck.dtd">\n'
        b'<deck version="0.8"><meta><game>zombieccg</game><title></title><author></author>'
        b'</meta><superzone name="Deck">'
        b'<card><name id="zoepark">Zo\xeb Park</name><set>alpha</set></card>'
        b"</superzone></deck>"
    )
    deck = parse_dek(data)
    assert [(e.count, e.name) for e in deck.entries] == [(1, "Zoë Park")]


def test_external_entities_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    data = (
        f'<!DOCTYPE deck [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<deck version="0.8"><superzone name="Deck">'
        '<card><name id="a">A&x;</name><set>s</set></card></superzone></deck>'
    ).encode()
    deck = parse_dek(data)
    assert "SECRET" not in deck.entries[0].name


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b'<deck version="0.8">\n<superzone name="Deck">\n<card>', 3, "not a valid .dek"),
        (b"<decks/>", 1, "not <deck>"),
        (b'<deck>\n<superzone name="Deck">\n<card><set>x</set></card></superzone></deck>', 3,
         "without a <name>"),
    ],
)  # fmt: skip
def test_broken_dek_errors_name_file_and_line(
    tmp_path: Path, data: bytes, line: int, message: str
) -> None:
    path = tmp_path / "broken.dek"
    path.write_bytes(data)
    with pytest.raises(LackeyError, match=message) as caught:
        read_dek(path)
    assert caught.value.location.file == str(path)
    assert caught.value.location.line == line
