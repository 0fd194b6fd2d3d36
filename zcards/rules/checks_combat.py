"""The Attack phase (R10): who may fight, and whether the wounds and kills can be explained.

Fights are table drags and are not logged. What the log shows is their outcome: a zombie
player spending one of his zombies (it lost a fight, R10.6), the active player wounding or
discarding his survivors (they lost, R10.5). The checks bound what any assignment of
attackers to fights can cause, taking the most favourable reading of the hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from zcards.rules.cards import Effect
from zcards.rules.state import Player, Survivor
from zcards.rules.violations import Kind
from zcards.rules.zombies import Board, Up

if TYPE_CHECKING:
    from zcards.rules.engine import Engine

    _Base = Engine
else:
    _Base = object


@dataclass
class AttackLedger:
    """Upper bounds on the attackers of this Attack phase and what the results need."""

    power: int = 0  # the most total power the attacking zombies can have
    fierce: int = 0  # the most Fierce attackers
    needed: int = 0  # power the wounds and kills so far need, fights being disjoint
    extra: int = 0  # wounds beyond the first in a fight: each needs a Fierce attacker
    fights: dict[int, list[int]] = field(default_factory=dict)  # survivor -> [wounds, killed]
    reported: set[str] = field(default_factory=set)


class CombatRules(_Base):
    """R10: attackers and fight results."""

    def _up_power(self, up: Up) -> int:
        info = None if up.generic else self.cards.get(up.name)
        return 1 if info is None else info.power

    def _is_fierce(self, up: Up) -> bool:
        info = None if up.generic else self.cards.get(up.name)
        return info is not None and info.has_keyword("Fierce")

    def _attack_power(self, board: Board) -> int:
        return board.cr + sum(self._up_power(u) for u in board.up if u.combat and not u.spent)

    def _fierce(self, board: Board) -> int:
        return sum(1 for u in board.up if u.combat and not u.spent and self._is_fierce(u))

    def begin_attack(self) -> None:
        ledger = AttackLedger()
        for zombie_player in self.state.zombie_players():
            ledger.power += zombie_player.zombies.max_of(self._attack_power)
            ledger.fierce += zombie_player.zombies.max_of(self._fierce)
        self.attack = ledger

    def note_arrival(self, me: Player, name: str | None) -> None:
        """A zombie readied or moved into a combat zone mid-attack (card text) may fight too."""
        if self.state.phase != "Attack" or me.name == self.state.active:
            return
        up = Up(name or "", True, False, generic=name is None)
        self.attack.power += self._up_power(up)
        self.attack.fierce += int(self._is_fierce(up))

    def _zombie_side(self) -> set[str]:
        names = set(self.played_this_turn)
        for zombie_player in self.state.zombie_players():
            names |= zombie_player.face_up_names()
        return names

    # -- illegal attackers (R10.1) ---------------------------------------------------------

    def attacker_spend(self, me: Player, name: str | None) -> None:
        """A zombie player's zombie is spent in the Attack phase: it lost a fight, or was the
        target of a card that spends an attacking zombie. Either way it was attacking."""
        zombies = me.zombies
        if name is None:
            if zombies.spend_face_down(combat_only=True):
                return
            elsewhere = zombies.spend_face_down()
            what = "a face-down zombie"
        else:
            if zombies.spend_named(name, combat_only=True):
                return
            elsewhere = zombies.spend_named(name)
            what = name
        if elsewhere:
            self.check_or_doubt(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack "
                "phase, but no such ready zombie is in his combat zone",
                me.face_up_names() | self.played_this_turn,
                Effect.SPEND,
                player=me.name,
            )
        else:
            self.violation(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack "
                "phase, but every such zombie is already spent",
                player=me.name,
            )

    # -- fight results (R10.5, R10.8) ------------------------------------------------------

    def _survivor_power(self, survivor: Survivor) -> int | None:
        info = self.cards.get(survivor.name)
        return None if info is None or info.card.power is None else info.power

    def attack_target(self, owner: Player, name: str, wounds: int) -> Survivor | None:
        """Which copy of ``name`` with ``wounds`` wounds a line means, when copies differ in
        whether they already fought: a fresh fight if the attackers' power allows it, else
        another wound in a fight already lost (which needs a Fierce attacker)."""
        copies = [s for s in owner.survivors_named(name) if s.wounds == wounds]
        fresh = [s for s in copies if id(s) not in self.attack.fights]
        fought = [s for s in copies if id(s) in self.attack.fights]
        if not fresh or not fought:
            return None
        power = self._survivor_power(fresh[0]) or 0
        if self.attack.needed + power <= self.attack.power:
            return fresh[0]
        return fought[0] if self.attack.extra < self.attack.fierce else fresh[0]

    def note_attack_wound(self, owner: Player, survivor: Survivor, added: int) -> None:
        if not self._attacked(owner, survivor, "wounded"):
            return
        fight = self.attack.fights.setdefault(id(survivor), [0, 0])
        power = self._survivor_power(survivor)
        if fight == [0, 0]:
            self.attack.needed += power or 0
            self.attack.extra += added - 1
        else:
            self.attack.extra += added
        fight[0] += added
        self._check_attack(survivor, power)

    def note_kill(self, owner: Player, survivor: Survivor) -> None:
        """The survivor left play without reaching its Health: overwhelmed (R10.5)."""
        if not self._attacked(owner, survivor, "killed"):
            return
        fight = self.attack.fights.setdefault(id(survivor), [0, 0])
        power = self._survivor_power(survivor) or 0
        if fight[1]:
            return
        self.attack.needed += 2 * power - (power if fight[0] else 0)
        fight[1] = 1
        self._check_attack(survivor, power, killed=True)

    def _attacked(self, owner: Player, survivor: Survivor, what: str) -> bool:
        """Only the active player's survivors are attacked (R10.8)."""
        if owner.name == self.state.active:
            return True
        names = set(self.played_this_turn)
        for player in self.state.players.values():
            names |= player.face_up_names()
        self.check_or_doubt(
            Kind.COMBAT_RESULT,
            f"{survivor.name} of {owner.name} is {what} "
            f"in the Attack phase, but only {self.state.active}'s survivors "
            "are attacked",
            names,
            (Effect.WOUND, Effect.POWER),
            player=owner.name,
        )
        return False

    def _check_attack(self, survivor: Survivor, power: int | None, *, killed: bool = False) -> None:
        ledger = self.attack
        player = self.state.active
        if power is None:
            self.unverifiable(
                Kind.COMBAT_RESULT, f"{survivor.name} has no power in the card data", player=player
            )
            return
        if ledger.needed > ledger.power and "power" not in ledger.reported:
            ledger.reported.add("power")
            result = (
                f"killing {survivor.name} (power {power}) needs {2 * power}"
                if killed
                else f"wounding {survivor.name} (power {power}) needs {power}"
            )
            self.check_or_doubt(
                Kind.COMBAT_RESULT,
                f"{result}; the attackers have at most "
                f"{ledger.power} power for {ledger.needed} needed in all",
                self._zombie_side(),
                (Effect.POWER, Effect.WOUND),
                rule="R10.5",
                player=player,
            )
        if ledger.extra > ledger.fierce and "fierce" not in ledger.reported:
            ledger.reported.add("fierce")
            self.check_or_doubt(
                Kind.COMBAT_RESULT,
                f"{survivor.name} gets more than one wound "
                f"in a fight: {ledger.extra} extra wounds need as many Fierce "
                f"attackers, there are at most {ledger.fierce}",
                self._zombie_side(),
                Effect.WOUND,
                rule="R10.5",
                player=player,
            )
