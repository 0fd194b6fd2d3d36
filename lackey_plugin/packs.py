"""Pack definitions (``packs/packdefinitions1.xml``), built and read with lxml
(docs/lackey-formats.md §5).

A :class:`Pack` is data: a booster draws cards by criteria (``<field> IS <data>``) in chance
blocks, a starter lists exactly its cards; which packs a game offers is the application's
choice. ``formats.txt`` and ``ListOfCardDataFiles.txt`` are the same kind of small XML file, so
they are built here too. Everything is serialised without an XML declaration, tab-indented,
with LF line ends, as Lackey's own files are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

_FILE_TO_INCLUDE = re.compile(r"<filetoinclude>\s*(.*?)\s*</filetoinclude>", re.I | re.S)

Match = tuple[str, str]
"""A criterion ``(field, data)``: cards whose ``field`` IS ``data``."""


@dataclass(frozen=True)
class PackKind:
    """``qty`` cards matching every criterion."""

    qty: int
    criteria: tuple[Match, ...]


@dataclass(frozen=True)
class PackChance:
    """One way the pack may be made up; ``probability`` (per cent) None when it is the only one."""

    probability: int | None
    kinds: tuple[PackKind, ...]


@dataclass(frozen=True)
class Pack:
    """One ``<pack>``: ``kind`` is Lackey's pack kind (``Booster``, ``Starter``); ``common``
    criteria apply to every card of the pack."""

    title: str
    image: str
    kind: str
    chances: tuple[PackChance, ...]
    common: tuple[Match, ...] = ()


@dataclass(frozen=True)
class Format:
    """A deck-editor format: its label and the sets it allows."""

    label: str
    sets: tuple[str, ...]


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


def render_packdefinitions(packs: Sequence[Pack]) -> str:
    root = etree.Element("packdefinitions", version="1.0")
    for pack in packs:
        element = _sub(root, "pack")
        _sub(element, "packtitle", pack.title)
        _sub(element, "packimage", pack.image)
        _sub(element, "packformat", "normal")
        _sub(element, "packkind", pack.kind)
        _sub(element, "packdoubles", "yes")
        for field, data in pack.common:
            _crit(element, "packcommoncrit", field, data)
        for chance in pack.chances:
            block = _sub(element, "chance")
            if chance.probability is not None:
                _sub(block, "prob", str(chance.probability))
            for kind in chance.kinds:
                kind_element = _sub(block, "kind")
                _sub(kind_element, "qty", str(kind.qty))
                for field, data in kind.criteria:
                    _crit(kind_element, "crit", field, data)
    return _serialise(root)


def render_formats(formats: Sequence[Format]) -> str:
    root = etree.Element("formatdefinitions")
    for deck_format in formats:
        element = _sub(root, "format")
        _sub(element, "label", deck_format.label)
        for member in deck_format.sets:
            _sub(element, "set", member)
    return _serialise(root)


def render_card_file_list(file_names: Sequence[str]) -> str:
    root = etree.Element("listofcarddatafiles")
    for name in file_names:
        _sub(root, "filetoinclude", name)
    return _serialise(root)


def parse_xml(data: bytes, encoding: str | None = None) -> tuple[etree._Element | None, list[str]]:
    """Parse leniently (real pack files are not always well-formed); return the tree and the
    parser's complaints, which the linter reports as warnings. ``encoding`` overrides what
    the file declares (for bytes already decoded by the one policy and encoded again)."""
    parser = etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True, encoding=encoding
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        return None, [str(error)]
    problems = [f"line {entry.line}: {entry.message}" for entry in parser.error_log]
    return root, problems


def read_card_file_list(text: str) -> list[tuple[str, int]]:
    """The card data files a ``ListOfCardDataFiles.txt`` includes, as ``(name, line)`` in file
    order. Read as Lackey reads its tag files: every ``<filetoinclude>``, in any case, also in
    a file that is not well-formed XML (several roots; :func:`parse_xml` says what is wrong)."""
    return [
        (match.group(1), text.count("\n", 0, match.start()) + 1)
        for match in _FILE_TO_INCLUDE.finditer(text)
    ]


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
