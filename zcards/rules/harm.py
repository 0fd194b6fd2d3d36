"""Harm needs a cause: a wound that no fight, infection, starvation or card text explains, and a
survivor taken over that was not an infected survivor that died (R4.2, R10.5, R11.3, R12.5,
R16.1).

The phases that wound by rule are judged by their own areas (the Ready phase's infection
wounds, the Attack phase's fights, the Recoup's starvation); a wound in any other phase, or on a
survivor the phase's rule does not wound, stands only where card text explains it
(:func:`zcards.game.rules.wound_fault`). A take-over is judged at its line
(:func:`zcards.game.rules.take_over_fault`).
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import ATTACK_PHASE, READY_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import (
    TAKE_OVER,
    TAKE_OVER_RULE,
    WOUND_RULE,
    may_be_infected,
    take_over_fault,
    wound_fault,
)
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun


class HarmRules(Area):
    """Wounds outside the phases that wound by rule; take-overs (R11.3)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.since = 0  # the line the current phase began at

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseBegun: self.on_phase_begun,
            ev.CounterChange: self.on_counter,
            ev.Perform: self.on_take_control,
        }

    def on_phase_begun(self, _: PhaseBegun, __: Fact) -> None:
        event = self.clock.event
        self.since = event.line if event is not None else 0

    @property
    def in_turn(self) -> bool:
        return self.clock.number >= 1 and self.clock.known

    def on_counter(self, _: ev.CounterChange, fact: Fact) -> None:
        survivor, owner = fact.survivor, fact.owner
        if fact.meaning == Meaning.INFECT and fact.added > 0 and survivor is not None:
            if not may_be_infected(fact.info) and self.in_turn:
                self.findings.violation(
                    Kind.COMBAT_RESULT,
                    f"{survivor.name} gets an Infected token, but its text forbids it",
                    rule="R16.1",
                    player=owner.name if owner is not None else None,
                )
            return
        if (
            fact.meaning != Meaning.WOUND
            or fact.added <= 0
            or survivor is None
            or owner is None
            or not self.in_turn
        ):
            return
        phase = self.clock.phase
        if phase == ATTACK_PHASE:  # every wound of the Attack phase is the fights' to judge
            return
        fault = wound_fault(phase, active=owner.name == self.clock.active, by_text=False)
        if fault is None:
            return
        whose = "the active player's" if owner.name == self.clock.active else "a zombie player's"
        self.check(
            Kind.COMBAT_RESULT,
            f"{survivor.name}, {whose} survivor, is wounded in the {phase} phase: {fault}",
            Effect.WOUND,
            owner.name,
            card=survivor.name,
            rule=WOUND_RULE,
            player=owner.name,
        )

    def on_take_control(self, _: ev.Perform, fact: Fact) -> None:
        survivor, owner = fact.survivor, fact.owner
        if fact.meaning != Meaning.TAKE_CONTROL or survivor is None or owner is None:
            return
        if not self.in_turn or not owner.known:
            return
        phase = self.clock.phase
        # a fight may overwhelm a survivor it did not wound (each survivor fights at most once
        # an Attack phase); the Ready phase's infection wound is R4.2's to judge
        wounded_now = survivor.touched > self.since
        fault = take_over_fault(
            survivor.infected,
            survivor.wounds if survivor.dying is None else None,
            self.ctx.powers().health(owner.name, survivor),
            overwhelmed=(phase == ATTACK_PHASE and not wounded_now) or phase == READY_PHASE,
        )
        if fault is None:
            return
        actor = self.clock.event.player if isinstance(self.clock.event, ev.Perform) else None
        self.findings.violation(
            Kind.DEAD_SURVIVOR,
            f"{actor or 'a player'} takes control of {owner.name}'s {survivor.name}, but {fault}: "
            f"{TAKE_OVER}",
            rule=TAKE_OVER_RULE,
            player=actor,
        )
