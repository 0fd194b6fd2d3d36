"""Counts over cards: by type, faction, rarity, keyword, symbol, and the cost curve.

One function serves the whole database (each card once) and a deck (each card times its
count), so ``zcards stats`` and ``zcards deck check`` describe cards the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import sqlite_utils

from zcards.store.rows import CardRow

NO_VALUE = "(none)"
NO_COST = "no cost"
CATEGORIES = ("type", "faction", "rarity", "keyword", "symbol", "cost")


class Counted(Protocol):
    """What stats read of a card: a :class:`~zcards.cards.model.Card` or a search row."""

    @property
    def type(self) -> str: ...
    @property
    def faction(self) -> str: ...
    @property
    def rarity(self) -> str: ...
    @property
    def keywords(self) -> tuple[str, ...]: ...
    @property
    def symbols(self) -> tuple[str, ...]: ...
    @property
    def cost(self) -> int | None: ...


@dataclass
class Stats:
    total: int = 0
    counts: dict[str, Counter[str]] = field(
        default_factory=lambda: {category: Counter() for category in CATEGORIES}
    )

    def add(self, card: Counted, copies: int = 1) -> None:
        self.total += copies
        self.counts["type"][card.type or NO_VALUE] += copies
        self.counts["faction"][card.faction or NO_VALUE] += copies
        self.counts["rarity"][card.rarity or NO_VALUE] += copies
        for keyword in card.keywords:
            self.counts["keyword"][keyword] += copies
        for symbol in card.symbols:
            self.counts["symbol"][symbol] += copies
        self.counts["cost"][NO_COST if card.cost is None else str(card.cost)] += copies

    def table(self, category: str) -> list[tuple[str, int]]:
        """``(value, count)`` rows: the cost curve in cost order, the rest most common first."""
        counter = self.counts[category]
        if category == "cost":
            return sorted(counter.items(), key=lambda item: _cost_order(item[0]))
        return sorted(counter.items(), key=lambda item: (-item[1], item[0]))

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total} | {
            category: dict(self.table(category)) for category in CATEGORIES
        }


def _cost_order(value: str) -> tuple[int, int]:
    return (1, 0) if value == NO_COST else (0, int(value))


def summarise_cards(cards: Iterable[Counted | tuple[int, Counted]]) -> Stats:
    """Stats of cards, or of ``(copies, card)`` pairs (a deck)."""
    stats = Stats()
    for item in cards:
        # A search row is a tuple too: only a plain pair carries a count.
        if isinstance(item, tuple) and not isinstance(item, CardRow):
            copies, card = item
        else:
            copies, card = 1, item
        stats.add(card, copies)
    return stats


def database_stats(db: sqlite_utils.Database, query: str | None = None) -> Stats:
    """Stats of every card in ``db``, or of the cards a search query matches (rows are read
    as they come, and only the fields counted are decoded)."""
    from zcards.query.search import all_rows, search_rows  # decks' figures need no search

    return summarise_cards(search_rows(db, query) if query else all_rows(db))
