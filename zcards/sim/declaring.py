"""The fights of an Attack phase as the players declare them (R10.3), each made only when the
executor's ``legal`` allows it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zcards.game.actions import AssignFights, Fighting
from zcards.game.fights import Outcomes, outcomes
from zcards.game.legal_combat import fighter
from zcards.game.power import Fight, Powers
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie

Attacker = tuple[str, Zombie]  # its controller and the zombie


class Assignment:
    """The fights of one Attack phase as they are declared (R10.3): the survivor player
    assigns survivors to attackers, then the zombie players assign their leftover attackers;
    each fight is made only when the executor's ``legal`` allows the fights so far (a fight
    the rules or text forbid, Red-Eyed Reaver, Familiar Face, is never made)."""

    def __init__(
        self,
        defender: str,
        survivors: list[Survivor],
        attackers: list[Attacker],
        powers: Powers,
        allows: Callable[[AssignFights], bool] | None = None,
    ) -> None:
        self.defender = defender
        self.survivors = survivors
        self.attackers = attackers
        self.powers = powers
        self.allows = allows  # None: every fight may be made
        self._fights: dict[int, list[Attacker]] = {}
        self._blocked: set[int] = set()  # survivors the survivor player assigned
        self._outcomes: dict[tuple[int, tuple[Attacker, ...]], Outcomes] = {}

    def fight(self, survivor: Survivor, zombies: Sequence[Attacker]) -> Fight:
        return Fight(survivor, self.defender, tuple(fighter(o, z) for o, z in zombies))

    def outcomes(self, survivor: Survivor, zombies: Sequence[Attacker]) -> Outcomes:
        """What a fight may end in, worked out once per survivor and attackers: the table
        does not change while fights are declared, and players weigh the same fights often."""
        key = (survivor.uid, tuple(zombies))
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcomes[key] = outcomes(self.fight(survivor, zombies), self.powers)
        return found

    def assigned(self) -> list[Attacker]:
        return [a for fight in self._fights.values() for a in fight]

    def leftover(self, owner: str) -> list[Attacker]:
        taken = self.assigned()
        left = [a for a in self.attackers if a[0] == owner]
        for attacker in taken:
            if attacker in left:
                left.remove(attacker)
        return left

    def against(self, survivor: Survivor) -> list[Attacker]:
        return list(self._fights.get(survivor.uid, ()))

    def block(self, survivor: Survivor, attacker: Attacker) -> bool:
        """The survivor player assigns ``survivor`` to fight ``attacker`` (a new fight)."""
        if survivor.uid in self._fights:
            return False
        if self._add(survivor, attacker, blocked=True):
            self._blocked.add(survivor.uid)
            return True
        return False

    def blocked(self, survivor: Survivor) -> bool:
        """Whether the survivor player started this survivor's fight (R10.3)."""
        return survivor.uid in self._blocked

    def join(self, survivor: Survivor, attacker: Attacker) -> bool:
        """A zombie player sends a leftover attacker at ``survivor``."""
        return self._add(survivor, attacker, blocked=self.blocked(survivor))

    def _add(self, survivor: Survivor, attacker: Attacker, *, blocked: bool) -> bool:
        """Make the fight if ``legal`` allows it (the attackers are the assignment's own,
        each in one fight, so the fight is asked about alone)."""
        zombies = [*self.against(survivor), attacker]
        fight = AssignFights(self.defender, (Fighting(survivor.uid, tuple(zombies), blocked),))
        if self.allows is not None and not self.allows(fight):
            return False
        self._fights[survivor.uid] = zombies
        return True

    def declared(self) -> AssignFights:
        """The fights as the executor's action declares them."""
        return AssignFights(
            self.defender,
            tuple(
                Fighting(s.uid, tuple(self._fights[s.uid]), s.uid in self._blocked)
                for s in self.survivors
                if s.uid in self._fights
            ),
        )

    def fights(self) -> list[tuple[Survivor, list[Attacker]]]:
        return [(s, self._fights[s.uid]) for s in self.survivors if s.uid in self._fights]
