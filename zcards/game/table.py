"""The table of one game: players, seats, hands, decks, piles, survivors, items, zombies, food,
turn and phase, and who lost.

One :class:`Table` type serves both observers of a game. The simulator's table is exact (it
knows every card); the audit's holds what a log shows, with ``None`` for a value the log has
not told yet and hidden face-down cards (:mod:`zcards.game.zombies`). A player whose part of
the table the observer did not see from the start is *unknown* (R17.9).

Readings fork the table: :meth:`Table.fork` is copy-on-write, sharing every player until one
of the copies changes him (:meth:`Table.edit` gives the private copy to write to). Read a
player with ``table.players[name]``; change him only through ``table.edit(name)``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import count
from typing import NamedTuple

from zcards.game.definition import STARTING_FOOD
from zcards.game.zombies import Zombies

SETUP = "Setup"
NO_SURVIVORS = "no survivors"
EMPTY_DECK = "empty deck"

_SERIALS = count(1)


def serial() -> int:
    """A new identity for a card on the table (copies of one card are otherwise alike)."""
    return next(_SERIALS)


@dataclass(slots=True, eq=False)
class Survivor:
    """A survivor on the table; ``wounds``, ``infected`` and ``spent`` are None while unknown
    (a survivor first seen in a log that began mid-game)."""

    name: str
    wounds: int | None = 0
    infected: bool | None = False
    infected_by: str | None = None  # who put the Infected token on it, when known (R11.3)
    spent: bool | None = False
    known: bool = True  # False: a card missing from the card data, kept here as a survivor
    uid: int = field(default_factory=serial)
    dying: int | None = None  # the observer's mark (a log line) of the wound that reached Health
    touched: int = 0  # the observer's mark of its latest wound

    def copy(self) -> Survivor:
        return Survivor(
            self.name,
            self.wounds,
            self.infected,
            self.infected_by,
            self.spent,
            self.known,
            self.uid,
            self.dying,
            self.touched,
        )


@dataclass(slots=True, eq=False)
class Item:
    """An item on the table; ``host``: the survivor it is attached to (None: not attached, or
    the observer does not know to which)."""

    name: str
    host: int | None = None
    spent: bool = False
    uid: int = field(default_factory=serial)


class Loss(NamedTuple):
    player: str
    turn: int
    line: int | None
    reason: str


@dataclass(slots=True, eq=False)
class Player:
    """One player's part of the game."""

    name: str
    seat: int | None = None
    known: bool = True  # his part of the table is known: seen from the start (or restored)
    food: int | None = STARTING_FOOD  # as last recorded (the rules read it through food_now)
    hand: int | None = 0
    hand_names: Counter[str] = field(default_factory=Counter)
    deck: int | None = None
    discard: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    survivors: list[Survivor] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    zombies: Zombies = Zombies()
    playing: bool = False  # seated, loaded a deck, named as a player or took a game action
    acted: int = -1  # the last turn in which he took a game action
    spectator: bool = False
    lost: Loss | None = None

    def copy(self) -> Player:
        """A private copy for a fork of the table (names, counts and zombies are immutable):
        every field, in order, the containers copied."""
        return Player(
            self.name,
            self.seat,
            self.known,
            self.food,
            self.hand,
            Counter(self.hand_names),
            self.deck,
            list(self.discard),
            list(self.removed),
            [s.copy() for s in self.survivors],
            [Item(i.name, i.host, i.spent, i.uid) for i in self.items],
            self.zombies,
            self.playing,
            self.acted,
            self.spectator,
            self.lost,
        )

    # -- food ------------------------------------------------------------------------------

    @property
    def food_now(self) -> int | None:
        """The food total under the rules: a recorded total below 0 is 0 (R1.8)."""
        return None if self.food is None else max(0, self.food)

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

    # -- survivors and items ---------------------------------------------------------------

    def survivors_named(self, name: str) -> list[Survivor]:
        return [s for s in self.survivors if s.name == name]

    def survivor(self, uid: int) -> Survivor | None:
        return next((s for s in self.survivors if s.uid == uid), None)

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

    def items_named(self, name: str) -> list[Item]:
        return [i for i in self.items if i.name == name]

    def item_names(self) -> set[str]:
        return {i.name for i in self.items}

    def controls(self, name: str) -> bool:
        """Whether a face-up card of this name is on his part of the table."""
        return (
            any(s.name == name for s in self.survivors)
            or any(i.name == name for i in self.items)
            or self.zombies.has_named(name)
        )

    def face_up_names(self) -> set[str]:
        return {s.name for s in self.survivors} | self.item_names() | self.zombies.face_up_names()

    def could_have_lost_unseen(self) -> bool:
        """Whether he may have lost without the log showing it: only when his part of the
        table is unknown and no survivor of his is known to be in play."""
        return not self.known and not self.survivors

    # -- rotation ----------------------------------------------------------------------------

    def ready_all(self) -> None:
        """R4.1: every spent card of his is readied."""
        for survivor in self.survivors:
            survivor.spent = False
        for item in self.items:
            item.spent = False
        self.zombies = self.zombies.ready_all()

    def has_spent_cards(self) -> bool:
        return (
            any(s.spent for s in self.survivors)
            or any(i.spent for i in self.items)
            or self.zombies.any_board(lambda b: bool(b.rs or b.cs or any(u.spent for u in b.up)))
        )

    def forget(self) -> None:
        """The observer stops seeing his part of the table (an unknown saved game, a revert):
        only what is seen from now on is known (R17.8)."""
        self.known = False
        self.food = None
        self.hand = None
        self.hand_names.clear()
        self.deck = None
        self.survivors.clear()
        self.items.clear()
        self.zombies = Zombies(unknown=True)


class Table:
    """Everything about the table of one game, forked copy-on-write."""

    __slots__ = ("players", "started", "losses", "turn", "phase", "active", "_own")

    def __init__(self, *, started: bool = False) -> None:
        self.players: dict[str, Player] = {}
        self.started = started  # the setup was seen: players first seen now are known (R17.6)
        self.losses: list[Loss] = []
        self.turn = 0  # 0: setup
        self.phase = SETUP
        self.active: str | None = None
        self._own: set[str] = set()  # the players this table may write in place

    def fork(self) -> Table:
        """A copy that shares every player with this table until either changes him."""
        twin = Table.__new__(Table)
        twin.players = dict(self.players)
        twin.started, twin.losses = self.started, list(self.losses)
        twin.turn, twin.phase, twin.active = self.turn, self.phase, self.active
        twin._own = set()
        self._own.clear()
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        return self.fork()

    def edit(self, name: str) -> Player:
        """The player to change (created on first mention): this table's own copy of him."""
        if name in self._own:  # the common case: already this table's own
            return self.players[name]
        me = self.players.get(name)
        if me is None:
            me = self.players[name] = self._new_player(name)
        else:
            me = self.players[name] = me.copy()
        self._own.add(name)
        return me

    def player(self, name: str) -> Player:
        """The player, created on first mention (read only: change him through edit)."""
        me = self.players.get(name)
        return me if me is not None else self.edit(name)

    def _new_player(self, name: str) -> Player:
        known = self.started
        return Player(
            name,
            known=known,
            food=STARTING_FOOD if known else None,
            hand=0 if known else None,
            zombies=Zombies(unknown=not known),
        )

    def start(self) -> None:
        """The observer sees this game's setup: every player seen so far starts known, with
        the plugin's initial food (R17.6)."""
        self.started = True
        for name in list(self.players):
            me = self.edit(name)
            me.known, me.food, me.hand = True, STARTING_FOOD, 0
            me.hand_names.clear()
            me.zombies = Zombies()

    @property
    def order(self) -> list[str]:
        """Turn order: seat order when seats are known, else order of appearance."""
        players = self.players
        if all(p.seat is None for p in players.values()):
            return list(players)
        keyed = [(p.seat is None, p.seat or 0, i, n) for i, (n, p) in enumerate(players.items())]
        return [n for *_, n in sorted(keyed)]

    def in_game(self) -> list[Player]:
        """Players taking part who have not lost, in turn order."""
        return [
            self.players[n]
            for n in self.order
            if self.players[n].playing and self.players[n].lost is None
        ]

    def zombie_players(self) -> list[Player]:
        """This turn's zombie players (R1.1): everyone still in the game but the active one."""
        return [p for p in self.in_game() if p.name != self.active]

    def owner_of(self, actor: str, name: str, *, survivor_wounds: int | None = None) -> str:
        """Whose face-up card ``name`` is: the actor's if he has one (functions are performed
        by the controller), else the only player who has one, else the actor. A counter line
        on a survivor (``survivor_wounds``: its wounds before the line) means a copy with
        those wounds: the attacked (active) player's first in the Attack phase, then the
        actor's; players do click on each other's cards."""
        if survivor_wounds is not None:

            def fits(player: Player) -> bool:
                copies = player.survivors_named(name)
                return any(s.wounds in (None, survivor_wounds) for s in copies)

            active = self.players.get(self.active or "")
            if self.phase == "Attack" and active is not None and fits(active):
                return active.name
            if fits(self.player(actor)) or self.player(actor).controls(name):
                return actor
            fitting = [p.name for p in self.players.values() if fits(p)]
            if fitting:
                return fitting[0]
        if self.player(actor).controls(name):
            return actor
        others = [p.name for p in self.players.values() if p.controls(name)]
        return others[0] if len(others) == 1 else actor

    def lose(self, name: str, reason: str, line: int | None) -> None:
        loss = Loss(name, self.turn, line, reason)
        self.edit(name).lost = loss
        self.losses.append(loss)

    def next_in_turn_order(self, active: str) -> list[str]:
        """Who may take the turn after ``active`` (R13.2): the next player in turn order who
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
