"""Readying outside the Ready phase (R4.1): only a Fast zombie as it arrives in the combat zone
(R9.2), a spend of the same phase taken back (a misclick: it paid for nothing), or card text.

A spend and a move to the combat zone are kept per card (its controller and name, or a
face-down card) for the current phase; :func:`zcards.game.rules.ready_fault` decides.
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import Meaning
from zcards.game.effects import Effect
from zcards.game.rules import READY_RULE, ready_fault
from zcards.game.zombies import Fit
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun

Key = tuple[str, str | None]  # a card: its controller and its name (None: face down)


class ReadyingRules(Area):
    """R4.1 for single ``Ready`` lines."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.spent: dict[Key, int] = {}  # spends of this phase not taken back
        self.arrived: dict[Key, int] = {}  # moves to the combat zone of this phase

    def handlers(self) -> Mapping[type, Handler]:
        return {
            ev.Perform: self.on_perform,
            ev.CounterChange: self.on_counter,
            PhaseBegun: self.on_phase_begun,
        }

    def on_phase_begun(self, _: PhaseBegun, __: Fact) -> None:
        """What an earlier phase spent or moved readies nothing now."""
        self.spent.clear()
        self.arrived.clear()

    def _key(self, fact: Fact) -> Key | None:
        owner = fact.owner
        return None if owner is None else (owner.name, fact.name)

    def on_counter(self, _: ev.CounterChange, fact: Fact) -> None:
        key = self._key(fact)
        if key is None:
            return
        if fact.meaning == Meaning.TO_COMBAT:
            self.arrived[key] = self.arrived.get(key, 0) + 1
        elif fact.meaning == Meaning.LEAVE_COMBAT and self.arrived.get(key):
            self.arrived[key] -= 1  # the move taken back

    def on_perform(self, _: ev.Perform, fact: Fact) -> None:
        key = self._key(fact)
        if key is None or self.clock.number < 1 or not self.clock.known:
            return
        if fact.meaning == Meaning.SPEND:
            self.spent[key] = self.spent.get(key, 0) + 1
        elif fact.meaning == Meaning.READY:
            self._ready(key, fact)

    def _ready(self, key: Key, fact: Fact) -> None:
        arrived, spent = self.arrived.get(key, 0), self.spent.get(key, 0)
        fault = ready_fault(self.clock.phase, fact.info, arrived=arrived > 0, spent_here=spent > 0)
        if arrived:
            self.arrived[key] = arrived - 1
            self.spent[key] = max(0, spent - 1)
        elif spent:
            self.spent[key] = spent - 1
        if fault is None or fact.fit is Fit.NO:  # nothing spent to ready: it changes nothing
            return
        player, name = key
        message = f"{player} readies {name or 'a face-down card'} in the {self.clock.phase} phase"
        if fact.fit is not Fit.YES or not (fact.owner is not None and fact.owner.known):
            self.findings.cannot_decide(
                Kind.READYING,
                f"{message}; the log does not show whether it was spent before this phase",
                rule=READY_RULE,
                player=player,
            )
            return
        self.check(
            Kind.READYING,
            f"{message}, but {fault}",
            Effect.TO_COMBAT,
            player,
            card=name,
            rule=READY_RULE,
            player=player,
        )
