"""The Draw phase (R5): every player still in the game draws exactly 2 cards, then discards
exactly 1. A player whose part of the table the log did not show from the start may have
lost before it (R17.9): what he fails to do is only unverifiable, unless he acted this turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import DISCARD, DRAW_PHASE, HAND
from zcards.game.effects import Effect
from zcards.game.rules import DISCARDS, DRAWS, draws_allowed
from zcards.game.table import Player
from zcards.rules.context import (
    Area,
    Context,
    Fact,
    Handler,
    PhaseBegun,
    PhaseEnded,
)


class DrawRules(Area):
    """R5.1 and R5.2."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.draws: Counter[str] = Counter()  # this Draw phase, by player
        self.discards: Counter[str] = Counter()

    def handlers(self) -> Mapping[type, Handler]:
        return {
            ev.Draw: self.on_draw,
            ev.Move: self.on_move,
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
        }

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase == DRAW_PHASE:
            self.draws.clear()
            self.discards.clear()

    def on_draw(self, event: ev.Draw, fact: Fact) -> None:
        if self.clock.number < 1 or (fact.owner is not None and fact.owner.lost is not None):
            return  # a player who lost only breaks R14.2
        if not draws_allowed(self.clock.phase):
            self.check(
                Kind.DRAW_COUNT,
                f"{event.player} draws {event.count} card(s) in the {self.clock.phase} phase "
                "(only in the Draw phase)",
                Effect.DRAW,
                event.player,
                rule="R5.3",
                player=event.player,
            )
            return
        before = self.draws[event.player]
        self.draws[event.player] += event.count
        if before <= DRAWS < self.draws[event.player]:
            self.check(
                Kind.DRAW_COUNT,
                f"{event.player} draws {self.draws[event.player]} cards in the Draw phase "
                f"(exactly {DRAWS})",
                Effect.DRAW,
                event.player,
                rule="R5.1",
                player=event.player,
            )

    def on_move(self, event: ev.Move, _: Fact) -> None:
        owner = event.src_owner or event.player
        if (
            self.clock.phase != DRAW_PHASE
            or self.clock.number < 1
            or event.src_zone != HAND
            or event.dst_zone != DISCARD
            or (event.dst_owner or event.player) != owner
        ):
            return
        self.discards[owner] += 1
        if self.discards[owner] == DISCARDS + 1:
            self.check(
                Kind.DRAW_COUNT,
                f"{owner} discards one card too many in the Draw phase (exactly {DISCARDS})",
                Effect.DISCARD,
                owner,
                rule="R5.2",
                player=owner,
            )

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        """What the players owe at the end of the Draw phase: one finding per rule for the
        phase (a skipped Draw phase is two violations, not two per player)."""
        if signal.phase != DRAW_PHASE or self.clock.number < 1:
            return
        owed: dict[str, list[tuple[Player, str]]] = {"R5.1": [], "R5.2": []}
        for me in self.table.in_game():
            if self.draws[me.name] < DRAWS:
                owed["R5.1"].append((me, f"{me.name} drew {self.draws[me.name]} cards"))
            if (discarded := self.discards[me.name]) < DISCARDS:
                said = f"{discarded or 'no'} card{'s' if discarded > 1 else ''}"
                owed["R5.2"].append((me, f"{me.name} discarded {said}"))
        for rule, found in owed.items():
            exactly = f"exactly {DRAWS if rule == 'R5.1' else DISCARDS}"
            sure = [
                (me, what)
                for me, what in found
                if not me.could_have_lost_unseen() or me.acted == self.clock.number
            ]
            if sure:
                self.findings.violation(
                    Kind.DRAW_COUNT,
                    f"{', '.join(what for _, what in sure)} in the Draw phase ({exactly})",
                    rule=rule,
                    player=sure[0][0].name if len(sure) == 1 else None,
                    provisional=True,
                )
            for me, what in found:
                if (me, what) not in sure:
                    self.findings.cannot_decide(
                        Kind.DRAW_COUNT,
                        f"{what} in the Draw phase ({exactly}); he may have lost before the "
                        "log shows",
                        rule=rule,
                        player=me.name,
                    )
