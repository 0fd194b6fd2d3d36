"""Lackey decks: ``.dek`` files and plain-text deck lists, read and written
(docs/lackey-formats.md §8).

A ``.dek`` is written exactly as current Lackey does: ``<deck version="0.8">`` without an XML
declaration, tab indentation, one ``<card>`` per physical copy,
``<name id="ImageFile">Name</name>``, ``<set>``, and one ``<superzone>`` per deck zone of the
game definition. A text deck is what
people type or paste (``3 Gross Ghoul``, ``3<TAB>Gross Ghoul``, ``3x Gross Ghoul``;
``# Survivors`` or ``Survivors:`` starts a section; ``//`` lines are comments); it names cards
only. Both are decoded by the one policy of :mod:`lackey_plugin.text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.game import GameDefinition
from lackey_plugin.inputs import MiB, read_regular
from lackey_plugin.text import TextNote, decode_text, split_lines

DEK_VERSION = "0.8"
# Far more than any deck holds: a count past them is a typo (10^20 copies fit in no memory).
MAX_COPIES = 1_000
MAX_CARDS = 100_000
MAX_DECK_BYTES = 4 * MiB
DEFAULT_SECTION = "Deck"

_COUNT_LINE = re.compile(r"(?P<count>\d+)(?:[xX]|[ \t]+x)?[ \t]+(?P<name>\S.*?)\s*$")
_HASH_HEADER = re.compile(r"#+\s*(?P<section>.*?)\s*$")
_COLON_HEADER = re.compile(r"(?P<section>[^\d\s].*?)\s*:\s*$")


@dataclass(frozen=True)
class DeckEntry:
    """``count`` copies of one card; a ``.dek`` also pins the set and ImageFile."""

    count: int
    name: str
    section: str = DEFAULT_SECTION
    set_name: str = ""
    image_file: str = ""
    line: int | None = None


@dataclass(frozen=True)
class Deck:
    entries: tuple[DeckEntry, ...]
    source: Path | None = None
    game: str = ""
    notes: tuple[TextNote, ...] = ()
    """What decoding the file had to guess (Windows-1252 lines)."""

    @property
    def title(self) -> str:
        return self.source.stem if self.source else "deck"

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(entry.section for entry in self.entries))

    @property
    def pinned(self) -> bool:
        """True when every entry already names its set and ImageFile (a ``.dek``)."""
        return all(entry.set_name and entry.image_file for entry in self.entries)


def parse_text_deck(
    text: str, source: Path | None = None, notes: tuple[TextNote, ...] = ()
) -> Deck:
    """Parse a text deck list; a line that is neither a card nor a header is an error."""
    entries: list[DeckEntry] = []
    section = DEFAULT_SECTION
    total = 0
    for number, raw in enumerate(split_lines(text.removeprefix("\ufeff")), start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if header := _HASH_HEADER.fullmatch(line) or _COLON_HEADER.fullmatch(line):
            section = header["section"] or section
            continue
        match = _COUNT_LINE.fullmatch(line)
        if not match:
            raise LackeyError(
                "expected '<count> <card name>' or a section header",
                Location(str(source) if source else None, number, indent + 1),
            )
        digits = match["count"].lstrip("0")
        count = int(digits or "0") if len(digits) <= len(str(MAX_COPIES)) else MAX_COPIES + 1
        if not 1 <= count <= MAX_COPIES:
            raise LackeyError(
                f"a card count must be at least 1 and at most {MAX_COPIES:,}, "
                f"not {match['count'][:20]}",
                Location(str(source) if source else None, number, indent + 1),
            )
        total += count
        if total > MAX_CARDS:
            raise LackeyError(
                f"the deck holds more than {MAX_CARDS:,} cards by this line",
                Location(str(source) if source else None, number, indent + 1),
            )
        entries.append(DeckEntry(count, match["name"], section, line=number))
    return Deck(tuple(entries), source, notes=notes)


def _entries(deck: Deck | Iterable[DeckEntry]) -> Iterable[DeckEntry]:
    return deck.entries if isinstance(deck, Deck) else deck


def format_text_deck(deck: Deck | Iterable[DeckEntry]) -> str:
    """``count<TAB>name`` lines (what Lackey's text decks use); ``Section:`` headers if needed.

    Takes the :class:`Deck` that :func:`parse_text_deck` returns, or its entries."""
    rows = [(e.section, e.count, e.name) for e in _entries(deck)]
    lines: list[str] = []
    show_headers = {section for section, _, _ in rows} != {DEFAULT_SECTION}
    current = None
    for section, count, name in rows:
        if show_headers and section != current:
            if lines:
                lines.append("")
            lines.append(f"{section}:")
            current = section
        lines.append(f"{count}\t{name}")
    return "\n".join(lines) + "\n" if lines else ""


def _zone_for(section: str, game: GameDefinition) -> str:
    """The deck zone a section loads into: a zone of that name, else the game's first zone."""
    for zone in game.deck_zones:
        if zone.label.casefold() == section.casefold():
            return zone.label
    return game.deck_zones[0].label


def write_dek(deck: Deck | Iterable[DeckEntry], game: GameDefinition) -> str:
    """The ``.dek`` text for a :class:`Deck` (or its entries) whose entries name their set and
    ImageFile (:func:`parse_dek` gives such a deck; a text deck's entries need them added).

    Sections that are not deck zones of ``game`` (``Survivors``, ``Zombies``…) load into the
    game's first deck zone, since Lackey only knows its deck zones.
    """
    zones: dict[str, list[DeckEntry]] = {zone.label: [] for zone in game.deck_zones}
    for entry in _entries(deck):
        zones[_zone_for(entry.section, game)].extend([entry] * entry.count)

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
        raise LackeyError(f"a card cannot be written to a .dek: {error}") from error
    last.tail = "\n"
    return etree.tostring(root, encoding="unicode") + "\n"


def _superzone(root: etree._Element, label: str, cards: list[DeckEntry]) -> etree._Element:
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

    The bytes are decoded by the one policy (a declared encoding is not trusted: old decks
    declare one and hold another); consecutive and repeated copies of a card in one superzone
    are counted, first position kept.
    """
    where = str(source) if source else None
    decoded = decode_text(data)
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, encoding="utf-8"
    )
    try:
        root = etree.fromstring(decoded.text.encode("utf-8"), parser)
    except etree.XMLSyntaxError as error:
        line, column = error.position
        raise LackeyError(
            f"not a valid .dek file: {error.msg}", Location(where, line, column)
        ) from error
    if root.tag != "deck":
        raise LackeyError(
            f"root element is <{root.tag}>, not <deck>", Location(where, root.sourceline)
        )
    counts: dict[tuple[str, str, str, str], list[int]] = {}
    for zone in root.iter("superzone"):
        section = zone.get("name") or ""
        for card in zone.iter("card"):
            name = card.find("name")
            if name is None or not (name.text or "").strip():
                raise LackeyError("<card> without a <name>", Location(where, card.sourceline))
            key = (section, name.text.strip(), card.findtext("set", "").strip(), name.get("id", ""))
            counts.setdefault(key, [0, card.sourceline])[0] += 1
    entries = tuple(
        DeckEntry(count, name, section, set_name, image_file, line)
        for (section, name, set_name, image_file), (count, line) in counts.items()
    )
    return Deck(entries, source, root.findtext("meta/game", "").strip(), tuple(decoded.notes))


def read_dek(path: str | Path) -> Deck:
    path = Path(path)
    return parse_dek(_read(path), path)


def read_deck(path: str | Path) -> Deck:
    """Read a deck file: a Lackey ``.dek`` (XML) or a plain-text list."""
    path = Path(path)
    data = _read(path)
    if path.suffix.lower() == ".dek" or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return parse_dek(data, path)
    decoded = decode_text(data)
    return parse_text_deck(decoded.text, path, tuple(decoded.notes))


def _read(path: Path) -> bytes:
    return read_regular(path, "deck", MAX_DECK_BYTES)
