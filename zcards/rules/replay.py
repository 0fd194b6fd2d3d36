"""One reading of one game: the table, the clock, the rule areas and the dispatch table.

The :class:`Replay` feeds each line to the table tracker, then to every rule area that has a
handler for its type (the table below, built from each area's ``handlers()``). It also knows
where a game starts and where its setup ends (turn 1 may start without a turn line, R17.10),
holds back actions logged just before the phase line that makes them legal (R17.5), and can
be copied: one copy per reading still open (who took turn 1, whether two lines were a
misclick and its correction), and one per saved game.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Topic
from zcards.game.definition import READY_PHASE
from zcards.rules.build_phase import BuildRules
from zcards.rules.cards import CardIndex
from zcards.rules.combat import CombatRules
from zcards.rules.context import (
    Area,
    Context,
    Fact,
    GameEnded,
    Handler,
    SetupEnded,
    Signal,
    is_game_action,
)
from zcards.rules.death import DeathRules
from zcards.rules.draw import DrawRules
from zcards.rules.excuses import CardText, CardUses
from zcards.rules.findings import Clock, Findings
from zcards.rules.losing import LosingRules
from zcards.rules.phases import PhaseRules
from zcards.rules.ready import ReadyRules
from zcards.rules.recoup import RecoupRules
from zcards.rules.setup import SetupRules
from zcards.rules.state import TableState
from zcards.rules.stream import LAG_TYPES, first_phase, lags
from zcards.rules.table import Tracker

# Lines after which someone may have lost (R14.1): his deck or survivors changed, or turn 1
# began.
LOSS_TYPES = frozenset(
    {
        ev.Draw,
        ev.Move,
        ev.Play,
        ev.TableToZone,
        ev.CardAction,
        ev.Perform,
        ev.TurnChange,
        ev.PhaseChange,
    }
)


class Replay:
    """Replays the lines of one game under one reading."""

    def __init__(
        self,
        cards: CardIndex,
        events: Sequence[object],
        *,
        decks: Mapping[str, int] | None = None,
        started: bool = False,
    ) -> None:
        clock = Clock()
        table = TableState(started=started)
        self.ctx = Context(
            cards, table, clock, Findings(clock), CardText(cards, table, clock), decks or {}, events
        )
        self.ctx.emit = self.emit
        ctx = self.ctx
        self.tracker = Tracker(ctx)
        self.setup = SetupRules(ctx)
        self.phases = PhaseRules(ctx)
        self.losing = LosingRules(ctx)
        self.areas: list[Area] = [
            self.tracker,
            self.losing,
            self.setup,
            self.phases,
            CardUses(ctx),
            ReadyRules(ctx),
            DrawRules(ctx),
            BuildRules(ctx),
            CombatRules(ctx),
            RecoupRules(ctx),
            DeathRules(ctx),
        ]
        self._wire()
        self.deferred: list[tuple[int, ev.Event]] = []  # actions logged before their phase line
        self.saves: dict[str, Replay] = {}
        self.turn1: str | None = None  # the player this reading assumes took turn 1
        self.turn1_phase = READY_PHASE  # the phase turn 1 starts in without a turn line
        self.active_guess = 0  # turn 1: phase lines written by the assumed active player
        self.skipped: dict[int, int] = {}  # corrected misclicks: line index -> first index
        self.assumptions: list[str] = []  # what this reading assumes the log does not say
        self.touched = started  # the log showed something of this game

    def _wire(self) -> None:
        """The dispatch tables: each event type's handlers, in area order. While the clock is
        unknown (the log began mid-turn) only the turn and phase lines are followed: the
        rules wait for a turn line (R17.9)."""
        self.dispatch: dict[type, list[Handler]] = {}
        self.waiting: dict[type, list[Handler]] = {}
        for area in self.areas:
            for kind, handler in area.handlers().items():
                self.dispatch.setdefault(kind, []).append(handler)
                if area is self.phases or area is self.tracker:
                    self.waiting.setdefault(kind, []).append(handler)
        self.ctx.emit = self.emit

    def __deepcopy__(self, memo: dict[int, object]) -> Replay:
        """A copy of the state; the dispatch tables are rebuilt, and the lines held (which
        never change) are shared."""
        fork = Replay.__new__(Replay)
        memo[id(self)] = fork
        for event in (self.clock.event, self.ctx.previous, *(e for _, e in self.deferred)):
            memo[id(event)] = event
        for name, value in self.__dict__.items():
            if name not in ("dispatch", "waiting"):
                setattr(fork, name, copy.deepcopy(value, memo))
        fork._wire()
        return fork

    @property
    def findings(self) -> Findings:
        return self.ctx.findings

    @property
    def table(self) -> TableState:
        return self.ctx.table

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    def emit(self, signal: Signal) -> None:
        dispatch = self.dispatch if self.clock.known else self.waiting
        for handler in dispatch.get(type(signal), ()):
            handler(signal, Fact())

    # -- where the game starts and its setup ends -------------------------------------------

    def prepare(self, event: ev.Event, index: int) -> list[str]:
        """Before a line: start the game when it shows the setup, end the setup when it is
        the first line of turn 1. Returns the players who may have taken turn 1 when it
        starts without a turn line (one replay per reading is then needed)."""
        clock, table = self.clock, self.table
        if clock.number != 0 or not clock.known or index in self.skipped:
            return []
        self.ctx.index = index
        if not is_game_action(event) and not isinstance(event, ev.DeckLoad):
            return []
        self.touched = True
        if not table.started:
            if self.setup.starts_game(event):
                table.start()
            elif self.setup.ends_setup(event):
                clock.known, clock.event = False, event
                self.findings.warn(
                    Topic.MID_GAME,
                    "the log does not show this game from its start: rules that need the table "
                    "from before it are unverifiable until the log shows it (R17.9)",
                    rule="R17.9",
                )
            return []
        if not self.setup.ends_setup(event):
            return []
        clock.event = event
        self.emit(SetupEnded())
        if isinstance(event, ev.TurnChange):
            return []
        self.turn1_phase = first_phase(self.ctx.events, index)
        candidates = [p.name for p in table.in_game()]
        if len(candidates) <= 1:
            self.phases.begin_turn(1, candidates[0] if candidates else None, self.turn1_phase)
            return []
        return candidates

    def reading(self, active: str) -> Replay:
        """A copy of this replay in which ``active`` took turn 1."""
        fork = copy.deepcopy(self, self._shared())
        fork.turn1 = active
        fork.assumptions.append(f"{active} took turn 1")
        fork.phases.begin_turn(1, active, self.turn1_phase)
        return fork

    def as_logged(self, first: int) -> Replay:
        """This replay, reading the line at ``first`` and the next one as two real actions."""
        self.assumptions.append(f"line {self._line(first)} and the next are two real actions")
        return self

    def corrected(self, pairs: list[tuple[int, int]]) -> Replay:
        """A copy of this replay that reads each pair of lines (an action and its undo) as a
        misclick and its correction (R17.3)."""
        fork = copy.deepcopy(self, self._shared())
        fork.skip(pairs)
        return fork

    def skip(self, pairs: list[tuple[int, int]]) -> None:
        """Read each pair as a misclick and its correction: neither line counts."""
        for first, undo in pairs:
            self.skipped[first] = first
            self.skipped[undo] = first
        self.assumptions.append(f"line {self._line(pairs[0][0])} was a misclick corrected at once")

    def _line(self, index: int) -> object:
        return getattr(self.ctx.events[index], "line", "?")

    def assumes(self) -> str:
        """Why a finding of this reading is only a doubt: the log allows other readings."""
        return (
            f"only if {' and '.join(self.assumptions)}, and the log allows another reading"
            if self.assumptions
            else "another reading of the log allows it"
        )

    def _shared(self) -> dict[int, object]:
        """What copies share: card data, the log, the saved games."""
        return {id(self.ctx.cards): self.ctx.cards, id(self.ctx.events): self.ctx.events}

    # -- saved games (R17.8) -----------------------------------------------------------------

    def save(self, name: str | None) -> None:
        memo = self._shared() | {id(self.saves): {}, id(self.ctx.findings): Findings(Clock())}
        self.saves[name or ""] = copy.deepcopy(self, memo)

    def load(self, name: str | None) -> Replay:
        """The replay after loading a saved game: the state this log saved, or an unknown
        table when the log never showed it being saved."""
        saved = self.saves.get(name or "")
        if saved is None:
            self.findings.warn(
                Topic.SAVED_GAME,
                "a saved game the log never showed being saved was loaded: the table is "
                "unknown from here, so findings that depend on it are unverifiable",
                rule="R17.8",
            )
            for me in self.table.players.values():
                me.forget()
            self.clock.known = False
            return self
        memo = self._shared() | {
            id(saved.saves): self.saves,
            id(saved.ctx.findings): self.ctx.findings,
        }
        restored = copy.deepcopy(saved, memo)
        restored.ctx.findings.clock = restored.clock
        restored.findings.warn(
            Topic.SAVED_GAME,
            f"the game saved as {name} earlier in this log was loaded: replaying from there",
            rule="R17.8",
        )
        return restored

    # -- lines -------------------------------------------------------------------------------

    def feed(self, event: ev.Event, index: int) -> None:
        self.ctx.index = index
        self.clock.event = event
        if index in self.skipped:
            first = self.skipped[index]
            if first != index:
                self.findings.warn(
                    Topic.CORRECTION,
                    f"undoes line {getattr(self.ctx.events[first], 'line', '?')} at once: a "
                    "corrected misclick (R17.3)",
                    rule="R17.3",
                    player=getattr(event, "player", None),
                )
            return
        if isinstance(event, ev.Unparsed):
            self.findings.unread.append(event.line)
            return
        if isinstance(event, ev.GameControl) and event.action == "clear":
            self._cleared(event)
            return
        clock = self.clock
        if (
            clock.known
            and clock.number >= 1
            and type(event) in LAG_TYPES
            and lags(event, clock.phase, self.ctx.upcoming(), self.ctx.cards)
        ):
            self.deferred.append((index, event))
            return
        self._process(event)
        if isinstance(event, ev.PhaseChange):
            if clock.number == 1 and event.player == clock.active:
                self.active_guess += 1
            self._catch_up()

    def _catch_up(self) -> None:
        """The phase line came: the actions logged before it count in the new phase."""
        deferred, self.deferred = self.deferred, []
        for index, late in deferred:
            self.ctx.index = index
            self.clock.event = late
            self.findings.warn(
                Topic.PHASE_LAG,
                f"logged before the phase line that starts the {self.clock.phase} phase; "
                f"counted in the {self.clock.phase} phase",
                rule="R17.5",
                player=getattr(late, "player", None),
            )
            self._process(late)

    def _process(self, event: ev.Event) -> None:
        fact = self.tracker.read(event)
        dispatch = self.dispatch if self.clock.known else self.waiting
        for handler in dispatch.get(type(event), ()):
            handler(event, fact)
        if type(event) in LOSS_TYPES:
            self.losing.check_losses()
        if is_game_action(event):
            self.ctx.previous = event
            self.touched = True

    def _cleared(self, event: ev.GameControl) -> None:
        """The table cleared in the middle of a game (no deck loads follow)."""
        self.findings.warn(
            Topic.TABLE,
            "the table was cleared: what is on it is unknown from here",
            player=event.player,
        )
        for me in self.table.players.values():
            me.forget()

    def finish(self) -> None:
        """The log, or this game of it, stops here (R17.7)."""
        for index, late in self.deferred:
            self.ctx.index = index
            self.clock.event = late
            self._process(late)
        self.deferred = []
        self.clock.event = None
        self.emit(GameEnded())
        self.findings.commit_pending()
