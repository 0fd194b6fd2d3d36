"""Death (R11): a survivor whose wounds reach its Health dies at once and leaves play; an
infected one goes to the player who infected it, not to the discard pile.

The tracker marks the line whose wound reached the Health; a survivor still on the table when
that phase ends (or spent or healed meanwhile) stayed in play.
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import DISCARD, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import dies
from zcards.game.table import Survivor
from zcards.rules.context import Area, Context, Fact, Handler, PhaseEnded


class DeathRules(Area):
    """R11.1 and R11.3."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.reported: set[int] = set()  # survivors already reported, by uid

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseEnded: self.on_phase_ended,
            ev.Perform: self.on_used,
            ev.CounterChange: self.on_used,
            ev.TableToZone: self.on_leave,
        }

    def on_leave(self, event: ev.TableToZone, fact: Fact) -> None:
        """R11.3: an infected survivor that dies is taken over by the player who infected it
        (one still in the game), not put into the discard pile."""
        survivor, owner = fact.survivor, fact.owner
        if survivor is None or owner is None or survivor.infected is not True:
            return
        if event.dst_zone != DISCARD or not self.clock.known or self.clock.number < 1:
            return
        takers = [p.name for p in self.table.in_game() if p.name != owner.name]
        if survivor.infected_by is not None:
            takers = [name for name in takers if name == survivor.infected_by]
        if takers:
            self.findings.violation(
                Kind.DEAD_SURVIVOR,
                f"{survivor.name} was infected: when it dies the player who infected it takes "
                "control of it, but it goes to the discard pile",
                rule="R11.3",
                player=owner.name,
            )

    def on_phase_ended(self, _: PhaseEnded, __: Fact) -> None:
        for me in self.table.players.values():
            for survivor in me.survivors:
                if survivor.dying is not None:
                    self._stays(me.name, survivor)

    def on_used(self, _: ev.Event, fact: Fact) -> None:
        survivor = fact.survivor
        if (
            survivor is not None
            and fact.owner is not None
            and survivor.dying is not None
            and fact.meaning in (Meaning.SPEND, Meaning.HEAL)
            and survivor in fact.owner.survivors
        ):
            self._stays(fact.owner.name, survivor)

    def _stays(self, player: str, survivor: Survivor) -> None:
        if survivor.uid in self.reported:
            return
        self.reported.add(survivor.uid)
        message = (
            f"{survivor.name} reached its Health in wounds (line {survivor.dying}) but stays in "
            "play"
        )
        health = self.ctx.powers().health(player, survivor)
        if not dies(survivor.wounds or 0, health):
            self.findings.cannot_decide(
                Kind.DEAD_SURVIVOR,
                f"{message}; an item that may be attached to it raises its Health",
                player=player,
            )
            return
        self.check(Kind.DEAD_SURVIVOR, message, Effect.HEALTH, player, player=player)
