"""Losing (R14): no survivors after setup, or an empty deck; and no game action afterwards.

Losing at setup (R2.5) is decided by the setup area; both write the loss on the table.
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.table import EMPTY_DECK, NO_SURVIVORS
from zcards.rules.context import ACTIONS, Area, Fact, Handler


class LosingRules(Area):
    """R14.1 and R14.2."""

    def handlers(self) -> Mapping[type, Handler]:
        return dict.fromkeys(ACTIONS, self.on_action)

    def on_action(self, event: ev.Event, _: Fact) -> None:
        if not self.table.losses:  # nobody has lost (a loss is always on the table's list)
            return
        actor = getattr(event, "player", None)
        me = self.table.players.get(actor or "")
        if me is None or me.lost is None:
            return
        when = f"on turn {me.lost.turn}" if me.lost.turn else "at setup"
        self.findings.violation(
            Kind.ACTION_AFTER_LOSS,
            f"{me.name} lost {when} ({me.lost.reason}) but acts again",
            player=me.name,
        )

    def check_losses(self) -> None:
        """R14.1, after every line: an empty deck, or no survivors once the game is under way."""
        table = self.table
        playing = table.turn >= 1 and self.clock.known
        at_risk = [
            me
            for me in table.players.values()
            if me.lost is None and (me.deck == 0 or (playing and not me.survivors))
        ]
        for me in at_risk:
            if me.deck == 0:
                table.lose(me.name, EMPTY_DECK, self._line())
            elif me.known and me.playing:
                table.lose(me.name, NO_SURVIVORS, self._line())

    def _line(self) -> int | None:
        event = self.clock.event
        return (event.line or None) if event is not None else None
