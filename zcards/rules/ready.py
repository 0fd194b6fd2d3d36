"""The Ready phase (R4): every infected survivor gets exactly one wound.

Readying itself (R4.1) is table bookkeeping: the tracker readies the cards of a player whose
``Ready All`` line is missing, with a warning.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import READY_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import may_die
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded


class ReadyRules(Area):
    """R4.2: infection wounds."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.infected: Counter[tuple[str, str]] = Counter()  # at the start of the phase
        self.wounded: Counter[tuple[str, str]] = Counter()
        self.tokens: Counter[tuple[str, str]] = Counter()  # Infected tokens, less cures

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
            ev.CounterChange: self.on_counter,
            ev.Perform: self.on_take_control,
        }

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase != READY_PHASE:
            return
        self.infected.clear()
        self.wounded.clear()
        for me in self.table.in_game():
            for survivor in me.survivors:
                if survivor.infected:
                    self.infected[(me.name, survivor.name)] += 1
        self.tokens = Counter(self.infected)

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if self.clock.phase != READY_PHASE or fact.survivor is None or fact.owner is None:
            return
        key = (fact.owner.name, fact.survivor.name)
        if fact.meaning == Meaning.WOUND:
            self.wounded[key] += 1
            if self.wounded[key] > self.tokens[key] and self._known(fact):
                self.check(
                    Kind.INFECTION_WOUND,
                    f"{fact.survivor.name} gets a wound in the Ready phase that no Infected "
                    "token gives (one wound per infected survivor)",
                    Effect.WOUND,
                    fact.owner.name,
                    card=fact.survivor.name,
                    player=fact.owner.name,
                )
        elif fact.meaning == Meaning.CURE and self.infected[key]:
            self.infected[key] -= 1
            self.tokens[key] -= 1

    def _known(self, fact: Fact) -> bool:
        """Whether the log tells the survivor's Infected token since the phase began."""
        assert fact.survivor is not None and fact.owner is not None
        return self.clock.known and fact.owner.known and fact.survivor.infected is not None

    def on_take_control(self, _: ev.Perform, fact: Fact) -> None:
        """An infected survivor taken over in the Ready phase died of a wound, and the only
        wound of this phase is the infection's: without it (and with wounds short of his
        Health) he did not die."""
        survivor, owner = fact.survivor, fact.owner
        if (
            fact.meaning != Meaning.TAKE_CONTROL
            or self.clock.phase != READY_PHASE
            or survivor is None
            or owner is None
        ):
            return
        key = (owner.name, survivor.name)
        if self.wounded[key] >= self.infected[key]:
            return
        self.infected[key] -= 1
        health = self.ctx.powers().health(owner.name, survivor)
        if survivor.wounds is None or may_die(survivor.wounds, health):
            return
        self.findings.violation(
            Kind.INFECTION_WOUND,
            f"{survivor.name} is taken over in the Ready phase with {survivor.wounds} wound(s): "
            "the infection wound that would kill it was not given",
            player=owner.name,
        )

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase != READY_PHASE:
            return
        for (name, card), infected in self.infected.items():
            me = self.table.players[name]
            if (
                me.lost is None
                and self.wounded[(name, card)] < infected
                and me.survivors_named(card)
            ):
                self.findings.violation(
                    Kind.INFECTION_WOUND,
                    f"{card} is infected but got no wound in the Ready phase",
                    player=name,
                    provisional=True,
                )
