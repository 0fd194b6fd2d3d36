"""Food lost (R1.8, R12.5): upkeep, starvation, and no other loss without card text.

Only the active player pays upkeep, at the end of his Recoup phase: 1 food, none when he has
none left (food never goes below 0); then one wound for each survivor in excess of his food.
Any other food loss needs card text (Hungry Masses). A loss nothing explains is held until
the phase ends, since a later gain in the same phase may take it back (a misclick put right
a few lines on); what is still unexplained then is a violation at its line. A food line whose
"from" value differs from the tracked total shows an unlogged change (an undo, a revert, an
edit): the total follows the log and the food rules of that player's turn become
unverifiable (R17.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import RECOUP_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import UPKEEP, scavenge_succeeds, starvation
from zcards.game.zombies import Fit
from zcards.rules.context import (
    Area,
    Context,
    Fact,
    GameEnded,
    Handler,
    PhaseBegun,
    PhaseEnded,
)

_FOOD_LINES = (Kind.SCAVENGE_FOOD, Kind.FOOD_LOSS, Kind.ABILITY_USE)  # checked at their lines
_NETTED = (Kind.SCAVENGE_FOOD, Kind.FOOD_LOSS)  # what a phase's food lines netting out voids
MAX_WOUND_LINES = 64  # wound lines of one Recoup kept to place an extra wound at its line


@dataclass(frozen=True)
class Lost:
    """Food lost that nothing explains yet."""

    amount: int
    line: int
    raw: str
    message: str
    rule: str


@dataclass(frozen=True)
class Upkeep:
    """The active player's upkeep and wounds since his food last changed (R12.5)."""

    paid: bool = False
    survivors_at_mark: int = 0
    wounds_since_mark: int = 0
    start: int | None = None  # his food when the phase began (None: not known)
    found: int = 0  # the violations found before the phase began
    line: int = 0  # the line that paid it
    rolled: int = 0  # his successful d6 rolls in the phase: the food he gains
    gains: int = 0  # the most food he may gain: a food per successful roll, and card text's
    survivors_at_start: int = 0
    wounds: tuple[tuple[int, str], ...] = ()  # his survivors' wound lines of the phase


class FoodRules(Area):
    """R1.8 and R12.5 (gains are the Scavenger's and the cards', :mod:`zcards.rules.recoup`)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.lost: dict[str, tuple[Lost, ...]] = {}
        self.upkeep = Upkeep()
        # the food of each player with a food line in this phase as the phase began (None:
        # not known, or a line of the phase took it below 0, which nothing nets out)
        self.start: dict[str, int | None] = {}

    def handlers(self) -> Mapping[type, Handler]:
        return {
            ev.StatChange: self.on_stat,
            ev.CounterChange: self.on_counter,
            ev.DiceRoll: self.on_dice,
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
            GameEnded: self.on_game_ended,
        }

    @property
    def in_turn(self) -> bool:
        return self.clock.number >= 1 and self.clock.known

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        self.lost.clear()
        self.start = {}
        if signal.phase == RECOUP_PHASE:
            active = self.table.players.get(self.clock.active or "")
            survivors = active.known_survivors() if active else 0
            self.upkeep = Upkeep(
                survivors_at_mark=survivors,
                survivors_at_start=survivors,
                start=active.food_now if active else None,
                found=len(self.findings.violations),
            )

    def on_dice(self, event: ev.DiceRoll, _: Fact) -> None:
        if self.clock.phase == RECOUP_PHASE and event.player == self.clock.active:
            wins = sum(1 for result in event.results if scavenge_succeeds(result))
            upkeep = self.upkeep
            self.upkeep = replace(upkeep, rolled=upkeep.rolled + wins, gains=upkeep.gains + wins)

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if not self.in_turn:
            return
        self._net_out(signal.phase)
        self._unexplained_losses()
        if signal.phase == RECOUP_PHASE:
            self._check_upkeep()

    def on_game_ended(self, _: GameEnded, __: Fact) -> None:
        """The log stops inside a phase: its losses nothing explained stay unexplained (the
        phase's net effect so far decides, as at its end); nothing more is owed."""
        if self.in_turn:
            self._net_out(self.clock.phase)
            self._unexplained_losses()

    def _unexplained_losses(self) -> None:
        for name, losses in self.lost.items():
            for lost in losses:
                self.check(
                    Kind.FOOD_LOSS,
                    lost.message,
                    Effect.FOOD,
                    name,
                    gain=False,
                    rule=lost.rule,
                    player=name,
                    line=lost.line,
                    text=lost.raw,
                    provisional=True,
                )
        self.lost.clear()

    # -- food lines --------------------------------------------------------------------------

    def on_stat(self, event: ev.StatChange, fact: Fact) -> None:
        me = fact.owner
        if me is None:
            return
        self.start.setdefault(me.name, event.old)
        if fact.fit is Fit.NO:
            self._resync(me.name, event)
        if not self.in_turn:
            return
        active_recoup = self.clock.phase == RECOUP_PHASE and me.name == self.clock.active
        if active_recoup:
            self.upkeep = replace(
                self.upkeep, survivors_at_mark=me.known_survivors(), wounds_since_mark=0
            )
        if fact.added < 0:
            self._loss(me.name, -fact.added, event, active_recoup)
        elif fact.added > 0:
            fact.restores = self._restore(me.name, fact.added)
            if active_recoup and self._text_feeds(me.name):
                self.upkeep = replace(self.upkeep, gains=self.upkeep.gains + fact.added)

    def _resync(self, name: str, event: ev.StatChange) -> None:
        reason = f"an unlogged change of {name}'s food before line {event.line}"
        self.start[name] = None  # what he had when the phase began is not known
        if name == self.clock.active:
            self.upkeep = replace(self.upkeep, start=None)
        self.findings.warn(
            Topic.RESYNC,
            f"{name}'s food changes from {event.old}, not from the tracked total: an unlogged "
            "change (undo, revert or edit); following the log",
            rule="R17.4",
            player=name,
        )
        self.findings.cannot_decide(
            Kind.FOOD_TOTAL, f"{name}'s food changes from {event.old}; {reason}", player=name
        )
        self.findings.doubt((Kind.FOOD_UPKEEP, Kind.SCAVENGE_FOOD, Kind.FOOD_LOSS), name, reason)

    def _loss(self, name: str, amount: int, event: ev.StatChange, active_recoup: bool) -> None:
        """What explains a loss: the upkeep, card text; the rest waits for the phase's end."""
        before, rule = max(0, event.old), "R12.5"
        if event.new < 0:
            self.start[name] = None
        if active_recoup and not self.upkeep.paid:
            self.upkeep = replace(self.upkeep, paid=True, line=event.line)
            due = min(UPKEEP, before)
            if amount <= due:
                return
            message = (
                f"{name} pays {amount} food at upkeep from {event.old}: upkeep is {due} "
                f"({UPKEEP} food, none at 0: food never goes below 0)"
            )
            amount -= due
        elif event.new < 0:
            message = f"{name}'s food goes from {event.old} to {event.new}: food never goes below 0"
            rule = "R1.8"
        elif self.clock.phase == RECOUP_PHASE and self.upkeep.paid and name == self.clock.active:
            message = f"{name} loses {amount} food after his upkeep was paid"
        elif name != self.clock.active and self.clock.phase == RECOUP_PHASE:
            message = (
                f"{name} loses {amount} food on {self.clock.active}'s turn: only the active "
                "player pays upkeep"
            )
        else:
            message = (
                f"{name} loses {amount} food in the {self.clock.phase} phase without upkeep or "
                "card text"
            )
            rule = "R1.8"
        if self.ctx.text.explain(Effect.FOOD, name, gain=False).legal:
            return
        self.lost[name] = (
            *self.lost.get(name, ()),
            Lost(amount, event.line, event.raw, message, rule),
        )

    def _restore(self, name: str, amount: int) -> int:
        """Food a gain gives back of this phase's unexplained losses (a misclick put right):
        how much of it does."""
        restored = 0
        losses = list(self.lost.get(name, ()))
        while losses and amount:
            last = losses.pop()
            back = min(last.amount, amount)
            amount -= back
            restored += back
            if back < last.amount:
                losses.append(replace(last, amount=last.amount - back))
        if restored:
            self.lost[name] = tuple(losses)
            self.findings.warn(
                Topic.CORRECTION,
                f"{name}'s food is given back {restored}: an unexplained loss of this phase "
                "taken back",
                player=name,
            )
        return restored

    def _net_out(self, phase: str) -> None:
        """A fix found by its net effect (R17.3): a player whose food lines of the phase,
        whatever their order, end where the rules take him (no change; in the active player's
        Recoup his successful rolls less the upkeep) made no food violation in it."""
        for name, start in self.start.items():
            me = self.table.players.get(name)
            food = me.food_now if me is not None else None
            if start is None or food is None:
                continue
            low, high = self._legal_net(name, start, phase)
            if not low <= food - start <= high:
                continue
            self.lost.pop(name, None)
            if self.findings.void(_NETTED, name, phase):
                self.findings.warn(
                    Topic.CORRECTION,
                    f"{name}'s food lines of this phase net to what the rules allow "
                    f"({start} to {food}): misclicks put right",
                    rule="R17.3",
                    player=name,
                )

    def _legal_net(self, name: str, start: int, phase: str) -> tuple[int, int]:
        """The least and the most a player's food may change over a phase: nothing, but in
        the active player's Recoup what his successful rolls give (and at most what card
        text adds) less the upkeep."""
        if phase != RECOUP_PHASE or name != self.clock.active:
            return 0, 0
        rolled, gains = self.upkeep.rolled, self.upkeep.gains
        return rolled - min(UPKEEP, start + rolled), gains - min(UPKEEP, start + gains)

    def _text_feeds(self, name: str) -> bool:
        """Whether card text may give ``name`` food now (asked without using it up)."""
        return self.ctx.text.explain(Effect.FOOD, name, gain=True, consume=False).legal

    def _net_unpaid(self, name: str, food: int) -> bool:
        """The phase's net effect (R17.3): whatever lines got there, the active player ends his
        Recoup with more food than his start, plus what his successful rolls and card text may
        give, minus the upkeep (none at 0), leaves."""
        start, gains = self.upkeep.start, self.upkeep.gains
        if start is None or any(
            f.player == name and f.kind in _FOOD_LINES and (f.line or 0) < self.upkeep.line
            for f in self.findings.violations[self.upkeep.found :]
        ):  # a food line before the upkeep is a violation already: that is what went wrong
            return False
        most = start + gains
        if food <= most - min(UPKEEP, most):
            return False
        self.check(
            Kind.FOOD_UPKEEP,
            f"{name} did not pay upkeep: his food goes from {start} to {food} over the Recoup "
            f"phase, which gives him at most {gains}; the upkeep is {UPKEEP} food",
            Effect.FOOD,
            name,
            gain=True,
            player=name,
            provisional=True,
        )
        # the food put back after the upkeep is that upkeep unpaid, not a gain of its own
        self.findings.void((Kind.SCAVENGE_FOOD,), name, RECOUP_PHASE, after=self.upkeep.line)
        return True

    # -- starvation (R12.5) ------------------------------------------------------------------

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if (
            self.in_turn
            and fact.survivor is not None
            and fact.owner is not None
            and fact.meaning == Meaning.WOUND
            and self.clock.phase == RECOUP_PHASE
            and fact.owner.name == self.clock.active
        ):
            upkeep, event_line = self.upkeep, (event.line, event.raw)
            self.upkeep = replace(
                upkeep,
                wounds_since_mark=upkeep.wounds_since_mark + max(0, fact.added),
                wounds=(*upkeep.wounds, event_line)[:MAX_WOUND_LINES],
            )

    def _check_upkeep(self) -> None:
        me = self.table.players.get(self.clock.active or "")
        if me is None or me.lost is not None:
            return
        food = me.food_now
        if food is None:
            self.findings.cannot_decide(
                Kind.FOOD_UPKEEP, "his food total is unknown", player=me.name
            )
            return
        if not self.upkeep.paid and food > 0:
            self.findings.violation(
                Kind.FOOD_UPKEEP,
                f"{me.name} did not pay upkeep: food stays {food} at the end of Recoup",
                player=me.name,
                provisional=True,
            )
            return
        if self._net_unpaid(me.name, food):
            return
        needed = starvation(self.upkeep.survivors_at_mark, food)
        got = self.upkeep.wounds_since_mark
        if needed <= got:
            if me.known:  # his survivors are all known: what he owes is
                self._check_extra_wounds(me.name, food)
            return
        self.check(
            Kind.FOOD_UPKEEP,
            f"{me.name} has {self.upkeep.survivors_at_mark} survivors and {food} food: "
            f"{needed} starvation wounds due, {got} given",
            Effect.FOOD,
            me.name,
            player=me.name,
            provisional=True,
        )

    def _check_extra_wounds(self, name: str, food: int) -> None:
        """Wounds of the active player's Recoup beyond the starvation he owes (counted with
        the most survivors he had at any food line of it) need card text (Father Gabriel,
        Seeping Drifter): the first one nothing explains is the violation, at its line."""
        upkeep = self.upkeep
        allowed = starvation(max(upkeep.survivors_at_mark, upkeep.survivors_at_start), food)
        for line, raw in upkeep.wounds[allowed:]:
            if self.ctx.text.explain(Effect.WOUND, name).legal:
                continue
            self.check(
                Kind.FOOD_UPKEEP,
                f"{name} has {allowed} starvation wound(s) to give with {food} food, and his "
                "survivors get more wounds in his Recoup phase than that: no fight, infection "
                "or card text wounds a survivor then",
                Effect.WOUND,
                name,
                player=name,
                line=line,
                text=raw,
                provisional=True,
            )
            return
