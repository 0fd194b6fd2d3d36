"""What the audit needs to know about cards: type, cost, power, health, keywords, symbols,
and which rules a card's text could bend (R16.1).

Card text is not modelled. The cards of the bundled set have their effects in a table
(:mod:`zcards.rules.excuses`); any other text is sorted into *effect flags* by a few
conservative patterns, and a check that a flagged card could explain turns its finding into
an "unverifiable" one. A false flag only costs completeness, never soundness.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from zcards.cards.model import KEYWORDS, Card
from zcards.rules.report import Immutable


class Effect(StrEnum):
    """Kinds of rule-bending a card text may do."""

    POWER = "power"  # changes some power (can make a wound or a kill possible)
    WOUND = "wound"  # deals or mentions wounds beyond the fight rules
    HEALTH = "health"  # changes health or prevents death
    FOOD = "food"  # gains or loses food
    HEAL = "heal"  # removes wounds outside the Medic symbol
    SPEND = "spend"  # spends other cards, or has an activated ability usable outside Recoup
    COMBAT = "combat"  # moves zombies into or out of a combat zone, or readies them
    KEYWORD = "keyword"  # grants keywords (matters for upgrade requirements)
    DRAW = "draw"  # draws or discards cards outside the Draw-phase rule


_REMINDER = re.compile(r"\([^)]*\)")
_PATTERNS: dict[Effect, re.Pattern[str]] = {
    Effect.POWER: re.compile(r"\bpower\b", re.I),
    Effect.WOUND: re.compile(r"\bwound|\bdies\b|\bkill|\boverwhelm", re.I),
    Effect.HEALTH: re.compile(r"\bhealth\b|\bcannot die\b|\bprevent", re.I),
    Effect.FOOD: re.compile(r"\bfood\b", re.I),
    Effect.HEAL: re.compile(r"remove[sd]? (a|\d+|all|the)? ?wound", re.I),
    Effect.SPEND: re.compile(r"\bspen[dt]\b", re.I),
    Effect.COMBAT: re.compile(r"combat zone|\bready\b", re.I),
    Effect.KEYWORD: re.compile(
        r"\b(have|has|gains?|gets?)\b[^.]*\b(" + "|".join(KEYWORDS) + r")\b", re.I
    ),
    Effect.DRAW: re.compile(r"\bdraws?\b|\bdiscards? a card\b|into your hand|to your hand", re.I),
}


def text_effects(text: str) -> frozenset[Effect]:
    """Effect flags of one card text; reminder text in parentheses restates a modelled rule
    (Fast, Fierce, Medic, Scavenger …) and is ignored."""
    bare = _REMINDER.sub("", text or "")
    return frozenset(effect for effect, pattern in _PATTERNS.items() if pattern.search(bare))


@dataclass(frozen=True)
class CardInfo(Immutable):
    """The rules-relevant face of one card; ``effects`` are the pattern flags of its text,
    used only for a card the effect table does not cover."""

    card: Card
    effects: frozenset[Effect]

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def type(self) -> str:
        return self.card.type

    @property
    def cost(self) -> int:
        return self.card.cost or 0

    @property
    def power(self) -> int:
        return self.card.power or 0

    def has_keyword(self, keyword: str) -> bool:
        return self.card.has_keyword(keyword)

    def has_symbol(self, symbol: str) -> bool:
        return self.card.has_symbol(symbol)


class CardIndex:
    """Cards by display name (logs name cards by ``Name`` only; the first set listed wins)."""

    def __init__(self, cards: Iterable[Card]) -> None:
        self._by_name: dict[str, CardInfo] = {}
        self._folded: dict[str, CardInfo] = {}
        self.memo: dict[tuple[str, str], object] = {}  # what other modules derive, once
        for card in cards:
            info = CardInfo(card, text_effects(card.text))
            self._by_name.setdefault(card.name, info)
            self._folded.setdefault(card.name.casefold(), info)

    def __len__(self) -> int:
        return len(self._by_name)

    def infos(self) -> list[CardInfo]:
        return list(self._by_name.values())

    def get(self, name: str | None) -> CardInfo | None:
        if not name:
            return None
        return self._by_name.get(name) or self._folded.get(name.casefold())

    def flagged(self, names: Iterable[str], effects: Effect | Iterable[Effect]) -> list[str]:
        """The names among ``names`` whose text could have one of ``effects`` (unknown cards
        count: their text is unknown)."""
        wanted = {effects} if isinstance(effects, Effect) else set(effects)
        found = {
            name for name in names if (info := self.get(name)) is None or wanted & info.effects
        }
        return sorted(found)
