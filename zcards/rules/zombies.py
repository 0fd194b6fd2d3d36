"""A player's zombie cards as the set of *readings* the log allows.

Face-down cards are hidden in every log, so ``Spend on a face-down card`` does not say
whether the card stood in the resource or the combat zone. The exact zone counts are known
(the orange counter logs every move to and from the combat zone); the ready/spent split
between the zones, and where an upgraded card stood, may not be. ``Zombies`` keeps every
reading (a :class:`Board`) the log is consistent with, so a check can ask "is this legal in
*some* reading?" (R17.1). Each ``Ready All`` collapses most of the uncertainty again.

Every operation returns a :class:`Fit`: every reading allowed it (``YES``), some did
(``SOME``: the readings that did not are dropped), none did (``NO``: the readings then follow
the log anyway, the lenient successor, so the replay goes on), or only a card the log has
not shown could have (``MAYBE``: the player's part of the table is not known from the start,
R17.9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from typing import NamedTuple

RES, COM = "resource", "combat"


class Up(NamedTuple):
    """A face-up zombie: its name, zone, rotation, and whether it is an ex-survivor (R11.3)."""

    name: str
    combat: bool
    spent: bool
    generic: bool = False


class Board(NamedTuple):
    """One reading: face-down counts per zone and rotation, and the face-up zombies."""

    rr: int = 0  # resource zone, ready
    rs: int = 0  # resource zone, spent
    cr: int = 0  # combat zone, ready
    cs: int = 0  # combat zone, spent
    up: tuple[Up, ...] = ()

    @property
    def face_down(self) -> int:
        return self.rr + self.rs + self.cr + self.cs

    def with_up(self, up: Iterable[Up]) -> Board:
        return self._replace(up=tuple(sorted(up)))


Step = Callable[[Board], tuple[list[Board], list[Board]]]  # (legal successors, fallbacks)


class Fit(Enum):
    """Whether the readings allow an operation; true unless no reading can (``NO``)."""

    YES = "yes"  # every reading allows it
    SOME = "some"  # some readings allow it, others do not (a hidden card's zone, say)
    MAYBE = "maybe"  # only an unseen card of an unknown table could
    NO = "no"

    def __bool__(self) -> bool:
        return self is not Fit.NO


class Zombies:
    """The readings of one player's zombie cards; ``unknown``: he may also have cards the
    log has not shown (any number, in any zone and rotation)."""

    __slots__ = ("readings", "unknown")

    def __init__(self, *, unknown: bool = False) -> None:
        self.readings: frozenset[Board] = frozenset({Board()})
        self.unknown = unknown

    def __deepcopy__(self, memo: dict[int, object]) -> Zombies:
        copy = Zombies(unknown=self.unknown)
        copy.readings = self.readings  # immutable
        return copy

    def _apply(self, step: Step) -> Fit:
        legal: set[Board] = set()
        lenient: set[Board] = set()
        every = True
        for board in self.readings:
            good, fallback = step(board)
            every = every and bool(good)
            legal.update(good)
            lenient.update(fallback)
        if legal:
            self.readings = frozenset(legal)
            return Fit.YES if every else Fit.SOME
        self.readings = frozenset(lenient or self.readings)
        return Fit.MAYBE if self.unknown else Fit.NO

    # -- face-down cards ------------------------------------------------------------------

    def add_face_down(self, *, combat: bool = False) -> None:
        """A card arrives face down and ready (a resource play, a failed scavenge)."""
        self._apply(
            lambda b: ([b._replace(cr=b.cr + 1) if combat else b._replace(rr=b.rr + 1)], [])
        )

    def spend_face_down(self, *, combat_only: bool = False) -> Fit:
        """Spend one ready face-down card (only one in the combat zone if ``combat_only``)."""
        return self._shift((("cr", "cs"),) if combat_only else (("rr", "rs"), ("cr", "cs")))

    def ready_face_down(self) -> Fit:
        return self._shift((("rs", "rr"), ("cs", "cr")))

    def move_face_down(self, *, to_combat: bool) -> Fit:
        """One face-down card changes zone, keeping its rotation."""
        if to_combat:
            return self._shift((("rr", "cr"), ("rs", "cs")))
        return self._shift((("cr", "rr"), ("cs", "rs")))

    def _shift(self, moves: tuple[tuple[str, str], ...]) -> Fit:
        """One face-down card goes from count ``source`` to count ``target``, for each
        ``(source, target)`` of ``moves`` that has a card to move: every one is a reading."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = [
                b._replace(**{source: getattr(b, source) - 1, target: getattr(b, target) + 1})
                for source, target in moves
                if getattr(b, source)
            ]
            return out, [b]

        return self._apply(step)

    def remove_face_down(self) -> Fit:
        """A face-down card leaves the table (from any zone, in any rotation)."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = [
                b._replace(**{f: getattr(b, f) - 1})
                for f in ("rr", "rs", "cr", "cs")
                if getattr(b, f)
            ]
            return out, [b]

        return self._apply(step)

    def flip_up(self, name: str) -> Fit:
        """A face-down card is turned face up as ``name``; it keeps zone and rotation (R8.2)."""

        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out = []
            for f, combat, spent in (
                ("rr", False, False),
                ("rs", False, True),
                ("cr", True, False),
                ("cs", True, True),
            ):
                if getattr(b, f):
                    nb = b._replace(**{f: getattr(b, f) - 1})
                    out.append(nb.with_up((*nb.up, Up(name, combat, spent))))
            return out, [b.with_up((*b.up, Up(name, False, False)))]

        return self._apply(step)

    # -- face-up zombies ------------------------------------------------------------------

    def add_face_up(self, name: str, *, generic: bool = False) -> None:
        """A face-up zombie arrives ready in the resource zone (played face up, R11.3)."""
        self._apply(lambda b: ([b.with_up((*b.up, Up(name, False, False, generic)))], []))

    def _named(self, name: str, change: Callable[[Board, Up], list[Board]]) -> Fit:
        def step(b: Board) -> tuple[list[Board], list[Board]]:
            out: list[Board] = []
            for up in set(b.up):
                if up.name == name:
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

    def spend_named(self, name: str, *, combat_only: bool = False) -> Fit:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, u._replace(spent=True))]
                if not u.spent and (u.combat or not combat_only)
                else []
            ),
        )

    def ready_named(self, name: str) -> Fit:
        return self._named(
            name, lambda b, u: [self._swap(b, u, u._replace(spent=False))] if u.spent else []
        )

    def move_named(self, name: str, *, to_combat: bool) -> Fit:
        return self._named(
            name,
            lambda b, u: (
                [self._swap(b, u, u._replace(combat=to_combat))] if u.combat != to_combat else []
            ),
        )

    def remove_named(self, name: str) -> Fit:
        return self._named(name, lambda b, u: [self._swap(b, u, None)])

    def turn_down(self, name: str) -> Fit:
        """A face-up zombie is turned face down again (keeps zone and rotation)."""

        def change(b: Board, u: Up) -> list[Board]:
            nb = self._swap(b, u, None)
            field = ("c" if u.combat else "r") + ("s" if u.spent else "r")
            return [nb._replace(**{field: getattr(nb, field) + 1})]

        return self._named(name, change)

    def ready_all(self) -> None:
        self.readings = frozenset(
            Board(
                b.rr + b.rs, 0, b.cr + b.cs, 0, tuple(sorted(u._replace(spent=False) for u in b.up))
            )
            for b in self.readings
        )

    # -- questions ------------------------------------------------------------------------

    def has_named(self, name: str) -> bool:
        return any(u.name == name for b in self.readings for u in b.up)

    def face_up_names(self) -> set[str]:
        return {u.name for b in self.readings for u in b.up}

    def any_board(self, predicate: Callable[[Board], bool]) -> bool:
        return any(predicate(b) for b in self.readings)

    def max_of(self, measure: Callable[[Board], int]) -> int | None:
        """The largest ``measure`` of any reading; None when unseen cards may add to it."""
        return None if self.unknown else max(measure(b) for b in self.readings)

    def merge(self, other: Zombies) -> None:
        """Keep the readings of another line of reasoning too (R17.1)."""
        self.readings |= other.readings
        self.unknown = self.unknown or other.unknown

    def sample(self) -> Board:
        """One reading (for display and for counts every reading shares)."""
        return min(self.readings)
