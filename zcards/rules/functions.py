"""Plugin card functions (spend, ready, counters, flip, take control) applied to the state.

A function is performed by the card's controller (docs/log-protocol.md), so the actor tells
whose card it is; the phase tells what the action means (a Build spend pays a cost, an
Attack spend by a zombie player is a lost fight, a Recoup spend of a survivor uses its
symbol). The checks themselves live in the rule mixins this module calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lackey_plugin.game import ZOMBIE_GAME, Meaning
from lackey_plugin.log import events as ev
from zcards.rules.state import Player, Survivor

if TYPE_CHECKING:
    from zcards.rules.engine import Engine

    _Base = Engine
else:
    _Base = object

_SYMBOLS = ("Medic", "Scavenger")


class FunctionRules(_Base):
    """Card functions, counters and control changes."""

    @staticmethod
    def meaning_of(event: ev.Perform | ev.PerformAll | ev.CounterChange) -> Meaning | None:
        if event.meaning is not None:
            return event.meaning
        function = ZOMBIE_GAME.card_function(event.label) or ZOMBIE_GAME.general_function(
            event.label
        )
        return function.meaning if function is not None else None

    def on_perform(self, event: ev.Perform) -> None:
        meaning = self.meaning_of(event)
        me = self.state.player(event.player)
        name = None if event.hidden else event.card
        if meaning == Meaning.SPEND:
            self.spend(me, name)
        elif meaning == Meaning.READY:
            self.ready(me, name)
        elif meaning == Meaning.FLIP:
            if name is None:
                self.warn("flip", "a card turned face down again is not identified", player=me.name)
            else:
                self.flip(me, name)
        elif meaning == Meaning.TAKE_CONTROL and name is not None:
            self.take_control(me, name)
        elif meaning is None:
            self.warn("function", f"unknown card function {event.label!r}", player=me.name)

    def on_face(self, event: ev.Face) -> None:
        me = self.state.player(event.player)
        if event.hidden:
            self.warn("flip", "a face change of an unnamed card is not identified", player=me.name)
        elif event.face_up:
            self.flip(me, event.card)
        else:
            me.zombies.turn_down(event.card)

    def on_card_action(self, event: ev.CardAction) -> None:
        if event.action == "take_control" and not event.hidden:
            self.take_control(self.state.player(event.player), event.card)

    # -- spend and ready -------------------------------------------------------------------

    def spend(self, me: Player, name: str | None) -> None:
        state = self.state
        if name is not None:
            owner = state.owner_of(me.name, name)
            if owner.survivors_named(name) and not self._zombie_meant(owner, name):
                self.spend_survivor(owner, name)
                return
            if name in owner.items:
                return
            if not owner.zombies.has_named(name):
                self.warn("table", f"{name} is spent but was not seen on the table", player=me.name)
                return
            me = owner
        attacking = state.phase == "Attack" and me.name != state.active and me.lost is None
        if attacking:
            self.attacker_spend(me, name)
        elif name is None:
            self.pay(me.name, me.zombies.spend_face_down())
        else:
            self.pay(me.name, me.zombies.spend_named(name))

    def _zombie_meant(self, owner: Player, name: str) -> bool:
        """A survivor and an ex-survivor zombie (R11.3) may share a name: a spend means the
        zombie when only it is ready, or when it is the one that can pay (Build) or fight."""
        zombie_ready = owner.zombies.any_board(
            lambda b: any(u.name == name and not u.spent for u in b.up)
        )
        if not zombie_ready:
            return False
        if not any(not s.spent for s in owner.survivors_named(name)):
            return True
        active = owner.name == self.state.active
        return (self.state.phase, active) in (("Build", True), ("Attack", False))

    def spend_survivor(self, owner: Player, name: str) -> None:
        survivor = owner.pick_survivor(name, ready=True)
        assert survivor is not None
        if survivor.dead_line is not None:
            self.dead_in_play(owner.name, survivor)
        if survivor.spent:
            return
        survivor.spent = True
        info = self.cards.get(name)
        if self.state.phase == "Recoup" and info is not None:
            symbols = frozenset(s for s in _SYMBOLS if info.has_symbol(s))
            if symbols:
                self.ability_spends.append((owner.name, symbols))

    def ready(self, me: Player, name: str | None) -> None:
        if name is None:
            me.zombies.ready_face_down()
            self.note_arrival(me, None)
            return
        owner = self.state.owner_of(me.name, name)
        survivor = owner.pick_survivor(name, ready=False)
        if survivor is not None:
            survivor.spent = False
        elif owner.zombies.ready_named(name):
            self.note_arrival(owner, name)

    # -- counters --------------------------------------------------------------------------

    def on_counter(self, event: ev.CounterChange) -> None:
        meaning = self.meaning_of(event)
        me = self.state.player(event.player)
        name = None if event.hidden else event.card
        if meaning in (Meaning.TO_COMBAT, Meaning.LEAVE_COMBAT):
            self.combat_move(me, name, to_combat=meaning == Meaning.TO_COMBAT)
            return
        if name is None or meaning not in (
            Meaning.WOUND,
            Meaning.HEAL,
            Meaning.INFECT,
            Meaning.CURE,
        ):
            return
        owner = self.state.owner_of(me.name, name)
        if meaning in (Meaning.WOUND, Meaning.HEAL):
            infected = True if self.state.phase == "Ready" else None
            survivor = owner.pick_survivor(name, wounds=event.old, infected=infected)
            if meaning == Meaning.WOUND and self.state.phase == "Attack":
                survivor = self.attack_target(owner, name, event.old) or survivor
        else:
            survivor = owner.pick_survivor(name, infected=meaning == Meaning.CURE, recent=True)
        if survivor is None:
            self.warn(
                "table", f"{event.label} on {name}, which is not a survivor in play", player=me.name
            )
            return
        if meaning == Meaning.WOUND:
            self.wound(owner, survivor, event.new, event.new - event.old)
        elif meaning == Meaning.HEAL:
            if survivor.dead_line is not None:
                self.dead_in_play(owner.name, survivor)
            survivor.wounds = max(0, event.new)
            self.check_heal(owner.name)
        else:
            survivor.infected = event.new > 0
            if meaning == Meaning.CURE and self.state.phase == "Ready":
                self.note_ready_wound(owner.name, name, cured=True)

    def wound(self, owner: Player, survivor: Survivor, new: int, added: int) -> None:
        """``added`` comes from the line itself: copies of a card are told apart by their
        wounds, and a line that fits no copy is followed anyway."""
        survivor.wounds = new
        survivor.touched = self.event.line if self.event is not None else 0
        info = self.cards.get(survivor.name)
        health = info.card.health if info is not None else None
        if health is not None and new >= health and survivor.dead_line is None:
            survivor.dead_line = self.event.line if self.event is not None else None
        phase = self.state.phase
        if phase == "Ready":
            self.note_ready_wound(owner.name, survivor.name)
        elif phase == "Attack" and added:
            self.note_attack_wound(owner, survivor, added)
        elif phase == "Recoup":
            for _ in range(added):
                self.note_recoup_wound(owner.name)

    def combat_move(self, me: Player, name: str | None, *, to_combat: bool) -> None:
        state = self.state
        if to_combat and (state.phase != "Recoup" or me.name != state.active):
            self.warn(
                "combat-move",
                f"{me.name} moves a zombie to his combat zone outside the Recoup phase of his turn",
                rule="R9.1",
                player=me.name,
            )
        if name is None or not me.zombies.has_named(name):
            me.zombies.move_face_down(to_combat=to_combat)
        else:
            me.zombies.move_named(name, to_combat=to_combat)
        if to_combat:
            self.note_arrival(me, name)

    # -- control ---------------------------------------------------------------------------

    def take_control(self, me: Player, name: str) -> None:
        """R11.3: the infecting player gains a dead infected survivor as a generic zombie."""
        holders = [
            p for p in self.state.players.values() if p is not me and p.survivors_named(name)
        ]
        if not holders:
            self.warn(
                "table",
                f"{me.name} takes control of {name}, which is not a survivor of another player",
                player=me.name,
            )
            return
        owner = holders[0]
        candidates = owner.survivors_named(name)
        survivor = next(
            (s for s in candidates if s.dead_line is not None),
            next((s for s in candidates if s.infected), candidates[0]),
        )
        carrier = next((s for s in candidates if s.infected), None)
        if not survivor.infected and carrier is not None:
            # Which copy carried the token was a guess; the death tells (R11.3).
            survivor.infected, carrier.infected = True, False
        self.survivor_leaves(owner, survivor)
        me.zombies.add_face_up(name, generic=True)
