"""Turn structure (R3): turns and their order, phases and their order.

This area alone moves the clock. It announces phase and turn boundaries as the replay's own
events (:class:`PhaseEnded`, :class:`TurnBegun`, :class:`PhaseBegun`) so that every other
area does its end-of-phase work in one place. End-of-phase findings are provisional: taking
back a phase (R3.3) voids them and the phase is checked again when it ends for good.
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import PHASES, READY_PHASE
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded, TurnBegun
from zcards.rules.findings import Unread


class PhaseRules(Area):
    """R3: the phase machine, turn order and turn numbers."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.begun: set[str] = set()  # phases this turn has entered

    def handlers(self) -> Mapping[type, Handler]:
        return {ev.TurnChange: self.on_turn, ev.PhaseChange: self.on_phase}

    # -- turns (R13.2) ----------------------------------------------------------------------

    def on_turn(self, event: ev.TurnChange, _: Fact) -> None:
        clock = self.clock
        reverted = clock.known and clock.number >= 1 and event.number < clock.number
        if clock.known and clock.number >= 1 and not reverted:
            skipped = PHASES[PHASES.index(clock.phase) + 1 :] if clock.phase in PHASES else []
            if skipped:
                self.findings.violation(
                    Kind.PHASE_ORDER,
                    f"turn {clock.number} ends in its {clock.phase} phase; "
                    f"skipped: {', '.join(skipped)}",
                    player=clock.active,
                )
            self._pass_through([clock.phase, *skipped])
            if event.number != clock.number + 1:
                self.findings.warn(
                    Topic.TURN_NUMBER,
                    f"turn #{event.number} follows turn #{clock.number}",
                    rule="R13.2",
                )
            self._check_order(event)
        elif reverted:
            self.findings.warn(
                Topic.RESYNC,
                f"turn #{event.number} follows turn #{clock.number}: an unlogged change (a revert"
                " or an undo); the table is unknown from here",
                rule="R17.4",
            )
            for name in list(self.table.players):
                self.table.edit(name).forget()
        self.begin_turn(event.number, event.active, READY_PHASE)

    def _check_order(self, event: ev.TurnChange) -> None:
        active = self.clock.active
        if active is None:
            return
        allowed = self.table.next_in_turn_order(active)
        if not allowed or event.active == allowed[0]:
            return
        if event.active in allowed:
            skipped = ", ".join(allowed[: allowed.index(event.active)])
            self.findings.cannot_decide(
                Kind.TURN_ORDER,
                f"{event.active} takes the turn after {active}; {skipped} may have lost before "
                "the log shows",
                player=event.active,
            )
            return
        self.findings.violation(
            Kind.TURN_ORDER,
            f"{event.active} takes the turn; {allowed[0]} was next in turn order",
            player=event.active,
        )

    def begin_turn(self, number: int, active: str | None, phase: str) -> None:
        """A turn starts (with a turn line, or turn 1 without one, in ``phase``)."""
        clock = self.clock
        self.findings.new_turn()
        clock.number, clock.active, clock.phase, clock.known = number, active, phase, True
        if active is not None:
            self.table.edit(active).playing = True
        self.begun = set()
        self.ctx.emit(TurnBegun(number, active))
        self._begin_phase(phase)

    # -- phases (R3.1-R3.3) ----------------------------------------------------------------

    def on_phase(self, event: ev.PhaseChange, _: Fact) -> None:
        clock, findings = self.clock, self.findings
        if event.old not in PHASES or event.new not in PHASES:
            findings.warn(Topic.PHASE, f"unknown phase in {event.old} -> {event.new}; ignored")
            return
        if not clock.known:
            clock.phase = event.new  # rules wait for a turn line (R17.9)
            return
        if clock.phase not in PHASES:
            clock.phase = event.old
        old, new = PHASES.index(event.old), PHASES.index(event.new)
        tracked = PHASES.index(clock.phase)
        if event.action == "next" and tracked != old:
            if old > tracked:
                self._catch_up(event, tracked, old)
            elif new == tracked:
                return  # the same phase line again
            else:
                findings.warn(
                    Topic.PHASE_SYNC,
                    f"the log says the phase was {event.old}; tracked {clock.phase}",
                )
                clock.phase = event.old
        if event.action == "back" or (event.action != "next" and new < old):
            findings.warn(
                Topic.PHASE_BACK,
                f"moved back from {event.old} to {event.new}; replaying from there",
                rule="R3.3",
                player=event.player,
            )
            findings.retract_from(new)
            clock.phase = event.new
            self._begin_phase(event.new)
            return
        if new == old:
            return
        if new > old + 1:
            findings.violation(
                Kind.PHASE_ORDER,
                f"{event.old} -> {event.new} skips {', '.join(PHASES[old + 1 : new])}",
                player=event.player,
            )
        elif new < old:
            findings.violation(
                Kind.PHASE_ORDER,
                f"{event.old} -> {event.new} repeats the {event.new} phase in turn {clock.number}",
                player=event.player,
            )
        self._pass_through([event.old, *PHASES[old + 1 : new]] if new > old else [event.old])
        clock.phase = event.new
        self._begin_phase(event.new)

    def _pass_through(self, phases: list[str]) -> None:
        """The current phase ends, and each phase skipped begins and ends at once: what each
        owes (the Draw phase's draws, the Recoup phase's upkeep) is missing (R3.2)."""
        for index, phase in enumerate(phases):
            if index:
                self.clock.phase = phase
                self._begin_phase(phase)
            self._end_phase(phase)

    def _catch_up(self, event: ev.PhaseChange, tracked: int, old: int) -> None:
        """The log moved on without the phase lines in between (R3.2 cannot be read there):
        the phases it passed are ended unread, so their findings are only doubts."""
        self.findings.warn(
            Topic.PHASE_SYNC,
            f"the log says the phase was {event.old}; tracked {self.clock.phase}: "
            "phase lines are missing",
        )
        self.findings.unread.append(Unread(event.line, None))  # lines anyone may have written
        for index in range(tracked, old):
            self._end_phase(PHASES[index])
            self.clock.phase = PHASES[index + 1]
            self._begin_phase(PHASES[index + 1])

    def _begin_phase(self, phase: str) -> None:
        """Entering a phase again after a phase was taken back keeps what the first pass
        recorded (R3.3)."""
        if phase in self.begun:
            return
        self.begun.add(phase)
        self.ctx.emit(PhaseBegun(phase))

    def _end_phase(self, phase: str) -> None:
        self.ctx.emit(PhaseEnded(phase))
