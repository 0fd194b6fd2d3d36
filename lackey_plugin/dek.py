"""Lackey ``.dek`` deck files (reference §8), written and read with lxml.

Written exactly as current Lackey does: ``<deck version="0.8">`` without an XML declaration,
tab indentation, one ``<card>`` per physical copy, ``<name id="ImageFile">Name</name>``,
``<set>``, and one ``<superzone>`` per deck zone of the game definition.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lxml import etree

from lackey_plugin.game import ZOMBIE_GAME, GameDefinition
from zcards.decks import Deck, DeckEntry, ResolvedDeck, ResolvedEntry
from zcards.errors import Location, ZcardsError
from zcards.model import Card

DEK_VERSION = "0.8"


def _zone_for(section: str, game: GameDefinition) -> str:
    """The deck zone a section loads into: a zone of that name, else the game's first zone."""
    for zone in game.deck_zones:
        if zone.label.casefold() == section.casefold():
            return zone.label
    return game.deck_zones[0].label


def write_dek(
    deck: ResolvedDeck | Iterable[ResolvedEntry] | Iterable[tuple[int, Card]],
    game: GameDefinition = ZOMBIE_GAME,
) -> str:
    """The ``.dek`` text for a resolved deck, its entries, or ``(count, card)`` pairs.

    Sections that are not deck zones of ``game`` (``Survivors``, ``Zombies``…) load into the
    game's first deck zone, since Lackey only knows its deck zones.
    """
    entries = deck.require_ok().entries if isinstance(deck, ResolvedDeck) else deck
    zones: dict[str, list[Card]] = {zone.label: [] for zone in game.deck_zones}
    for entry in entries:
        if isinstance(entry, ResolvedEntry):
            zones[_zone_for(entry.section, game)].extend([entry.card] * entry.count)
        else:
            count, card = entry
            zones[game.deck_zones[0].label].extend([card] * count)

    root = etree.Element("deck", version=DEK_VERSION)
    root.text = "\n\t"
    meta = etree.SubElement(root, "meta")
    meta.text, meta.tail = "\n\t\t", "\n\t"
    name = etree.SubElement(meta, "game")
    name.text, name.tail = game.name, "\n\t"
    last: etree._Element = meta
    try:
        for label, cards in zones.items():
            if cards:
                last = _superzone(root, label, cards)
    except ValueError as error:  # lxml refuses control characters in untrusted card data
        raise ZcardsError(f"a card cannot be written to a .dek: {error}") from error
    last.tail = "\n"
    return etree.tostring(root, encoding="unicode") + "\n"


def _superzone(root: etree._Element, label: str, cards: list[Card]) -> etree._Element:
    zone = etree.SubElement(root, "superzone", name=label)
    zone.text, zone.tail = "\n\t\t", "\n\t"
    for card in cards:
        element = etree.SubElement(zone, "card")
        element.tail = "\n\t\t"
        name = etree.SubElement(element, "name", id=card.image_file)
        name.text = card.name
        etree.SubElement(element, "set").text = card.set_name
    element.tail = "\n\t"
    return zone


def parse_dek(data: bytes, source: Path | None = None) -> Deck:
    """Parse ``.dek`` bytes (current or old form with declaration and DOCTYPE) into a Deck.

    Consecutive and repeated copies of a card in one superzone are counted, first position kept.
    """
    where = str(source) if source else None
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line, column = error.position
        raise ZcardsError(
            f"not a valid .dek file: {error.msg}", Location(where, line, column)
        ) from error
    if root.tag != "deck":
        raise ZcardsError(
            f"root element is <{root.tag}>, not <deck>", Location(where, root.sourceline)
        )
    counts: dict[tuple[str, str, str, str], list[int]] = {}
    for zone in root.iter("superzone"):
        section = zone.get("name") or ""
        for card in zone.iter("card"):
            name = card.find("name")
            if name is None or not (name.text or "").strip():
                raise ZcardsError("<card> without a <name>", Location(where, card.sourceline))
            key = (section, name.text.strip(), card.findtext("set", "").strip(), name.get("id", ""))
            counts.setdefault(key, [0, card.sourceline])[0] += 1
    entries = tuple(
        DeckEntry(count, name, section, set_name, image_file, line)
        for (section, name, set_name, image_file), (count, line) in counts.items()
    )
    return Deck(entries, source, root.findtext("meta/game", "").strip())


def read_dek(path: str | Path) -> Deck:
    path = Path(path)
    return parse_dek(path.read_bytes(), path)
