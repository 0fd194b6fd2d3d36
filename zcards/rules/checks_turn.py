"""Turn structure: turns and phases (R3), Ready (R4), Draw (R5), upkeep (R12.5), death (R11.1).

End-of-phase checks are *provisional*: taking back a phase (R3.3) voids them, and the phase
is checked again when it ends for good.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lackey_plugin.log import events as ev
from zcards.rules.cards import Effect
from zcards.rules.state import PHASES, SETUP, Survivor
from zcards.rules.violations import Kind

if TYPE_CHECKING:
    from zcards.rules.engine import Engine

    _Base = Engine
else:
    _Base = object


@dataclass
class RecoupLedger:
    """Upkeep bookkeeping for the active player (R12.5)."""

    upkeep_line: int | None = None
    survivors_at_mark: int = 0  # his survivors when his food last changed (or Recoup began)
    wounds_since_mark: int = 0


class TurnRules(_Base):
    """Turns, phases, the Ready and Draw phases, upkeep and death."""

    def _reset_turn(self) -> None:
        self.unread: list[int] = []  # unparsed lines of this turn
        self.begun: set[str] = set()  # phases this turn has entered
        self.resource_plays: Counter[str] = Counter()
        self.played_this_turn: set[str] = set()
        self.draws: Counter[str] = Counter()
        self.discards: Counter[str] = Counter()
        self.infected_at_ready: Counter[tuple[str, str]] = Counter()
        self.ready_wounds: Counter[tuple[str, str]] = Counter()
        self.readied: set[str] = set()
        self.recoup = RecoupLedger()
        self.reset_payments()
        self.reset_abilities()

    # -- turns and phases (R3) -------------------------------------------------------------

    def on_turn(self, event: ev.TurnChange) -> None:
        state = self.state
        if state.turn >= 1:
            self.end_phase(state.phase)
            if state.phase != "End":
                skipped = PHASES[PHASES.index(state.phase) + 1 :] if state.phase in PHASES else []
                self.violation(
                    Kind.PHASE_ORDER,
                    f"turn {state.turn} ends in its {state.phase} phase; "
                    f"skipped: {', '.join(skipped) or '-'}",
                    player=state.active,
                )
        elif state.phase == SETUP:
            self.end_setup(event)
        self.commit_pending()
        expected = self._next_active()
        if state.turn and event.number != state.turn + 1:
            self.warn(
                "turn-number", f"turn #{event.number} follows turn #{state.turn}", rule="R3.4"
            )
        if expected is not None and event.active != expected:
            self.warn(
                "turn-order",
                f"{event.active} takes the turn; {expected} was next",
                rule="R3.4",
                player=event.active,
            )
        state.turn, state.active, state.phase = event.number, event.active, "Ready"
        state.player(event.active).playing = True
        self._reset_turn()
        self.begin_phase("Ready")

    def _next_active(self) -> str | None:
        state = self.state
        alive = [p.name for p in state.in_game()]
        if state.active is None or not alive:
            return None
        order = state.order
        start = order.index(state.active) if state.active in order else -1
        for step in range(1, len(order) + 1):
            name = order[(start + step) % len(order)]
            if name in alive:
                return name
        return None

    def on_phase(self, event: ev.PhaseChange) -> None:
        state = self.state
        if event.old not in PHASES or event.new not in PHASES:
            self.warn("phase", f"unknown phase in {event.old} -> {event.new}; ignored")
            return
        if state.phase != event.old and event.action == "next":
            self.warn(
                "phase-sync",
                f"the log says the phase was {event.old}; tracked {state.phase}",
                rule="R3.2",
            )
            state.phase = event.old
        old, new = PHASES.index(event.old), PHASES.index(event.new)
        if event.action == "back" or (event.action != "next" and new < old):
            self.warn(
                "phase-back",
                f"moved back from {event.old} to {event.new}; replaying from there",
                rule="R3.3",
                player=event.player,
            )
            self.retract_from(new)
            state.phase = event.new
            return
        if new == old:
            return
        if new > old + 1:
            self.violation(
                Kind.PHASE_ORDER,
                f"{event.old} -> {event.new} skips {', '.join(PHASES[old + 1 : new])}",
                player=event.player,
            )
        elif new < old:
            self.violation(
                Kind.PHASE_ORDER,
                f"{event.old} -> {event.new} repeats the {event.new} phase in turn {state.turn}",
                player=event.player,
            )
        self.end_phase(event.old)
        state.phase = event.new
        self.begin_phase(event.new)

    def begin_phase(self, phase: str) -> None:
        """Start a phase's bookkeeping; entering it again after a phase was taken back keeps
        what the first pass recorded (R3.3)."""
        if phase in self.begun:
            return
        self.begun.add(phase)
        state = self.state
        if phase == "Ready":
            self.readied.clear()
            self.infected_at_ready.clear()
            self.ready_wounds.clear()
            for me in state.in_game():
                for survivor in me.survivors:
                    if survivor.infected:
                        self.infected_at_ready[(me.name, survivor.name)] += 1
        elif phase == "Draw":
            self.draws.clear()
            self.discards.clear()
        elif phase == "Build":
            self.reset_payments()
        elif phase == "Attack":
            self.begin_attack()
        elif phase == "Recoup":
            self.reset_abilities()
            active = state.players.get(state.active or "")
            self.recoup = RecoupLedger(survivors_at_mark=active.known_survivors() if active else 0)

    def end_phase(self, phase: str) -> None:
        if phase == "Ready":
            self._end_ready()
        elif phase == "Draw":
            self._end_draw()
        elif phase == "Build":
            self.settle_payments()
        elif phase == "Recoup":
            self._end_recoup()
        self.check_dead_survivors()

    # -- Ready (R4) ------------------------------------------------------------------------

    def on_perform_all(self, event: ev.PerformAll) -> None:
        me = self.state.player(event.player)
        if self.meaning_of(event) != "ready_all":
            return
        if self.state.phase != "Ready":
            self.warn(
                "ready-all", "Ready All outside the Ready phase", rule="R4.1", player=event.player
            )
        me.ready_all()
        self.readied.add(me.name)

    def _end_ready(self) -> None:
        for me in self.state.in_game():
            spent = any(s.spent for s in me.survivors) or me.zombies.any_board(
                lambda b: b.rs > 0 or b.cs > 0 or any(u.spent for u in b.up)
            )
            if spent and me.name not in self.readied:
                self.warn(
                    "ready-all",
                    f"{me.name} did not ready his spent cards; assuming he did",
                    rule="R4.1",
                    player=me.name,
                )
                me.ready_all()
        for (name, card), infected in self.infected_at_ready.items():
            me = self.state.players[name]
            if (
                me.lost is None
                and self.ready_wounds[(name, card)] < infected
                and me.survivors_named(card)
            ):
                self.violation(
                    Kind.INFECTION_WOUND,
                    f"{card} is infected but got no wound in the Ready phase",
                    player=name,
                    provisional=True,
                )

    def note_ready_wound(self, player: str, card: str, *, cured: bool = False) -> None:
        key = (player, card)
        if cured and self.infected_at_ready[key]:
            self.infected_at_ready[key] -= 1
        elif not cured:
            self.ready_wounds[key] += 1

    # -- Draw (R5) -------------------------------------------------------------------------

    def on_draw(self, event: ev.Draw) -> None:
        me = self.state.player(event.player)
        me.to_hand(event.count, None if event.hidden else event.card)
        me.from_deck(event.count)
        self.attribute_pov(event)
        if self.state.phase != "Draw":
            return
        before = self.draws[me.name]
        self.draws[me.name] += event.count
        if before <= 2 < self.draws[me.name]:
            self.check_or_doubt(
                Kind.DRAW_COUNT,
                f"{me.name} draws {self.draws[me.name]} cards in the Draw phase (exactly 2)",
                self._own_text(me.name),
                Effect.DRAW,
                rule="R5.1",
                player=me.name,
            )

    def note_discard(self, player: str) -> None:
        if self.state.phase != "Draw":
            return
        self.discards[player] += 1
        if self.discards[player] == 2:
            self.check_or_doubt(
                Kind.DRAW_COUNT,
                f"{player} discards a second card in the Draw phase (exactly 1)",
                self._own_text(player),
                Effect.DRAW,
                rule="R5.2",
                player=player,
            )

    def _end_draw(self) -> None:
        for me in self.state.in_game():
            if self.draws[me.name] < 2:
                self.violation(
                    Kind.DRAW_COUNT,
                    f"{me.name} drew {self.draws[me.name]} cards in the Draw phase (exactly 2)",
                    rule="R5.1",
                    player=me.name,
                    provisional=True,
                )
            if self.discards[me.name] == 0:
                self.violation(
                    Kind.DRAW_COUNT,
                    f"{me.name} discarded no card in the Draw phase (exactly 1)",
                    rule="R5.2",
                    player=me.name,
                    provisional=True,
                )

    def _own_text(self, player: str) -> set[str]:
        return self.state.player(player).face_up_names() | self.played_this_turn

    # -- upkeep (R12.5) --------------------------------------------------------------------

    def note_food_change(self, player: str, delta: int) -> None:
        state = self.state
        if state.phase != "Recoup" or player != state.active:
            return
        self.recoup.survivors_at_mark = state.player(player).known_survivors()
        self.recoup.wounds_since_mark = 0
        if delta == -1:
            self.recoup.upkeep_line = self.event.line if self.event is not None else None

    def note_recoup_wound(self, player: str) -> None:
        if self.state.phase == "Recoup" and player == self.state.active:
            self.recoup.wounds_since_mark += 1

    def _end_recoup(self) -> None:
        me = self.state.players.get(self.state.active or "")
        if me is None or me.lost is not None:
            return
        if me.food is None:
            self.unverifiable(Kind.FOOD_UPKEEP, "his food total is unknown", player=me.name)
            return
        if self.recoup.upkeep_line is None and me.food > 0:
            self.violation(
                Kind.FOOD_UPKEEP,
                f"{me.name} did not pay upkeep: food stays {me.food} at the end of Recoup",
                player=me.name,
                provisional=True,
            )
            return
        needed = self.recoup.survivors_at_mark - me.food
        got = self.recoup.wounds_since_mark
        if needed > got:
            self.violation(
                Kind.FOOD_UPKEEP,
                f"{me.name} has {self.recoup.survivors_at_mark} "
                f"survivors and {me.food} food: {needed} starvation wounds due, "
                f"{got} given",
                player=me.name,
                provisional=True,
            )

    # -- death (R11.1) ---------------------------------------------------------------------

    def check_dead_survivors(self) -> None:
        for me in self.state.players.values():
            for survivor in me.survivors:
                if survivor.dead_line is not None:
                    self.dead_in_play(me.name, survivor)

    def dead_in_play(self, player: str, survivor: Survivor) -> None:
        if survivor.reported:
            return
        survivor.reported = True
        self.check_or_doubt(
            Kind.DEAD_SURVIVOR,
            f"{survivor.name} reached its Health in wounds "
            f"(line {survivor.dead_line}) but stays in play",
            self._own_text(player),
            Effect.HEALTH,
            player=player,
        )
