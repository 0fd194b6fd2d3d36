"""What the rules model needs to know about cards: the printed numbers and words, and what the
effect rows make of the text (:mod:`zcards.game.effects`), read once per card.

Logs name cards by their name only, so the index is by name (the first card of a name wins,
then the first whose name folds to it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from zcards.cards.model import Card
from zcards.game.cardtext import CardText, read_text
from zcards.game.effects import Condition, Effect, Row, Target, Timing

FIGHT_CONDITIONS = frozenset(
    {Condition.ANOTHER_OF_FACTION, Condition.PER_OTHER_OF_FACTION, Condition.FIGHTING_FAST}
)


@dataclass(frozen=True, eq=False)
class CardInfo:
    """The rules-relevant face of one card."""

    card: Card
    text: CardText
    keywords: frozenset[str] = field(init=False)  # casefolded
    symbols: frozenset[str] = field(init=False)  # casefolded
    effects: frozenset[Effect] = field(init=False)  # what its rows do

    def __post_init__(self) -> None:
        object.__setattr__(self, "keywords", frozenset(k.casefold() for k in self.card.keywords))
        object.__setattr__(self, "symbols", frozenset(s.casefold() for s in self.card.symbols))
        object.__setattr__(self, "effects", frozenset(row.effect for row in self.text.rows))

    def __deepcopy__(self, memo: dict[int, object]) -> CardInfo:
        return self  # never changes: the readings of an audit share it

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def type(self) -> str:
        return self.card.type

    @property
    def faction(self) -> str | None:
        return self.card.faction

    @property
    def cost(self) -> int:
        return self.card.cost or 0

    @property
    def power(self) -> int:
        return self.card.power or 0

    @property
    def health(self) -> int | None:
        return self.card.health

    @property
    def covered(self) -> bool:
        """Whether the effect rows account for the whole text (else it may do anything)."""
        return self.text.covered

    @property
    def has_abilities(self) -> bool:
        """Whether its text gives its player something to use or that triggers (beyond what
        it is and what it changes while in play), or says what the rows cannot read."""
        return bool(self.text.unread) or any(
            row.timing not in (Timing.STATIC, Timing.MARKER) for row in self.text.rows
        )

    def may(self, effects: Iterable[Effect]) -> bool:
        """Whether a sentence of its text the rows do not read may have these effects."""
        wanted = frozenset(effects)
        return any(unread.reach.areas & wanted for unread in self.text.unread)

    def has_keyword(self, keyword: str) -> bool:
        return keyword.casefold() in self.keywords

    def has_symbol(self, symbol: str) -> bool:
        return symbol.casefold() in self.symbols

    def rows(self, timing: Timing | None = None, effect: Effect | None = None) -> list[Row]:
        """The card's effect rows, of one timing and effect when given."""
        if not self.text.rows or (effect is not None and effect not in self.effects):
            return []
        return [
            row
            for row in self.text.rows
            if (timing is None or row.timing is timing) and (effect is None or row.effect is effect)
        ]

    @cached_property
    def power_rows(self) -> tuple[Row, ...]:
        """Its static rows that set or change a power."""
        return tuple(
            row
            for row in self.text.rows
            if row.timing is Timing.STATIC and row.effect in (Effect.POWER, Effect.SET_POWER)
        )

    @cached_property
    def table_rows(self) -> tuple[Row, ...]:
        """Its static power rows about other cards than itself (read off the table)."""
        return tuple(row for row in self.power_rows if row.target is not Target.SELF)

    @cached_property
    def host_power(self) -> tuple[int, ...]:
        """What it adds to the power of the survivor it is attached to (an item)."""
        return tuple(
            row.amount
            for row in self.rows(Timing.STATIC, Effect.POWER)
            if row.target is Target.HOST
        )

    @cached_property
    def host_health(self) -> tuple[int, ...]:
        """What it adds to the Health of the survivor it is attached to (an item)."""
        return tuple(
            row.amount
            for row in self.rows(Timing.STATIC, Effect.HEALTH)
            if row.target is Target.HOST
        )

    @cached_property
    def own_power_rows(self) -> tuple[Row, ...]:
        """Its static rows about its own power (a solo zombie's too)."""
        return tuple(
            row
            for row in self.text.rows
            if row.timing is Timing.STATIC
            and row.target is Target.SELF
            and row.effect in (Effect.POWER, Effect.SET_POWER, Effect.NO_SOLO)
        )

    @cached_property
    def conditions(self) -> frozenset[Condition]:
        """The conditions of its power rows (what of the table they read)."""
        return frozenset(row.condition for row in (*self.own_power_rows, *self.table_rows))

    @cached_property
    def reads_fight(self) -> bool:
        """Whether a power it has or gives depends on which zombies share the fight: a zombie
        reading the others (Horde, not alone), a survivor stronger against Fast zombies, or
        a zombie turning off items or barricades."""
        if self.effects & {Effect.NO_BARRICADES, Effect.NO_ITEM_POWER}:
            return True
        return any(
            row.effect is Effect.NO_SOLO or row.condition in FIGHT_CONDITIONS
            for row in self.own_power_rows
        )

    def has(self, effect: Effect) -> bool:
        return effect in self.effects

    @property
    def one_shot(self) -> bool:
        """A one-shot item goes to the discard pile as soon as it is used (R7.5)."""
        return self.has(Effect.ONE_SHOT)

    @property
    def barricade(self) -> bool:
        return self.has(Effect.BARRICADE)


class CardIndex:
    """Cards by display name."""

    def __init__(self, cards: Iterable[Card], rows: tuple[Row, ...] | None = None) -> None:
        self._by_name: dict[str, CardInfo] = {}
        self._folded: dict[str, CardInfo] = {}
        for card in cards:
            if card.name in self._by_name:
                continue
            info = CardInfo(card, read_text(card, rows))
            self._by_name[card.name] = info
            self._folded.setdefault(card.name.casefold(), info)
        # what the cards face up on a part of the table read or change, by set of names
        # (a few hundred sets in a game; bounded so a long log keeps memory flat)
        self.table_rows_of = lru_cache(maxsize=4096)(self._table_rows_of)
        self.conditions_of = lru_cache(maxsize=4096)(self._conditions_of)

    def __len__(self) -> int:
        return len(self._by_name)

    def __deepcopy__(self, memo: dict[int, object]) -> CardIndex:
        return self

    def infos(self) -> list[CardInfo]:
        return list(self._by_name.values())

    def get(self, name: str | None) -> CardInfo | None:
        if not name:
            return None
        return self._by_name.get(name) or self._folded.get(name.casefold())

    def _table_rows_of(self, names: frozenset[str]) -> tuple[tuple[CardInfo, Row], ...]:
        """The power rows about other cards of the cards called ``names`` (face up on one
        part of the table), with the cards and, for ex-survivors, keyword rows too."""
        found: list[tuple[CardInfo, Row]] = []
        for name in sorted(names):
            info = self.get(name)
            if info is not None:
                found += [(info, row) for row in info.table_rows]
        return tuple(found)

    def _conditions_of(self, names: frozenset[str]) -> frozenset[Condition]:
        """The conditions the power rows of these cards read."""
        found: set[Condition] = set()
        for name in names:
            info = self.get(name)
            if info is not None:
                found |= info.conditions
        return frozenset(found)

    def uncovered(self) -> list[CardInfo]:
        """The cards whose text no row covers (``zcards rules coverage``)."""
        return [info for info in self._by_name.values() if not info.covered]
