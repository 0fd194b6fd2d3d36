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
        rest = tuple((n, w) for n, w in self.wounds if n != name)
        return self._replace(wounds=(*rest, (name, frozenset(out))))

    def counted(self, name: str, old: int, new: int, fallback: int) -> Attack:
        """A wound (or heal) line ``old`` to ``new`` on a copy of ``name``: on every copy
        whose wounds (in each reading) are ``old``; on the tracker's choice when none is."""
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
        rest = tuple((n, w) for n, w in attack.wounds if n != name)
        return attack._replace(wounds=(*rest, (name, frozenset(out))))

    def readings_of_wounds(self) -> list[dict[int, Mark]] | None:
        """What each survivor (by uid) got, in every reading of the lines (None: too many
        to try)."""
        names = [n for n, _ in self.wounds]
        if prod(len(w) for _, w in self.wounds) > MAX_WOUND_READINGS:
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
        rest = tuple((u, r) for u, r in self.results if u != uid)
        return self._replace(results=(*rest, (uid, result)))


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


def fighter(name: str | None, owner: str, generic: bool = False) -> Fighter:
    return Fighter(name or HIDDEN, owner, generic)
