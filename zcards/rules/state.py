"""The table the audit reconstructs from a log (not tied to Lackey): :class:`TableState`.

What every log shows is tracked exactly: food, survivors and their tokens, face-up cards.
What a log may hide is tracked as counts or ranges: the hand (its size, plus the names the
saver saw), the deck (its size when a deck list was given or a zone-count suffix said so),
and face-down zombies (:mod:`zcards.rules.zombies`). A player whose part of the table the log
did not show from the start (a log that begins mid-game, an unknown saved game) is
*unknown*: his lists hold only the cards seen so far, and ``None`` stands for a value the log
has not told yet (R17.9).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from itertools import count

from zcards.game.definition import STARTING_FOOD
from zcards.rules.report import Loss
from zcards.rules.zombies import Zombies

SETUP = "Setup"

_SERIALS = count(1)


@dataclass(eq=False)
class Survivor:
    """A survivor on the table; copies of one card are told apart by their tokens.

    ``wounds``, ``infected`` and ``spent`` are None while unknown (a survivor first seen in a
    log that began mid-game)."""

    name: str
    wounds: int | None = 0
    infected: bool | None = False
    spent: bool | None = False
    dead_line: int | None = None  # the line whose wound reached its Health
    touched: int = 0  # the line of its latest wound
    known: bool = True  # False: a card missing from the card data, kept here as a survivor
    uid: int = field(default_factory=lambda: next(_SERIALS))


@dataclass
class Player:
    """One player's part of the game."""

    name: str
    seat: int | None = None
    known: bool = True  # his part of the table is known: seen from the start (or restored)
    food: int | None = STARTING_FOOD
    hand: int | None = 0
    hand_names: Counter[str] = field(default_factory=Counter)
    deck: int | None = None
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    survivors: list[Survivor] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    zombies: Zombies = field(default_factory=Zombies)
    playing: bool = False  # seated, loaded a deck, named as a player or took a game action
    acted: int = -1  # the last turn in which he took a game action (he was in the game)
    spectator: bool = False
    lost: str | None = None  # why he lost
    lost_turn: int | None = None
    lost_line: int | None = None

    def __deepcopy__(self, memo: dict[int, object]) -> Player:
        """Copies are made for every reading the audit keeps open: names and counts are
        immutable, so only the containers are copied."""
        new = copy.copy(self)
        new.hand_names = Counter(self.hand_names)
        new.discard, new.removed, new.items = (
            list(self.discard),
            list(self.removed),
            list(self.items),
        )
        new.survivors = []
        for survivor in self.survivors:
            twin = copy.copy(survivor)
            memo[id(survivor)] = twin
            new.survivors.append(twin)
        new.zombies = copy.deepcopy(self.zombies, memo)
        memo[id(self)] = new
        return new

    # -- hand and deck ---------------------------------------------------------------------

    def to_hand(self, number: int, name: str | None = None) -> None:
        if self.hand is not None:
            self.hand += number
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

    def from_deck(self, number: int = 1) -> None:
        if self.deck is not None:
            self.deck = max(0, self.deck - number)

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
            (lambda s: s.spent is not True)
            if ready
            else (lambda s: s.spent is not False)
            if ready is False
            else None,
            (lambda s: s.infected == infected) if infected is not None else None,
        ):
            if keep is not None and any(keep(s) for s in pool):
                pool = [s for s in pool if keep(s)]
        return pool[0] if pool else None

    def known_survivors(self) -> int:
        """Survivors certainly in play (a card missing from the card data may be one)."""
        return sum(1 for s in self.survivors if s.known)

    def controls(self, name: str) -> bool:
        """Whether a face-up card of this name is on his part of the table."""
        return (
            bool(self.survivors_named(name)) or name in self.items or self.zombies.has_named(name)
        )

    def face_up_names(self) -> set[str]:
        return {s.name for s in self.survivors} | set(self.items) | self.zombies.face_up_names()

    def could_have_lost_unseen(self) -> bool:
        """Whether he may have lost without the log showing it: only when his part of the
        table is unknown and no survivor of his is known to be in play (a survivor leaving
        play is logged; an empty deck counts only when its size is known)."""
        return not self.known and not self.survivors

    def ready_all(self) -> None:
        for survivor in self.survivors:
            survivor.spent = False
        self.zombies.ready_all()

    def has_spent_cards(self) -> bool:
        return any(s.spent for s in self.survivors) or self.zombies.any_board(
            lambda b: b.rs > 0 or b.cs > 0 or any(u.spent for u in b.up)
        )

    def forget(self) -> None:
        """The log stops showing his part of the table (an unknown saved game, a revert):
        only what is seen from now on is tracked (R17.8)."""
        self.known = False
        self.food = None
        self.hand = None
        self.hand_names.clear()
        self.deck = None
        self.survivors.clear()
        self.items.clear()
        self.zombies = Zombies(unknown=True)


@dataclass
class TableState:
    """Everything the audit tracks about the table of one game."""

    players: dict[str, Player] = field(default_factory=dict)
    started: bool = False  # the setup was seen: players first seen now are known (R17.6)
    losses: list[Loss] = field(default_factory=list)

    def player(self, name: str) -> Player:
        if name not in self.players:
            known = self.started
            self.players[name] = Player(
                name,
                known=known,
                food=STARTING_FOOD if known else None,
                hand=0 if known else None,
                zombies=Zombies(unknown=not known),
            )
        return self.players[name]

    def start(self) -> None:
        """The log shows this game's setup: every player seen so far starts known, with the
        plugin's initial food (R17.6)."""
        self.started = True
        for me in self.players.values():
            me.known, me.food, me.hand = True, STARTING_FOOD, 0
            me.hand_names.clear()
            me.zombies = Zombies()

    @property
    def order(self) -> list[str]:
        """Turn order: seat order when seats are known, else order of appearance."""
        names = list(self.players)
        return sorted(
            names,
            key=lambda n: (self.players[n].seat is None, self.players[n].seat or 0, names.index(n)),
        )

    def in_game(self) -> list[Player]:
        """Players taking part who have not lost, in turn order."""
        return [
            self.players[n]
            for n in self.order
            if self.players[n].playing and self.players[n].lost is None
        ]

    def owner_of(self, actor: str, name: str) -> Player:
        """Whose face-up card ``name`` is: the actor's if he has one (functions are performed by
        the controller), else the only player who has one, else the actor."""
        me = self.player(actor)
        if me.controls(name):
            return me
        others = [p for p in self.players.values() if p.controls(name)]
        return others[0] if len(others) == 1 else me

    def lose(self, name: str, reason: str, turn: int, line: int | None) -> None:
        me = self.players[name]
        me.lost, me.lost_turn, me.lost_line = reason, turn, line
        self.losses.append(Loss(name, turn, line, reason))

    def next_in_turn_order(self, active: str) -> list[str]:
        """Who may take the turn after ``active`` (R3.4): the next player in turn order who
        has not lost, then, while that player may have lost unseen, the ones after him.
        Empty when ``active`` is not a player."""
        order = [n for n in self.order if self.players[n].playing]
        if active not in order:
            return []
        start = order.index(active)
        allowed: list[str] = []
        for step in range(1, len(order) + 1):
            me = self.players[order[(start + step) % len(order)]]
            if me.lost is None:
                allowed.append(me.name)
                if not me.could_have_lost_unseen():
                    break
        return allowed
