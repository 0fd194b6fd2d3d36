"""A card's printings: the same name in several sets, or twice in one set (an alternate art),
kept as one card (``cards``) and its further printings (``card_variants``).

``zcards card`` lists them; an import says when two printings of one name in one set do not
agree (other stats or text), since a lookup by name shows only the first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

_PRINTINGS = """select set_name, image_file, rarity from (
    select set_name, image_file, rarity, 0 as kind, rowid as seq from cards where name = :name
    union all
    select set_name, image_file, rarity, 1, line from card_variants where name = :name
) order by set_name, kind, seq"""
_STATS = ("type", "cost", "power", "health", "text", "extra")
_NAMES = {"extra": "value of the game's own columns"}
_CLASHES = (
    "select v.source_id, c.name, c.set_name, "
    + ", ".join(f"c.{stat} is not v.{stat}" for stat in _STATS)
    + " from card_variants v join cards c on c.name = v.name and c.set_name = v.set_name"
    " where v.source_id in ({marks}) and ("
    + " or ".join(f"c.{stat} is not v.{stat}" for stat in _STATS)
    + ") order by c.name, c.set_name"
)


@dataclass(frozen=True)
class Printing:
    set_name: str
    image_file: str
    rarity: str

    def describe(self) -> str:
        rarity = f", {self.rarity}" if self.rarity else ""
        return f"{self.set_name} ({self.image_file}{rarity})"


def printings(conn: sqlite3.Connection, name: str) -> list[Printing]:
    """Every printing of the card called ``name``, by set, the first of each set first."""
    rows = conn.execute(_PRINTINGS, {"name": name})
    return [Printing(*(value or "" for value in row)) for row in rows]


def clashes(conn: sqlite3.Connection, source_ids: Sequence[int]) -> list[tuple[int, str]]:
    """(source id, sentence) for each name printed twice in one set (by these sources) with
    other stats."""
    if not source_ids:
        return []
    query = _CLASHES.format(marks=", ".join("?" * len(source_ids)))
    found = []
    for source_id, name, set_name, *differs in conn.execute(query, list(source_ids)):
        stats = [_NAMES.get(s, s) for s, differ in zip(_STATS, differs, strict=True) if differ]
        found.append((source_id, f"{name!r} in set {set_name!r}: another {', '.join(stats)}"))
    return found
