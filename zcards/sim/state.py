"""Full-information state of a simulated game: every card's place, face, rotation and counters.

Unlike the rules engine, which reconstructs what a log lets it see, the simulator knows
everything; it uses this state to offer its players only legal choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zcards.model import Card
from zcards.sim.actions import Action, ActionKind

SURVIVOR_ZONE = "survivor"
RESOURCE_ZONE = "resource"
COMBAT_ZONE = "combat"
PHASES: tuple[str, ...] = ("Ready", "Draw", "Build", "Attack", "Recoup", "End")
OPENING_BUDGET = 6
NO_SURVIVORS = "no survivors"
EMPTY_DECK = "empty deck"


@dataclass(eq=False)
class TableCard:
    """One card on the table. ``generic`` marks a survivor taken over after infection."""

    card: Card
    controller: str
    zone: str
    face_up: bool
    spent: bool = False
    wounds: int = 0
    infected_by: str | None = None
    generic: bool = False

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def is_zombie(self) -> bool:
        """Every card in a resource or combat zone is a zombie (a generic one when face down)."""
        return self.zone in (RESOURCE_ZONE, COMBAT_ZONE)

    @property
    def is_survivor(self) -> bool:
        return self.zone == SURVIVOR_ZONE and self.card.type == "Survivor"

    def has_keyword(self, keyword: str) -> bool:
        """Keywords count only on a face-up zombie whose text is not ignored."""
        return self.face_up and not self.generic and self.card.has_keyword(keyword)

    @property
    def power(self) -> int:
        """Fight power: 1 for a generic zombie, else the printed power."""
        if self.is_zombie and (not self.face_up or self.generic):
            return 1
        return self.card.power or 0

    @property
    def health(self) -> int:
        return max(self.card.health or 1, 1)


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
        return [card for card in self.table if card.is_survivor]

    @property
    def zombies(self) -> list[TableCard]:
        return [card for card in self.table if card.is_zombie]

    @property
    def ready_zombies(self) -> list[TableCard]:
        return [card for card in self.zombies if not card.spent]

    @property
    def attackers(self) -> list[TableCard]:
        """Zombies that attack this turn: in the combat zone and ready."""
        return [card for card in self.ready_zombies if card.zone == COMBAT_ZONE]

    def meets_requirements(self, card: Card, exclude: TableCard | None = None) -> bool:
        """Requirements count the face-up zombies he controls with the named keyword (R8.1)."""
        return all(
            sum(1 for z in self.zombies if z is not exclude and z.has_keyword(keyword)) >= needed
            for keyword, needed in card.requirements.items()
        )

    def can_upgrade(self, zombie: TableCard) -> bool:
        return (
            zombie.is_zombie
            and not zombie.face_up
            and zombie.card.type == "Zombie"
            and self.meets_requirements(zombie.card, exclude=zombie)
        )

    def playable(self) -> list[Card]:
        """Survivors and items in hand he can pay for now and whose requirements hold."""
        budget = len(self.ready_zombies)
        return [
            card
            for card in self.hand
            if card.type in ("Survivor", "Item")
            and (card.cost or 0) <= budget
            and self.meets_requirements(card)
        ]


@dataclass
class SimState:
    """The table, the turn and the action record of one game."""

    players: list[PlayerState]
    turn: int = 0
    active: str = ""
    phase: str = "Setup"
    actions: list[Action] = field(default_factory=list)

    def record(self, kind: ActionKind, player: str, **fields: object) -> Action:
        action = Action(kind, player, **fields)  # type: ignore[arg-type]
        self.actions.append(action)
        return action

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
