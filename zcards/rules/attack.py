"""One Attack phase as the log shows it (R10): the attackers of each reading, the survivors
attacked, what each line showed of them (wounds and heals on which copy, deaths, Infected
tokens) and which attackers were spent, kept immutable with each result line so the line no
assignment of fights explains can be found afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import prod
from typing import NamedTuple

from zcards.game.power import Fighter
from zcards.game.table import Survivor
from zcards.game.zombies import HIDDEN


@dataclass(frozen=True)
class Result:
    """An infection the log showed on one survivor of the attacked player in this Attack
    phase (which copy a wound or death line means is a reading of its own)."""

    infected: bool = False


MAX_WOUND_READINGS = 64  # readings of which copy a wound line means, kept at once
# Ways the lines may fall on the copies of one name, kept at once. Identical copies (the same
# wounds and Infected token as the phase began, no result of their own) are one class: a
# reading says how many of them got what, not which did. Past the cap the fights are not
# judged (unverifiable, never a violation).
MAX_COPY_READINGS = 512


class Defender(NamedTuple):
    """A survivor of the attacked player as the Attack phase began."""

    uid: int
    name: str
    wounds: int | None
    infected: bool | None

    def survivor(self) -> Survivor:
        return Survivor(self.name, self.wounds, self.infected, uid=self.uid)


class Attack(NamedTuple):
    """One Attack phase as the log shows it: the attackers of each reading (None: unknown),
    what each survivor got and which attackers were spent, by fighter."""

    defender: str | None = None
    readings: tuple[tuple[Fighter, ...], ...] | None = ()
    survivors: tuple[Defender, ...] = ()  # his survivors as the phase began
    results: tuple[tuple[int, Result], ...] = ()
    wounds: tuple[tuple[str, frozenset[tuple[Mark, ...]]], ...] = ()  # card -> its readings
    spent: tuple[tuple[Fighter, int], ...] = ()
    early: tuple[tuple[Fighter, int], ...] = ()  # spent before any fight result was logged
    lines: tuple[tuple[int, str, Attack], ...] = ()  # each result line, and what it showed
    overflow: bool = False  # more than MAX_COPY_READINGS ways the lines fall on copies

    def copies(self, name: str) -> list[Defender]:
        return [d for d in self.survivors if d.name == name]

    def attributions(self, name: str) -> frozenset[tuple[Mark, ...]]:
        """Every way the wound, heal and death lines so far may fall on the copies of
        ``name``: for each copy, the wounds its fight gave it, the wounds removed since, and
        whether it left play."""
        found = dict(self.wounds).get(name)
        return found if found is not None else frozenset({(Mark(),) * len(self.copies(name))})

    def killed(self, name: str, fallback: int) -> Attack:
        """A copy of ``name`` left play: any copy still in play in each reading."""
        copies = self.copies(name)
        out = {
            _marked(marks, index, killed=True)
            for marks in self.attributions(name)
            for index in range(len(copies))
            if not marks[index].killed
        }
        if not out:
            return self
        return self._with_marks(name, out)

    def _classes(self, name: str) -> list[list[int]]:
        """The copies of ``name`` (by index) that no line can tell apart: the same wounds and
        Infected token as the phase began, and no result of their own."""
        own = {uid for uid, _ in self.results}
        groups: dict[tuple[object, ...], list[int]] = {}
        for index, copy in enumerate(self.copies(name)):
            key = (copy.wounds, copy.infected, copy.uid if copy.uid in own else None)
            groups.setdefault(key, []).append(index)
        return [group for group in groups.values() if len(group) > 1]

    def _with_marks(self, name: str, out: set[tuple[Mark, ...]]) -> Attack:
        """The ways the lines fall on ``name``'s copies, one per class of identical copies
        (their marks sorted), or the overflow past :data:`MAX_COPY_READINGS`."""
        classes = self._classes(name)
        if classes:
            out = {_canonical(marks, classes) for marks in out}
        if len(out) > MAX_COPY_READINGS:
            return self._replace(overflow=True)
        rest = tuple((n, w) for n, w in self.wounds if n != name)
        return self._replace(wounds=(*rest, (name, frozenset(out))))

    def counted(self, name: str, old: int, new: int, fallback: int) -> Attack:
        """A wound (or heal) line ``old`` to ``new`` on a copy of ``name``: on every copy
        whose wounds (in each reading) are ``old``; on the tracker's choice when none is."""
        if self.overflow:
            return self
        copies = self.copies(name)
        wounds, healed = (new - old, 0) if new > old else (0, old - new)
        out = set()
        for marks in self.attributions(name):
            for index, copy in enumerate(copies):
                mark = marks[index]
                now = None if copy.wounds is None else copy.wounds + mark.wounds - mark.healed
                if not mark.killed and now in (None, old):
                    out.add(_marked(marks, index, wounds=wounds, healed=healed))
        attack = self
        if not out:
            # No copy had those wounds: the table's guess of a copy was wrong, or a change
            # went unlogged. The tracker's copy it is, with its wounds before unknown.
            chosen = next((i for i, c in enumerate(copies) if c.uid == fallback), None)
            if chosen is None:
                return self
            out = {
                _marked(marks, chosen, wounds=wounds, healed=healed)
                for marks in self.attributions(name)
            }
            unknown = copies[chosen]._replace(wounds=None)
            attack = self._replace(
                survivors=tuple(unknown if d.uid == fallback else d for d in self.survivors)
            )
        return attack._with_marks(name, out)

    def readings_of_wounds(self) -> list[dict[int, Mark]] | None:
        """What each survivor (by uid) got, in every reading of the lines (None: too many
        to try)."""
        names = [n for n, _ in self.wounds]
        if self.overflow or prod(len(w) for _, w in self.wounds) > MAX_WOUND_READINGS:
            return None
        out = []
        for combo in product(*(sorted(w) for _, w in self.wounds)):
            per: dict[int, Mark] = {}
            for name, marks in zip(names, combo, strict=True):
                for copy, mark in zip(self.copies(name), marks, strict=True):
                    per[copy.uid] = mark
            out.append(per)
        return out or [{}]

    def result(self, uid: int) -> Result:
        return dict(self.results).get(uid, Result())

    def with_result(self, uid: int, result: Result) -> Attack:
        """A result on one copy (an Infected token): that copy leaves its class, and since
        the class's copies were alike, it may be any of them: each reading gives it, in turn,
        the mark of each copy of its class."""
        rest = tuple((u, r) for u, r in self.results if u != uid)
        attack = self._replace(results=(*rest, (uid, result)))
        copy = next((d for d in self.survivors if d.uid == uid), None)
        if copy is None or self.overflow or uid in dict(self.results):
            return attack
        copies = self.copies(copy.name)
        index = next(i for i, d in enumerate(copies) if d.uid == uid)
        group = next((g for g in self._classes(copy.name) if index in g), None)
        if group is None:
            return attack
        out = {
            _swapped(marks, index, other)
            for marks in self.attributions(copy.name)
            for other in group
        }
        return attack._with_marks(copy.name, out)


class Mark(NamedTuple):
    """What the lines of this Attack phase did to one copy of a survivor, in one reading."""

    wounds: int = 0  # wound lines (its fight's result)
    healed: int = 0  # wounds removed since
    killed: bool = False


def _marked(
    marks: tuple[Mark, ...], index: int, *, wounds: int = 0, healed: int = 0, killed: bool = False
) -> tuple[Mark, ...]:
    mark = marks[index]
    changed = Mark(mark.wounds + wounds, mark.healed + healed, mark.killed or killed)
    return (*marks[:index], changed, *marks[index + 1 :])


def _canonical(marks: tuple[Mark, ...], classes: list[list[int]]) -> tuple[Mark, ...]:
    """One order of the marks of each class of identical copies (sorted)."""
    out = list(marks)
    for group in classes:
        for index, mark in zip(group, sorted(marks[i] for i in group), strict=True):
            out[index] = mark
    return tuple(out)


def _swapped(marks: tuple[Mark, ...], one: int, other: int) -> tuple[Mark, ...]:
    out = list(marks)
    out[one], out[other] = marks[other], marks[one]
    return tuple(out)


def fighter(name: str | None, owner: str, generic: bool = False) -> Fighter:
    return Fighter(name or HIDDEN, owner, generic)
