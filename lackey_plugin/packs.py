"""Pack definitions (``packs/packdefinitions1.xml``, reference §5), built and read with lxml.

Each set gets a booster drawn by rarity; each starter deck becomes a fixed pack of exactly its
cards. ``formats.txt`` and ``ListOfCardDataFiles.txt`` are the same kind of small XML file, so
they are built here too. Everything is serialised without an XML declaration, tab-indented,
with LF line ends, as Lackey's own files are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lxml import etree

from zcards.model import RARITIES, Card

# Booster contents: (probability %, {rarity: quantity}); a Special replaces the Rare in 1 of 10.
BOOSTER = ((90, {"R": 1, "U": 3, "C": 10}), (10, {"S": 1, "U": 3, "C": 10}))
ALL_SETS_FORMAT = "All Sets"


@dataclass(frozen=True)
class FixedPack:
    """A starter deck as a pack: each card with its number of copies."""

    title: str
    image: str
    cards: Sequence[tuple[Card, int]]


def _sub(parent: etree._Element, tag: str, text: str | None = None) -> etree._Element:
    element = etree.SubElement(parent, tag)
    if text is not None:
        element.text = text
    return element


def _crit(parent: etree._Element, tag: str, field: str, data: str) -> None:
    crit = _sub(parent, tag)
    _sub(crit, "field", field)
    _sub(crit, "eval", "IS")
    _sub(crit, "data", data)


def _serialise(root: etree._Element) -> str:
    etree.indent(root, space="\t")
    return etree.tostring(root, encoding="unicode") + "\n"


def booster_chances(rarities: Iterable[str]) -> list[tuple[int | None, dict[str, int]]]:
    """The booster's chance blocks, keeping only rarities the set has (probability None: one)."""
    present = set(rarities)
    chances = []
    for probability, kinds in BOOSTER:
        kept = {rarity: qty for rarity, qty in kinds.items() if rarity in present}
        if kept and kept not in [existing for _, existing in chances]:
            chances.append((probability, kept))
    if len(chances) == 1:
        return [(None, chances[0][1])]
    return chances


def render_packdefinitions(
    sets: Mapping[str, Sequence[Card]], fixed: Sequence[FixedPack], booster_image: str
) -> str:
    root = etree.Element("packdefinitions", version="1.0")
    for set_name, cards in sets.items():
        pack = _pack_header(root, f"{set_name} Booster", booster_image, "Booster")
        _crit(pack, "packcommoncrit", "Set", set_name)
        for probability, kinds in booster_chances(card.rarity for card in cards):
            chance = _sub(pack, "chance")
            if probability is not None:
                _sub(chance, "prob", str(probability))
            for rarity in sorted(kinds, key=_rarity_order):
                kind = _sub(chance, "kind")
                _sub(kind, "qty", str(kinds[rarity]))
                _crit(kind, "crit", "Rarity", rarity)
    for starter in fixed:
        pack = _pack_header(root, starter.title, starter.image, "Starter")
        chance = _sub(pack, "chance")
        for card, count in starter.cards:
            kind = _sub(chance, "kind")
            _sub(kind, "qty", str(count))
            _crit(kind, "crit", "Name", card.name)
            _crit(kind, "crit", "Set", card.set_name)
    return _serialise(root)


def _rarity_order(rarity: str) -> int:
    return RARITIES.index(rarity) if rarity in RARITIES else len(RARITIES)


def _pack_header(root: etree._Element, title: str, image: str, kind: str) -> etree._Element:
    pack = _sub(root, "pack")
    _sub(pack, "packtitle", title)
    _sub(pack, "packimage", image)
    _sub(pack, "packformat", "normal")
    _sub(pack, "packkind", kind)
    _sub(pack, "packdoubles", "yes")
    return pack


def render_formats(set_names: Sequence[str]) -> str:
    """One deck-editor format per set, then one with every set."""
    root = etree.Element("formatdefinitions")
    for label, members in [*((name, [name]) for name in set_names), (ALL_SETS_FORMAT, set_names)]:
        element = _sub(root, "format")
        _sub(element, "label", label)
        for member in members:
            _sub(element, "set", member)
    return _serialise(root)


def render_card_file_list(file_names: Sequence[str]) -> str:
    root = etree.Element("listofcarddatafiles")
    for name in file_names:
        _sub(root, "filetoinclude", name)
    return _serialise(root)


def parse_xml(data: bytes) -> tuple[etree._Element | None, list[str]]:
    """Parse leniently (real pack files are not always well-formed); return the tree and the
    parser's complaints, which the linter reports as warnings."""
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        return None, [str(error)]
    problems = [f"line {entry.line}: {entry.message}" for entry in parser.error_log]
    return root, problems


@dataclass(frozen=True)
class Criterion:
    pack: str
    field: str
    eval: str
    data: str
    line: int


def pack_criteria(root: etree._Element) -> list[Criterion]:
    """Every ``crit``/``packcommoncrit`` of every pack, for the linter's column/value checks."""
    criteria = []
    for pack in root.iter("pack"):
        title = (pack.findtext("packtitle") or "").strip()
        for crit in pack.iter("crit", "packcommoncrit"):
            criteria.append(
                Criterion(
                    title,
                    (crit.findtext("field") or "").strip(),
                    (crit.findtext("eval") or "").strip(),
                    (crit.findtext("data") or "").strip(),
                    crit.sourceline or 0,
                )
            )
    return criteria
