"""The audit's question about fights, as it is asked: what the log showed of each survivor
(:class:`Seen`), the attackers and what they did (:class:`Question`), and the moment it is
asked at (:class:`Moment`: what each attacker brings, worked out once for every question of
that moment). :mod:`zcards.game.assignment` answers it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from zcards.game.effects import Target, Timing
from zcards.game.fights import Outcomes, Trait, fighter_card, trait, triggers
from zcards.game.power import Fight, Fighter, Powers, Span
from zcards.game.table import Survivor


@dataclass
class Seen:
    """What the log showed of one survivor in this Attack phase."""

    survivor: Survivor
    wounds_before: int | None  # at the start of the Attack phase
    health: Span | None  # None: unknown, or not asked (the log shows him no wound)
    wounds: int = 0
    killed: bool = False
    infected: bool = False

    @property
    def has_result(self) -> bool:
        return bool(self.wounds or self.killed or self.infected)


@dataclass
class Question:
    """Attackers and what the log showed so far. ``spent``: attackers of each class seen
    spent (they lost a fight); ``loose``: how many of those card text may have spent instead
    (Kyle Bjorn). A zombie card text spends is no longer attacking (R10.1): spent before any
    fight result (``early``), it fought nowhere; spent later, it may have won a fight before
    (or fought nowhere)."""

    defender: str
    attackers: Sequence[Fighter]
    seen: Sequence[Seen]
    spent: Counter[Fighter] = field(default_factory=Counter)
    loose: int = 0
    early: Counter[Fighter] = field(default_factory=Counter)


Group = tuple[int, ...]  # how many zombies of each class of attackers are in one fight
# One survivor (uid, wounds and Infected token as the phase began) against one group.
Fought = tuple[int, int | None, bool | None, Group]


class Moment:
    """The fights at one moment (one :class:`Powers`): what each attacker brings against each
    survivor, worked out once for every question asked of that moment (each reading of the
    attackers and of the wound lines, each line tried when looking for the first one no
    assignment explains). A survivor is known by its uid, as :class:`Powers` knows him."""

    def __init__(self, powers: Powers) -> None:
        self.powers = powers
        self._weak: dict[tuple[int, str], bool] = {}
        self._traits: dict[tuple[Fighter, int, str], Trait] = {}
        self._reads_fight: dict[Fighter, bool] = {}
        self._backlash: dict[Fighter, bool] = {}
        self._outcomes: dict[tuple[str, tuple[Fighter, ...]], dict[Fought, Outcomes | None]] = {}

    def trait(self, fighter: Fighter, survivor: Survivor, defender: str) -> Trait:
        """What ``fighter`` brings to any fight with ``survivor`` when no text in it reads
        the other fighters."""
        key = (fighter, survivor.uid, defender)
        found = self._traits.get(key)
        if found is None:
            weak = self._weak.get(key[1:])
            if weak is None:
                weak = self._weak[key[1:]] = (
                    self.powers.survivor(Fight(survivor, defender, ())).hi <= 1
                )
            power = self.powers.zombie(fighter, Fight(survivor, defender, (fighter,)))
            found = self._traits[key] = trait(self.powers, fighter, power, weak=weak)
        return found

    def outcomes(
        self, defender: str, classes: tuple[Fighter, ...]
    ) -> dict[Fought, Outcomes | None]:
        """What each group of these classes of attackers fighting each survivor of
        ``defender`` can end in, as far as worked out (the same for every question with
        these attackers: it depends on the survivor, never on what the log showed)."""
        key = (defender, classes)
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcomes[key] = {}
        return found

    def reads_fight(self, fighter: Fighter) -> bool:
        """Whether the fighter's text reads who else is in its fight."""
        found = self._reads_fight.get(fighter)
        if found is None:
            info = fighter_card(self.powers, fighter)
            found = self._reads_fight[fighter] = info is not None and info.reads_fight
        return found

    def backlash(self, fighter: Fighter) -> bool:
        """Whether the fighter wounds the survivor when it loses (Unstoppable Fury)."""
        found = self._backlash.get(fighter)
        if found is None:
            info = fighter_card(self.powers, fighter)
            found = self._backlash[fighter] = info is not None and triggers(
                info, Timing.LOSES_FIGHT, Target.DEFENDER
            )
        return found
