"""Full-information state of a simulated game: every card's place, face, rotation and counters.

Unlike the rules engine, which reconstructs what a log lets it see, the simulator knows
everything; it uses this state to offer its players only legal choices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from zcards.cards.model import Card
from zcards.sim.actions import Action

T = TypeVar("T")
SURVIVOR_ZONE = "survivor"
RESOURCE_ZONE = "resource"
COMBAT_ZONE = "combat"
NO_SURVIVORS = "no survivors"
EMPTY_DECK = "empty deck"


@dataclass(eq=False)
class TableCard:
    """One card on the table. ``generic`` marks a survivor taken over after infection.

    What the printed card says (name, type, power, keywords) is read once, when the card
    comes into play: the strategies ask for it many times per turn."""

    card: Card
    controller: str
    zone: str
    face_up: bool
    spent: bool = False
    wounds: int = 0
    infected_by: str | None = None
    generic: bool = False
    name: str = field(init=False)
    survivor_card: bool = field(init=False)
    printed_power: int = field(init=False)
    keywords: frozenset[str] = field(init=False)  # casefolded
    symbols: frozenset[str] = field(init=False)  # casefolded

    def __post_init__(self) -> None:
        self.name = self.card.name
        self.survivor_card = self.card.type == "Survivor"
        self.printed_power = self.card.power or 0
        self.keywords = frozenset(keyword.casefold() for keyword in self.card.keywords)
        self.symbols = frozenset(symbol.casefold() for symbol in self.card.symbols)

    @property
    def is_zombie(self) -> bool:
        """Every card in a resource or combat zone is a zombie (a generic one when face down)."""
        return self.zone != SURVIVOR_ZONE

    @property
    def is_survivor(self) -> bool:
        return self.zone == SURVIVOR_ZONE and self.survivor_card

    def has_keyword(self, keyword: str) -> bool:
        """Keywords count only on a face-up zombie whose text is not ignored."""
        return self.face_up and not self.generic and keyword.casefold() in self.keywords

    @property
    def power(self) -> int:
        """Fight power: 1 for a generic zombie, else the printed power."""
        if self.zone != SURVIVOR_ZONE and (not self.face_up or self.generic):
            return 1
        return self.printed_power

    @property
    def health(self) -> int:
        return max(self.card.health or 1, 1)


def take_out(cards: list, card: object) -> None:
    """Remove ``card`` itself from ``cards`` (copies of a card are equal, and comparing cards
    field by field is slow)."""
    for index, other in enumerate(cards):
        if other is card:
            del cards[index]
            return
    raise ValueError(f"{card!r} is not there")


@dataclass(eq=False)
class PlayerState:
    """One player's cards and food; ``lost`` says why he lost (None while he plays)."""

    name: str
    seat: int
    deck: list[Card]
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    table: list[TableCard] = field(default_factory=list)
    food: int = 10
    lost: str | None = None

    @property
    def survivors(self) -> list[TableCard]:
        return [card for card in self.table if card.zone == SURVIVOR_ZONE and card.survivor_card]

    @property
    def zombies(self) -> list[TableCard]:
        return [card for card in self.table if card.zone != SURVIVOR_ZONE]

    @property
    def ready_zombies(self) -> list[TableCard]:
        return [card for card in self.table if card.zone != SURVIVOR_ZONE and not card.spent]

    @property
    def attackers(self) -> list[TableCard]:
        """Zombies that attack this turn: in the combat zone and ready."""
        return [card for card in self.table if card.zone == COMBAT_ZONE and not card.spent]

    def keyword_counts(self) -> Counter[str]:
        """How many face-up zombies he controls have each keyword (casefolded), for
        requirements (R8.1); face-down and generic zombies have none."""
        return Counter(
            keyword
            for card in self.table
            if card.zone != SURVIVOR_ZONE and card.face_up and not card.generic
            for keyword in card.keywords
        )

    def meets_requirements(self, card: Card, counts: Counter[str] | None = None) -> bool:
        """Requirements count the face-up zombies he controls with the named keyword."""
        if not card.requirements:
            return True
        counts = self.keyword_counts() if counts is None else counts
        return all(counts[k.casefold()] >= needed for k, needed in card.requirements.items())

    def upgradable(self) -> list[TableCard]:
        """Face-down Zombie cards in his resource or combat zone whose requirement he meets
        (a face-down card never counts for its own requirement)."""
        candidates = [
            zombie
            for zombie in self.table
            if zombie.zone != SURVIVOR_ZONE and not zombie.face_up and zombie.card.type == "Zombie"
        ]
        return self._meeting_requirements(candidates, lambda zombie: zombie.card)

    def playable(self) -> list[Card]:
        """Survivors and items in hand he can pay for now and whose requirements hold."""
        budget = len(self.ready_zombies)
        affordable = [
            card
            for card in self.hand
            if card.type in ("Survivor", "Item") and (card.cost or 0) <= budget
        ]
        return self._meeting_requirements(affordable, lambda card: card)

    def _meeting_requirements(self, items: list[T], card_of: Callable[[T], Card]) -> list[T]:
        """The items whose card's requirements hold (keywords counted only when one has any)."""
        if not any(card_of(item).requirements for item in items):
            return items
        counts = self.keyword_counts()
        return [item for item in items if self.meets_requirements(card_of(item), counts)]


@dataclass
class SimState:
    """The table, the turn and the action record of one game."""

    players: list[PlayerState]
    turn: int = 0
    active: str = ""
    phase: str = "Setup"
    actions: list[Action] = field(default_factory=list)

    def player(self, name: str) -> PlayerState:
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)

    @property
    def remaining(self) -> list[PlayerState]:
        return [player for player in self.players if player.lost is None]

    def in_turn_order(self, start: str) -> list[PlayerState]:
        """Players still in the game, in seat order starting with ``start``."""
        index = next(i for i, player in enumerate(self.players) if player.name == start)
        ordered = self.players[index:] + self.players[:index]
        return [player for player in ordered if player.lost is None]

    def next_active(self) -> str:
        """The next player in turn order after the active one who has not lost."""
        index = next(i for i, player in enumerate(self.players) if player.name == self.active)
        for step in range(1, len(self.players) + 1):
            candidate = self.players[(index + step) % len(self.players)]
            if candidate.lost is None:
                return candidate.name
        return self.active
