"""Death (R11.1): a survivor whose wounds reach its Health dies at once and leaves play.

The tracker marks the line whose wound reached the Health; a survivor still on the table when
that phase ends (or spent or healed meanwhile) stayed in play.
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import Meaning
from zcards.rules.context import Area, Context, Fact, Handler, PhaseEnded
from zcards.rules.state import Survivor


class DeathRules(Area):
    """R11.1."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.reported: set[int] = set()  # survivors already reported, by uid

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseEnded: self.on_phase_ended,
            ev.Perform: self.on_used,
            ev.CounterChange: self.on_used,
        }

    def on_phase_ended(self, _: PhaseEnded, __: Fact) -> None:
        for me in self.table.players.values():
            for survivor in me.survivors:
                if survivor.dead_line is not None:
                    self._stays(me.name, survivor)

    def on_used(self, _: ev.Event, fact: Fact) -> None:
        survivor = fact.survivor
        if (
            survivor is not None
            and fact.owner is not None
            and survivor.dead_line is not None
            and fact.meaning in (Meaning.SPEND, Meaning.HEAL)
            and survivor in fact.owner.survivors
        ):
            self._stays(fact.owner.name, survivor)

    def _stays(self, player: str, survivor: Survivor) -> None:
        if survivor.uid in self.reported:
            return
        self.reported.add(survivor.uid)
        self.check(
            Kind.DEAD_SURVIVOR,
            f"{survivor.name} reached its Health in wounds (line {survivor.dead_line}) but "
            "stays in play",
            "health",
            player,
            player=player,
        )
