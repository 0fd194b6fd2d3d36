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
from typing import Any, NamedTuple

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
        return self._replace(up=tuple(sorted(up)))


FIELDS = {(False, False): "rr", (False, True): "rs", (True, False): "cr", (True, True): "cs"}


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
    for (combat, spent), field in FIELDS.items():
        cards += [Zombie(name, combat, spent, False) for name in getattr(board, field)]
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


def _set(board: Board, field: str, cards: tuple[str, ...]) -> Board:
    """``board`` with the face-down cards of one field replaced."""
    changes: dict[str, Any] = {field: cards}
    return board._replace(**changes)


def _moved(board: Board, source: str, target: str, name: str) -> Board | None:
    """One face-down card (``name``, or a hidden one) from field ``source`` to ``target``."""
    picked = _pick(getattr(board, source), name)
    if picked is None:
        return None
    card, rest = picked
    moved = _set(board, source, rest)
    return _set(moved, target, _added(getattr(moved, target), card))


Step = Callable[[Board], tuple[list[Board], list[Board]]]  # (legal successors, fallbacks)


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

    def _apply(self, step: Step) -> tuple[Zombies, Fit]:
        legal: set[Board] = set()
        lenient: set[Board] = set()
        every = True
        for board in self.readings:
            good, fallback = step(board)
            every = every and bool(good)
            legal.update(good)
            lenient.update(fallback)
        if legal:
            return self._replace(readings=frozenset(legal)), Fit.YES if every else Fit.SOME
        fallen = self._replace(readings=frozenset(lenient or self.readings))
        return fallen, Fit.MAYBE if self.unknown else Fit.NO

    # -- face-down cards ------------------------------------------------------------------

    def add_face_down(self, name: str = HIDDEN, *, combat: bool = False) -> Zombies:
        """A card arrives face down and ready (a resource play, a failed scavenge)."""
        target = "cr" if combat else "rr"
        zombies, _ = self._apply(
            lambda b: ([_set(b, target, _added(getattr(b, target), name))], [])
        )
        return zombies

    def spend_face_down(
        self, name: str = HIDDEN, *, combat: bool | None = None
    ) -> tuple[Zombies, Fit]:
        """Spend one ready face-down card (of one zone, when ``combat`` says which)."""
        return self._shift(
            {(False, False): (False, True), (True, False): (True, True)}, name, combat
        )

    def ready_face_down(
        self, name: str = HIDDEN, *, combat: bool | None = None
    ) -> tuple[Zombies, Fit]:
        return self._shift(
            {(False, True): (False, False), (True, True): (True, False)}, name, combat
        )

    def move_face_down(
        self, name: str = HIDDEN, *, to_combat: bool, spent: bool | None = None
    ) -> tuple[Zombies, Fit]:
        """One face-down card changes zone, keeping its rotation (``spent`` when known)."""
        moves = {(not to_combat, r): (to_combat, r) for r in (False, True) if spent in (None, r)}
        return self._shift(moves, name, None)

    def _shift(
        self, moves: dict[tuple[bool, bool], tuple[bool, bool]], name: str, combat: bool | None
    ) -> tuple[Zombies, Fit]:
        """One face-down card goes from place ``source`` to ``target`` (zone, rotation), for
        each pair of ``moves`` in the zone ``combat`` names (any when None) that has the card:
        every one is a reading."""
        pairs = [
            (FIELDS[source], FIELDS[target])
            for source, target in moves.items()
            if combat is None or source[0] == combat
        ]

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = [m for s, t in pairs if (m := _moved(b, s, t, name)) is not None]
            return out, [b]

        return self._apply(step)

    def remove_face_down(
        self, name: str = HIDDEN, *, place: tuple[bool, bool] | None = None
    ) -> tuple[Zombies, Fit]:
        """A face-down card leaves the table (from ``place``, its zone and rotation, when
        known; else from any)."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = []
            for f in [FIELDS[place]] if place else FIELDS.values():
                picked = _pick(getattr(b, f), name)
                if picked is not None:
                    out.append(_set(b, f, picked[1]))
            return out, [b]

        return self._apply(step)

    def flip_up(self, name: str, *, place: tuple[bool, bool] | None = None) -> tuple[Zombies, Fit]:
        """A face-down card is turned face up as ``name``; it keeps zone and rotation (R8.2)."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = []
            for (combat, spent), f in [(place, FIELDS[place])] if place else FIELDS.items():
                picked = _pick(getattr(b, f), name)
                if picked is not None:
                    nb = _set(b, f, picked[1])
                    out.append(nb.with_up((*nb.up, Up(name, combat, spent))))
            return out, [b.with_up((*b.up, Up(name, False, False)))]

        return self._apply(step)

    # -- face-up zombies ------------------------------------------------------------------

    def add_face_up(self, name: str, *, generic: bool = False, spent: bool = False) -> Zombies:
        """A face-up zombie arrives in the resource zone (played face up, R11.3)."""
        zombies, _ = self._apply(
            lambda b: ([b.with_up((*b.up, Up(name, False, spent, generic)))], [])
        )
        return zombies

    def _named(
        self, name: str, change: Callable[[Board, Up], list[Board]], where: Up | None
    ) -> tuple[Zombies, Fit]:
        """``change`` applied to each face-up zombie called ``name`` (to ``where`` only, when
        the caller knows which copy he means): every one is a reading."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out: list[Board] = []
            for up in set(b.up):
                if (up == where) if where is not None else up.name == name:
                    out.extend(change(b, up))
            return out, [b]

        return self._apply(step)

    @staticmethod
    def _swap(b: Board, old: Up, new: Up | None) -> Board:
        rest = list(b.up)
        rest.remove(old)
        if new is not None:
            rest.append(new)
        return b.with_up(rest)

    def spend_named(
        self, name: str, *, combat: bool | None = None, where: Up | None = None
    ) -> tuple[Zombies, Fit]:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, u._replace(spent=True))]
                if not u.spent and combat in (None, u.combat)
                else []
            ),
            where,
        )

    def ready_named(self, name: str, *, where: Up | None = None) -> tuple[Zombies, Fit]:
        return self._named(
            name, lambda b, u: [self._swap(b, u, u._replace(spent=False))] if u.spent else [], where
        )

    def move_named(
        self, name: str, *, to_combat: bool, where: Up | None = None
    ) -> tuple[Zombies, Fit]:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, u._replace(combat=to_combat))] if u.combat != to_combat else []
            ),
            where,
        )

    def remove_named(self, name: str, *, where: Up | None = None) -> tuple[Zombies, Fit]:
        return self._named(name, lambda b, u: [self._swap(b, u, None)], where)

    def turn_down(self, name: str) -> tuple[Zombies, Fit]:
        """A face-up zombie is turned face down again (keeps zone and rotation)."""

        def change(b: Board, u: Up) -> list[Board]:
            nb = self._swap(b, u, None)
            f = FIELDS[(u.combat, u.spent)]
            return [_set(nb, f, _added(getattr(nb, f), name))]

        return self._named(name, change, None)

    def ready_all(self) -> Zombies:
        return self._replace(
            readings=frozenset(
                Board(
                    tuple(sorted(b.rr + b.rs)),
                    (),
                    tuple(sorted(b.cr + b.cs)),
                    (),
                    tuple(sorted(u._replace(spent=False) for u in b.up)),
                )
                for b in self.readings
            )
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
