"""A player's zombie cards: the resource and combat zones, as the set of *readings* one
observer's knowledge allows.

Face-down cards are hidden in every log, so ``Spend on a face-down card`` does not say whether
the card stood in the resource or the combat zone. A :class:`Board` is one reading: the
face-down cards per zone and rotation, and the face-up zombies. A face-down card carries its
name when the observer knows it (the simulator knows every card) and :data:`HIDDEN` when he
does not (the audit never does); an operation naming a card acts on that card, or on a hidden
one. :class:`Zombies` keeps every board the observer's knowledge is consistent with, so a
check can ask "is this legal in *some* reading?" (R17.1); each ``Ready All`` collapses most of
the uncertainty again. The simulator's zombies always have exactly one board.

Every operation returns a :class:`Fit`: every reading allowed it (``YES``), some did
(``SOME``: the others are dropped), none did (``NO``: the readings then follow the log anyway,
so the replay goes on), or only a card the log has not shown could have (``MAYBE``: the
player's part of the table is not known from the start, R17.9). ``Zombies`` is immutable:
each operation returns the new zombies with its fit, so readings share it freely.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import NamedTuple

HIDDEN = ""
"""A face-down card whose name the observer does not know."""


class Up(NamedTuple):
    """A face-up zombie: its name, zone, rotation, and whether it is an ex-survivor (R11.3)."""

    name: str
    combat: bool
    spent: bool
    generic: bool = False


class Board(NamedTuple):
    """One reading: the face-down cards per zone and rotation (sorted names), the face-up
    zombies (sorted)."""

    rr: tuple[str, ...] = ()  # resource zone, ready
    rs: tuple[str, ...] = ()  # resource zone, spent
    cr: tuple[str, ...] = ()  # combat zone, ready
    cs: tuple[str, ...] = ()  # combat zone, spent
    up: tuple[Up, ...] = ()

    @property
    def face_down(self) -> int:
        return len(self.rr) + len(self.rs) + len(self.cr) + len(self.cs)

    @property
    def controlled(self) -> int:
        """Zombies controlled: every card in the two zones."""
        return self.face_down + len(self.up)

    def attackers(self) -> list[Up]:
        """The zombies that attack (R10.1): ready in the combat zone; face-down ones as
        nameless generic zombies."""
        ready = [u for u in self.up if u.combat and not u.spent]
        return ready + [Up(HIDDEN, True, False)] * len(self.cr)

    def with_up(self, up: Iterable[Up]) -> Board:
        return Board(self.rr, self.rs, self.cr, self.cs, tuple(sorted(up)))


SLOTS = {(False, False): 0, (False, True): 1, (True, False): 2, (True, True): 3}  # Board fields


class Zombie(NamedTuple):
    """One zombie card of a board, as a player who knows the board picks it: face-down ones by
    name (:data:`HIDDEN` when he does not know it), zone and rotation."""

    name: str
    combat: bool
    spent: bool
    face_up: bool
    generic: bool = False

    @property
    def up(self) -> Up:
        return Up(self.name, self.combat, self.spent, self.generic)


def zombies_of(board: Board) -> list[Zombie]:
    """Every zombie card of a board."""
    cards = [Zombie(u.name, u.combat, u.spent, True, u.generic) for u in board.up]
    for (combat, spent), slot in SLOTS.items():
        cards += [Zombie(name, combat, spent, False) for name in _down(board, slot)]
    return cards


def _pick(cards: tuple[str, ...], name: str) -> tuple[str, tuple[str, ...]] | None:
    """The card taken from ``cards`` (``name``, else a hidden card; without a name, any one)
    and the rest; None when there is no such card."""
    for wanted in (name, HIDDEN) if name else cards[:1]:
        if wanted in cards:
            rest = list(cards)
            rest.remove(wanted)
            return wanted, tuple(rest)
    return None


def _added(cards: tuple[str, ...], name: str) -> tuple[str, ...]:
    return tuple(sorted((*cards, name)))


def _down(board: Board, slot: int) -> tuple[str, ...]:
    """The face-down cards of one field (its slot in :data:`SLOTS`)."""
    return board[slot]  # type: ignore[return-value]


def _set(board: Board, slot: int, cards: tuple[str, ...]) -> Board:
    """``board`` with the face-down cards of one field (its slot in :data:`SLOTS`) replaced."""
    rr, rs, cr, cs, up = board
    if slot == 0:
        return Board(cards, rs, cr, cs, up)
    if slot == 1:
        return Board(rr, cards, cr, cs, up)
    if slot == 2:
        return Board(rr, rs, cards, cs, up)
    return Board(rr, rs, cr, cards, up)


def _moved(board: Board, source: int, target: int, name: str) -> Board | None:
    """One face-down card (``name``, or a hidden one) from slot ``source`` to ``target``."""
    picked = _pick(_down(board, source), name)
    if picked is None:
        return None
    card, rest = picked
    moved = _set(board, source, rest)
    return _set(moved, target, _added(_down(moved, target), card))


# Face-down cards spent or readied, (source, target) slots, in one zone (True: combat) or any.
_SPENDS = {None: ((0, 1), (2, 3)), False: ((0, 1),), True: ((2, 3),)}
_READIES = {None: ((1, 0), (3, 2)), False: ((1, 0),), True: ((3, 2),)}
_DRAGGED = ((0, 3),)  # ready in the resource zone -> spent in the combat zone

Step = Callable[[Board], list[Board]]  # a board's legal successors
Fallback = Callable[[Board], list[Board]]  # a board's successors when the step had none


class Fit(Enum):
    """Whether the readings allow an operation; true unless no reading can (``NO``)."""

    YES = "yes"
    SOME = "some"
    MAYBE = "maybe"
    NO = "no"

    def __bool__(self) -> bool:
        return self is not Fit.NO


class Zombies(NamedTuple):
    """The readings of one player's zombie cards; ``unknown``: he may also have cards the log
    has not shown (any number, in any zone and rotation)."""

    readings: frozenset[Board] = frozenset({Board()})
    unknown: bool = False

    def _apply(self, step: Step, fallback: Fallback | None = None) -> tuple[Zombies, Fit]:
        """Every reading's successors; when none has any, the ``fallback`` ones (the log
        is followed anyway: the boards stay as they were, unless told otherwise)."""
        if len(self.readings) == 1:  # the common case: one reading
            (board,) = self.readings
            good = step(board)
            if good:
                return Zombies(frozenset(good), self.unknown), Fit.YES
            fallen = frozenset(fallback(board)) if fallback is not None else self.readings
            return Zombies(fallen, self.unknown), Fit.MAYBE if self.unknown else Fit.NO
        legal: set[Board] = set()
        every = True
        for board in self.readings:
            good = step(board)
            every = every and bool(good)
            legal.update(good)
        if legal:
            return Zombies(frozenset(legal), self.unknown), Fit.YES if every else Fit.SOME
        if fallback is not None:
            fallen = frozenset(b for board in self.readings for b in fallback(board))
        else:
            fallen = self.readings
        return Zombies(fallen, self.unknown), Fit.MAYBE if self.unknown else Fit.NO

    # -- face-down cards ------------------------------------------------------------------

    def add_face_down(self, name: str = HIDDEN, *, combat: bool = False) -> Zombies:
        """A card arrives face down and ready (a resource play, a failed scavenge)."""
        target = SLOTS[(combat, False)]
        zombies, _ = self._apply(lambda b: [_set(b, target, _added(_down(b, target), name))])
        return zombies

    def spend_face_down(
        self, name: str = HIDDEN, *, combat: bool | None = None, dragged: bool = False
    ) -> tuple[Zombies, Fit]:
        """Spend one ready face-down card (of one zone, when ``combat`` says which);
        ``dragged``: it may also have been moved to the combat zone as it was spent (a drag
        on the table, which the log does not show)."""
        return self._shift(_SPENDS[combat] + (_DRAGGED if dragged else ()), name)

    def ready_face_down(
        self, name: str = HIDDEN, *, combat: bool | None = None
    ) -> tuple[Zombies, Fit]:
        return self._shift(_READIES[combat], name)

    def move_face_down(
        self, name: str = HIDDEN, *, to_combat: bool, spent: bool | None = None
    ) -> tuple[Zombies, Fit]:
        """One face-down card changes zone, keeping its rotation (``spent`` when known)."""
        pairs = tuple(
            (SLOTS[(not to_combat, r)], SLOTS[(to_combat, r)])
            for r in (False, True)
            if spent in (None, r)
        )
        return self._shift(pairs, name)

    def _shift(self, pairs: tuple[tuple[int, int], ...], name: str) -> tuple[Zombies, Fit]:
        """One face-down card goes from slot ``source`` to ``target``, for each pair that has
        the card: every one is a reading."""

        def step(b: Board) -> list[Board]:
            return [m for s, t in pairs if (m := _moved(b, s, t, name)) is not None]

        return self._apply(step)

    def remove_face_down(
        self, name: str = HIDDEN, *, place: tuple[bool, bool] | None = None
    ) -> tuple[Zombies, Fit]:
        """A face-down card leaves the table (from ``place``, its zone and rotation, when
        known; else from any)."""

        def step(b: Board) -> list[Board]:
            out = []
            for f in [SLOTS[place]] if place else SLOTS.values():
                picked = _pick(_down(b, f), name)
                if picked is not None:
                    out.append(_set(b, f, picked[1]))
            return out

        return self._apply(step)

    def flip_up(self, name: str, *, place: tuple[bool, bool] | None = None) -> tuple[Zombies, Fit]:
        """A face-down card is turned face up as ``name``; it keeps zone and rotation (R8.2)."""

        def step(b: Board) -> list[Board]:
            out = []
            for (combat, spent), f in [(place, SLOTS[place])] if place else SLOTS.items():
                picked = _pick(_down(b, f), name)
                if picked is not None:
                    nb = _set(b, f, picked[1])
                    out.append(nb.with_up((*nb.up, Up(name, combat, spent))))
            return out

        return self._apply(step, lambda b: [b.with_up((*b.up, Up(name, False, False)))])

    # -- face-up zombies ------------------------------------------------------------------

    def add_face_up(self, name: str, *, generic: bool = False, spent: bool = False) -> Zombies:
        """A face-up zombie arrives in the resource zone (played face up, R11.3)."""
        zombies, _ = self._apply(lambda b: [b.with_up((*b.up, Up(name, False, spent, generic)))])
        return zombies

    def _named(
        self, name: str, change: Callable[[Board, Up], list[Board]], where: Up | None
    ) -> tuple[Zombies, Fit]:
        """``change`` applied to each face-up zombie called ``name`` (to ``where`` only, when
        the caller knows which copy he means): every one is a reading."""

        def step(b: Board) -> list[Board]:
            out: list[Board] = []
            done: set[Up] = set()
            for up in b.up:
                if up in done or (up != where if where is not None else up.name != name):
                    continue
                done.add(up)
                out.extend(change(b, up))
            return out

        return self._apply(step)

    @staticmethod
    def _swap(b: Board, old: Up, new: Up | None) -> Board:
        rest = list(b.up)
        rest.remove(old)
        if new is not None:
            rest.append(new)
        return b.with_up(rest)

    def spend_named(
        self,
        name: str,
        *,
        combat: bool | None = None,
        where: Up | None = None,
        dragged: bool = False,
    ) -> tuple[Zombies, Fit]:
        """Spend a face-up zombie; ``dragged``: one in the resource zone may also have been
        moved to the combat zone as it was spent (a drag the log does not show)."""

        def change(b: Board, u: Up) -> list[Board]:
            if u.spent or combat not in (None, u.combat):
                return []
            out = [self._swap(b, u, Up(u.name, u.combat, True, u.generic))]
            if dragged and not u.combat:
                out.append(self._swap(b, u, Up(u.name, True, True, u.generic)))
            return out

        return self._named(name, change, where)

    def ready_named(self, name: str, *, where: Up | None = None) -> tuple[Zombies, Fit]:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, Up(u.name, u.combat, False, u.generic))] if u.spent else []
            ),
            where,
        )

    def move_named(
        self, name: str, *, to_combat: bool, where: Up | None = None
    ) -> tuple[Zombies, Fit]:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, Up(u.name, to_combat, u.spent, u.generic))]
                if u.combat != to_combat
                else []
            ),
            where,
        )

    def remove_named(self, name: str, *, where: Up | None = None) -> tuple[Zombies, Fit]:
        return self._named(name, lambda b, u: [self._swap(b, u, None)], where)

    def turn_down(self, name: str) -> tuple[Zombies, Fit]:
        """A face-up zombie is turned face down again (keeps zone and rotation)."""

        def change(b: Board, u: Up) -> list[Board]:
            nb = self._swap(b, u, None)
            f = SLOTS[(u.combat, u.spent)]
            return [_set(nb, f, _added(_down(nb, f), name))]

        return self._named(name, change, None)

    def ready_all(self) -> Zombies:
        return Zombies(
            frozenset(
                Board(
                    tuple(sorted(b.rr + b.rs)),
                    (),
                    tuple(sorted(b.cr + b.cs)),
                    (),
                    tuple(sorted(Up(u.name, u.combat, False, u.generic) for u in b.up)),
                )
                for b in self.readings
            ),
            self.unknown,
        )

    # -- questions ------------------------------------------------------------------------

    def has_named(self, name: str) -> bool:
        return any(u.name == name for b in self.readings for u in b.up)

    def face_up_names(self) -> set[str]:
        return {u.name for b in self.readings for u in b.up}

    def any_board(self, predicate: Callable[[Board], bool]) -> bool:
        return any(predicate(b) for b in self.readings)

    def merged(self, other: Zombies) -> Zombies:
        """The readings of another line of reasoning too (R17.1)."""
        return Zombies(self.readings | other.readings, self.unknown or other.unknown)

    @property
    def board(self) -> Board:
        """One reading (the simulator's only one; for display and for counts every reading
        shares)."""
        return min(self.readings)
