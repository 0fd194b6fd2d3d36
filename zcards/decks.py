"""Deck lists: read plain-text lists and Lackey ``.dek`` files, resolve names against the db.

A text deck is what people type or paste (``3 Gross Ghoul``, ``3<TAB>Gross Ghoul``,
``3x Gross Ghoul``; ``# Survivors`` or ``Survivors:`` starts a section; ``//`` lines are
comments). It names cards only; :func:`resolve_deck` finds the real cards, so a typo is
reported with suggestions instead of silently dropping a card.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import sqlite_utils

from zcards.errors import Location, ZcardsError
from zcards.files import atomic_write
from zcards.lookup import EXACT, NORMALISED, CardIndex
from zcards.model import Card
from zcards.stats import Stats, summarise

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


@dataclass(frozen=True)
class ResolvedEntry:
    count: int
    card: Card
    section: str = DEFAULT_SECTION


@dataclass(frozen=True)
class UnknownCard:
    entry: DeckEntry
    suggestions: tuple[str, ...] = ()

    def explain(self, source: Path | None) -> str:
        where = Location(str(source) if source else None, self.entry.line)
        hint = f"; did you mean: {'; '.join(self.suggestions)}" if self.suggestions else ""
        return f"{where}: unknown card {self.entry.name!r}{hint}"


@dataclass(frozen=True)
class ResolvedDeck:
    """A deck whose names were looked up: real cards, plus the names that matched nothing."""

    deck: Deck
    entries: tuple[ResolvedEntry, ...]
    unknown: tuple[UnknownCard, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.unknown

    @property
    def total(self) -> int:
        return sum(entry.count for entry in self.entries)

    def require_ok(self) -> ResolvedDeck:
        """Self, or a ZcardsError naming every unknown card (exit 1)."""
        if self.unknown:
            raise ZcardsError("\n".join(u.explain(self.deck.source) for u in self.unknown))
        return self


def _dek() -> ModuleType:
    """lackey_plugin.dek, imported late: it builds this module's Deck objects itself."""
    import lackey_plugin.dek

    return lackey_plugin.dek


def parse_text_deck(text: str, source: Path | None = None) -> Deck:
    """Parse a text deck list; a line that is neither a card nor a header is an error."""
    entries: list[DeckEntry] = []
    section = DEFAULT_SECTION
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        indent = len(raw) - len(raw.lstrip())
        if header := _HASH_HEADER.fullmatch(line) or _COLON_HEADER.fullmatch(line):
            section = header["section"] or section
            continue
        match = _COUNT_LINE.fullmatch(line)
        if not match:
            raise ZcardsError(
                "expected '<count> <card name>' or a section header",
                Location(str(source) if source else None, number, indent + 1),
            )
        count = int(match["count"])
        if count < 1:
            raise ZcardsError(
                "a card count must be at least 1",
                Location(str(source) if source else None, number, indent + 1),
            )
        entries.append(DeckEntry(count, match["name"], section, line=number))
    return Deck(tuple(entries), source)


def read_deck(path: str | Path) -> Deck:
    """Read a deck file: a Lackey ``.dek`` (XML) or a plain-text list."""
    path = Path(path)
    data = path.read_bytes()
    if path.suffix.lower() == ".dek" or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return _dek().parse_dek(data, path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_text_deck(text, path)


def resolve_deck(deck: Deck, db: sqlite_utils.Database) -> ResolvedDeck:
    """Look every name up (exact or case/accent-insensitive only: a deck is data, not a guess).

    Prefix and fuzzy matches are not accepted silently; they become suggestions of an unknown
    card. Repeated names in one section are merged, keeping the first position.
    """
    index = CardIndex(db)
    merged: dict[tuple[str, tuple[str, str]], ResolvedEntry] = {}
    unknown: list[UnknownCard] = []
    for entry in deck.entries:
        result = index.lookup(entry.name, entry.set_name)
        if result.card is None or result.method not in (EXACT, NORMALISED):
            suggestions = (result.card.name,) if result.card else result.suggestions
            unknown.append(UnknownCard(entry, suggestions))
            continue
        key = (entry.section, result.card.key)
        previous = merged.get(key)
        count = entry.count + (previous.count if previous else 0)
        merged[key] = ResolvedEntry(count, result.card, entry.section)
    return ResolvedDeck(deck, tuple(merged.values()), tuple(unknown))


def pinned_entries(deck: Deck) -> tuple[ResolvedEntry, ...]:
    """A ``.dek``'s own entries as minimal cards (name, set, ImageFile): no database needed."""
    return tuple(
        ResolvedEntry(e.count, Card(e.name, e.set_name, image_file=e.image_file), e.section)
        for e in deck.entries
    )


def format_text_deck(entries: Iterable[DeckEntry | ResolvedEntry]) -> str:
    """``count<TAB>name`` lines (what Lackey's text decks use); ``Section:`` headers if needed."""
    rows = [
        (e.section, e.count, e.card.name if isinstance(e, ResolvedEntry) else e.name)
        for e in entries
    ]
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


def format_json_deck(deck: Deck, entries: Iterable[ResolvedEntry]) -> str:
    """A deck as JSON: one object per card with its count, section, set and ImageFile."""
    data = {
        "deck": deck.title,
        "game": deck.game,
        "cards": [
            {
                "count": e.count,
                "name": e.card.name,
                "set": e.card.set_name,
                "image_file": e.card.image_file,
                "section": e.section,
            }
            for e in entries
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def composition(resolved: ResolvedDeck) -> tuple[Stats, dict[str, int]]:
    """What a deck is made of: card stats (copies counted) and the number of cards per section."""
    sections: dict[str, int] = {}
    for entry in resolved.entries:
        sections[entry.section] = sections.get(entry.section, 0) + entry.count
    return summarise((entry.count, entry.card) for entry in resolved.entries), sections


def convert_deck(deck: Deck, to: str, db: sqlite_utils.Database | None = None) -> str:
    """The deck as ``text`` (a plain list; ``txt`` is an old spelling), ``json`` or ``dek``.

    A text list names cards only, so JSON and .dek need ``db`` to find sets and ImageFiles;
    a .dek carries them and converts without a database.
    """
    if to in ("text", "txt"):
        return format_text_deck(deck.entries)
    if deck.pinned:
        entries = pinned_entries(deck)
    elif db is None:
        raise ZcardsError(f"converting a text deck to {to} needs the card database (--db)")
    else:
        entries = resolve_deck(deck, db).require_ok().entries
    if to == "json":
        return format_json_deck(deck, entries)
    if to == "dek":
        return _dek().write_dek(entries)
    raise ValueError(f"unknown deck format {to!r}")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 with LF line ends, atomically (see :func:`atomic_write`)."""
    atomic_write(path, text.encode("utf-8"))
