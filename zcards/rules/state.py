"""The game state the audit reconstructs from a log (not tied to Lackey).

What every log shows is tracked exactly: turn, active player, phase, food, survivors and
their tokens, face-up cards. What a log may hide is tracked as counts or ranges: the hand
(its size, plus the names the saver saw), the deck (its size when a deck list was given or
a zone-count suffix said so), and face-down zombies (:mod:`zcards.rules.zombies`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from zcards.rules.zombies import Zombies

PHASES: tuple[str, ...] = ("Ready", "Draw", "Build", "Attack", "Recoup", "End")
SETUP = "Setup"
OPENING_BUDGET = 6
STARTING_HAND = 7
STARTING_FOOD = 10


@dataclass(eq=False)
class Survivor:
    """A survivor on the table; copies of one card are told apart by their tokens."""

    name: str
    wounds: int = 0
    infected: bool = False
    spent: bool = False
    dead_line: int | None = None  # the line whose wound reached its Health
    reported: bool = False  # its staying in play was already reported
    touched: int = 0  # the line of its latest wound
    known: bool = True  # False: a card missing from the card data, kept here as a survivor

    @property
    def key(self) -> tuple:
        return (self.spent, self.wounds, self.infected)


@dataclass
class Player:
    """One player's part of the game."""

    name: str
    seat: int | None = None
    food: int | None = STARTING_FOOD
    hand: int | None = 0
    hand_names: Counter[str] = field(default_factory=Counter)
    deck: int | None = None
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    survivors: list[Survivor] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    zombies: Zombies = field(default_factory=Zombies)
    playing: bool = False  # seated, loaded a deck or named as a player (spectators are not)
    lost: str | None = None  # why he lost
    lost_turn: int | None = None
    lost_line: int | None = None

    # -- hand and deck ---------------------------------------------------------------------

    def to_hand(self, count: int, name: str | None = None) -> None:
        if self.hand is not None:
            self.hand += count
        if name:
            self.hand_names[name] += 1

    def from_hand(self, name: str | None = None) -> None:
        if self.hand is not None:
            self.hand = max(0, self.hand - 1)
        if name and self.hand_names[name]:
            self.hand_names[name] -= 1
            if not self.hand_names[name]:
                del self.hand_names[name]
        if self.hand == 0:
            self.hand_names.clear()

    def from_deck(self, count: int = 1) -> None:
        if self.deck is not None:
            self.deck = max(0, self.deck - count)

    # -- survivors -------------------------------------------------------------------------

    def survivors_named(self, name: str) -> list[Survivor]:
        return [s for s in self.survivors if s.name == name]

    def pick_survivor(
        self,
        name: str,
        *,
        wounds: int | None = None,
        ready: bool | None = None,
        infected: bool | None = None,
        recent: bool = False,
    ) -> Survivor | None:
        """The copy of ``name`` a line most plausibly means: filters are preferences, applied
        in order while some copy still matches (copies differ only in their tokens);
        ``recent`` prefers the copy wounded last (an infection follows a lost fight)."""
        pool = self.survivors_named(name)
        if recent:
            pool.sort(key=lambda s: -s.touched)
        for keep in (
            (lambda s: s.wounds == wounds) if wounds is not None else None,
            (lambda s: not s.spent) if ready else (lambda s: s.spent) if ready is False else None,
            (lambda s: s.infected == infected) if infected is not None else None,
        ):
            if keep is not None and any(keep(s) for s in pool):
                pool = [s for s in pool if keep(s)]
        return pool[0] if pool else None

    def known_survivors(self) -> int:
        """Survivors certainly in play (a card missing from the card data may be one)."""
        return sum(1 for s in self.survivors if s.known)

    def remove_survivor(self, survivor: Survivor) -> None:
        self.survivors.remove(survivor)

    def controls(self, name: str) -> bool:
        """Whether a face-up card of this name is on his part of the table."""
        return (
            bool(self.survivors_named(name)) or name in self.items or self.zombies.has_named(name)
        )

    def face_up_names(self) -> set[str]:
        return {s.name for s in self.survivors} | set(self.items) | self.zombies.face_up_names()

    def ready_all(self) -> None:
        for survivor in self.survivors:
            survivor.spent = False
        self.zombies.ready_all()


@dataclass
class GameState:
    """Everything the audit tracks about one game."""

    players: dict[str, Player] = field(default_factory=dict)
    turn: int = 0
    active: str | None = None
    phase: str = SETUP
    started: bool = False  # a "starts a new game." line was seen: food starts known
    first_player: str | None = None

    def player(self, name: str) -> Player:
        if name not in self.players:
            self.players[name] = Player(name, food=STARTING_FOOD if self.started else None)
        return self.players[name]

    @property
    def order(self) -> list[str]:
        """Turn order: seat order when seats are known, else order of appearance."""
        names = list(self.players)
        return sorted(
            names,
            key=lambda n: (self.players[n].seat is None, self.players[n].seat or 0, names.index(n)),
        )

    def in_game(self) -> list[Player]:
        return [self.players[n] for n in self.order if self.players[n].lost is None]

    def zombie_players(self) -> list[Player]:
        """This turn's zombie players (R1.1): everyone still in the game but the active one."""
        return [p for p in self.in_game() if p.name != self.active]

    def owner_of(self, actor: str, name: str) -> Player:
        """Whose face-up card ``name`` is: the actor's if he has one (functions are performed by
        the controller), else the only player who has one, else the actor."""
        me = self.player(actor)
        if me.controls(name):
            return me
        others = [p for p in self.players.values() if p.controls(name)]
        return others[0] if len(others) == 1 else me
