"""Deck lists against the card database: resolve names to real cards, convert, summarise.

Reading and writing deck files (``.dek`` and plain-text lists) is Lackey's format, in
:mod:`lackey_plugin.dek`; a text deck names cards only, so :func:`resolve_deck` finds the real
cards, and a typo is reported with suggestions instead of silently dropping a card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from lackey_plugin.dek import DEFAULT_SECTION, Deck, DeckEntry, format_text_deck, write_dek
from lackey_plugin.files import atomic_write
from zcards.cards.model import Card
from zcards.errors import Location, ZcardsError
from zcards.game.definition import ZOMBIE_GAME
from zcards.query.lookup import EXACT, NORMALISED, CardLookup
from zcards.query.stats import Stats, summarise_cards


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


def resolve_deck(deck: Deck, db: sqlite_utils.Database) -> ResolvedDeck:
    """Look every name up (exact or case/accent-insensitive only: a deck is data, not a guess).

    Prefix and fuzzy matches are not accepted silently; they become suggestions of an unknown
    card. Repeated names in one section are merged, keeping the first position.
    """
    index = CardLookup(db)
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


def deck_entries(entries: Iterable[ResolvedEntry]) -> list[DeckEntry]:
    """Resolved entries as Lackey deck entries, pinned to each card's set and ImageFile."""
    return [
        DeckEntry(e.count, e.card.name, e.section, e.card.set_name, e.card.image_file)
        for e in entries
    ]


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
    return summarise_cards((entry.count, entry.card) for entry in resolved.entries), sections


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
        return write_dek(deck_entries(entries), ZOMBIE_GAME)
    raise ValueError(f"unknown deck format {to!r}")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` as UTF-8 with LF line ends, atomically (see :func:`atomic_write`)."""
    atomic_write(path, text.encode("utf-8"))
