"""Forgiving card lookup by name: exact, then case/accent-insensitive, then prefix, then fuzzy.

A wrong guess is worse than a question, so every step that finds more than one distinct card
name stops and reports candidates ("did you mean") instead of picking one.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

import sqlite_utils

from zcards.cards.model import Card
from zcards.store.db import iter_cards

# How sure fuzzy matching must be to pick a card, and how far ahead of the runner-up.
FUZZY_ACCEPT = 90.0
FUZZY_MARGIN = 8.0
# Below this score a name is not even worth suggesting.
FUZZY_SUGGEST = 60.0
MAX_SUGGESTIONS = 5
# Suggest only names nearly as close as the best one, not every weak match.
FUZZY_SPREAD = 15.0

EXACT, NORMALISED, PREFIX, FUZZY = "exact", "normalised", "prefix", "fuzzy"

_SEPARATORS = re.compile(r"[-_/\u2010-\u2015]")
_PUNCTUATION = re.compile(r"[^\w\s]")


def normalise_name(name: str) -> str:
    """The comparison key: casefolded, no accents or punctuation (``Dr.`` = ``dr``), and
    hyphens as spaces (``Blood-Mad`` = ``blood mad``)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_PUNCTUATION.sub("", _SEPARATORS.sub(" ", bare)).split())


@dataclass(frozen=True)
class Lookup:
    """The outcome of one lookup: a card (and how it was found) or the names to suggest."""

    query: str
    card: Card | None
    method: str = ""
    suggestions: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return self.card is not None

    def explain(self) -> str:
        """The user-facing sentence for a failed lookup."""
        if not self.suggestions:
            return f"no card named {self.query!r}"
        return f"no card named {self.query!r}; did you mean: " + "; ".join(self.suggestions)


class CardLookup:
    """Every card name of one database, normalised once, for many lookups (a deck has dozens)."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self._db = db
        self._sets: dict[str, list[str]] = {}
        self._by_key: dict[str, list[str]] = {}
        for name, set_name in db.execute("SELECT name, set_name FROM cards ORDER BY set_name"):
            self._sets.setdefault(name, []).append(set_name)
        for name in sorted(self._sets):
            self._by_key.setdefault(normalise_name(name), []).append(name)
        self._keys = sorted(self._by_key)

    def lookup(self, query: str, set_name: str = "") -> Lookup:
        """Find one card; ``set_name`` picks a printing when the name exists in several sets."""
        if query in self._sets:
            return Lookup(query, self._card(query, set_name), EXACT)
        key = normalise_name(query)
        if not key:
            return Lookup(query, None)
        if same := self._by_key.get(key):
            return self._pick(query, same, NORMALISED, set_name)
        if prefixed := self._prefixed(key):
            return self._pick(query, prefixed, PREFIX, set_name)
        return self._fuzzy(query, key, set_name)

    def _pick(self, query: str, names: list[str], method: str, set_name: str) -> Lookup:
        if len(names) == 1:
            return Lookup(query, self._card(names[0], set_name), method)
        return Lookup(query, None, method, tuple(names[:MAX_SUGGESTIONS]))

    def _prefixed(self, key: str) -> list[str]:
        start = bisect.bisect_left(self._keys, key)
        names: list[str] = []
        for candidate in self._keys[start:]:
            if not candidate.startswith(key):
                break
            names.extend(self._by_key[candidate])
        return names

    def _fuzzy(self, query: str, key: str, set_name: str) -> Lookup:
        from rapidfuzz import fuzz, process  # only a name no card has needs it (a build not)

        scored = process.extract(
            key, self._keys, scorer=fuzz.WRatio, limit=MAX_SUGGESTIONS, score_cutoff=FUZZY_SUGGEST
        )
        if not scored:
            return Lookup(query, None)
        best_key, best_score, _ = scored[0]
        runner_up = scored[1][1] if len(scored) > 1 else 0.0
        names = self._by_key[best_key]
        if (
            best_score >= FUZZY_ACCEPT
            and best_score - runner_up >= FUZZY_MARGIN
            and len(names) == 1
        ):
            return Lookup(query, self._card(names[0], set_name), FUZZY)
        close = [candidate for candidate, score, _ in scored if score >= best_score - FUZZY_SPREAD]
        suggestions = [name for candidate in close for name in self._by_key[candidate]]
        return Lookup(query, None, FUZZY, tuple(suggestions[:MAX_SUGGESTIONS]))

    def _card(self, name: str, set_name: str) -> Card:
        sets = self._sets[name]
        chosen = set_name if set_name in sets else sets[0]
        return next(iter_cards(self._db, "name = ? AND set_name = ?", [name, chosen]))
