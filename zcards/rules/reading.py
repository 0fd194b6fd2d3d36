"""One reading of one game: the table, the clock, the rule areas and the dispatch table.

The :class:`Reading` feeds each line to the table tracker, then to every rule area that has a
handler for its type (the table below, built from each area's ``handlers()``). It also knows
where a game starts and where its setup ends (turn 1 may start without a turn line, R17.10),
holds back actions logged just before the phase line that makes them legal (R17.5), and can
be copied: one copy per reading still open (who took turn 1, whether two lines were a
misclick and its correction), and one per saved game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MethodType
from typing import cast

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex
from zcards.game.catalogue import Topic
from zcards.game.definition import READY_PHASE
from zcards.game.table import Table
from zcards.rules.build_phase import BuildRules
from zcards.rules.combat import CombatRules
from zcards.rules.combat_moves import CombatMoveRules
from zcards.rules.context import (
    BLANK,
    NOT_ACTION_TYPES,
    PHASES_AREA,
    TRACKER,
    Area,
    Clock,
    Context,
    GameEnded,
    Handler,
    SetupEnded,
    Signal,
    dispatch_plan,
    is_game_action,
)
from zcards.rules.corrections import LAG_TYPES, first_phase, lags
from zcards.rules.death import DeathRules
from zcards.rules.draw import DrawRules
from zcards.rules.findings import Findings, unread_of
from zcards.rules.food import FoodRules
from zcards.rules.harm import HarmRules
from zcards.rules.lines import Tracker
from zcards.rules.losing import LosingRules
from zcards.rules.opening import SetupRules
from zcards.rules.phases import PhaseRules
from zcards.rules.ready import ReadyRules
from zcards.rules.readying import ReadyingRules
from zcards.rules.recoup import RecoupRules
from zcards.rules.text import CardUses, TextLedger
from zcards.rules.window import Window

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


MAX_SAVES = 16  # saved games kept to be loaded again
MAX_ASSUMPTIONS = 8  # assumptions a reading names in its doubts


class Reading:
    """Replays the lines of one game under one reading."""

    def __init__(
        self,
        cards: CardIndex,
        window: Window,
        *,
        decks: Mapping[str, int] | None = None,
        started: bool = False,
    ) -> None:
        table = Table(started=started)
        clock = Clock(table)
        self.window = window
        self.ctx = Context(
            cards, table, clock, Findings(clock), TextLedger(cards, table), decks or {}
        )
        ctx = self.ctx
        self.areas: list[Area] = [
            Tracker(ctx),
            LosingRules(ctx),
            SetupRules(ctx),
            PhaseRules(ctx),
            CardUses(ctx),
            ReadyRules(ctx),
            DrawRules(ctx),
            BuildRules(ctx),
            CombatRules(ctx),
            FoodRules(ctx),
            RecoupRules(ctx),
            DeathRules(ctx),
            CombatMoveRules(ctx),
            HarmRules(ctx),
            ReadyingRules(ctx),
        ]
        self.deferred: list[tuple[int, ev.Event]] = []  # actions logged before their phase line
        self.saves: dict[str, Reading] = {}
        self.turn1: str | None = None  # the player this reading assumes took turn 1
        self.turn1_phase = READY_PHASE  # the phase turn 1 starts in without a turn line
        self.active_guess = 0  # turn 1: phase lines written by the assumed active player
        self.skipped: dict[int, str | None] = {}  # lines read as corrected misclicks to come:
        # index -> what an undo's warning says (None: the misclick)
        self.misclicks = 0  # pairs read as corrected misclicks
        # the pairs (by first line) this reading corrects that the readings open beside it
        # may not: undone at once, and undone later in the phase (a fix by its net effect)
        self.fixes: frozenset[int] = frozenset()
        self.late: frozenset[int] = frozenset()
        self.misnamed = 0  # turn lines read as naming the wrong player
        self.assumptions: list[str] = []  # what this reading assumes the log does not say
        self.touched = started  # the log showed something of this game
        self.index = 0  # the position of the current line in the log
        self._wire()

    @property
    def tracker(self) -> Tracker:
        return self.areas[TRACKER]  # type: ignore[return-value]

    @property
    def losing(self) -> LosingRules:
        return self.areas[1]  # type: ignore[return-value]

    @property
    def setup(self) -> SetupRules:
        return self.areas[2]  # type: ignore[return-value]

    @property
    def phases(self) -> PhaseRules:
        return self.areas[PHASES_AREA]  # type: ignore[return-value]

    def _wire(self) -> None:
        """The dispatch tables: each event type's handlers, in area order. While the clock is
        unknown (the log began mid-turn) only the turn and phase lines are followed: the
        rules wait for a turn line (R17.9); once turn 1 has begun, the setup's areas rest."""
        self.dispatch: dict[type, list[Handler]] = {}
        self.waiting: dict[type, list[Handler]] = {}
        self.playing: dict[type, list[Handler]] = {}
        areas = self.areas
        for kind, index, function, playing, waiting in dispatch_plan(areas):
            handler = MethodType(function, areas[index])
            self.dispatch.setdefault(kind, []).append(handler)
            if playing:
                self.playing.setdefault(kind, []).append(handler)
            if waiting:
                self.waiting.setdefault(kind, []).append(handler)
        self.ctx.emit = self.emit
        self.ctx.look = self.ctx.text.look = self._look
        self._read = self.tracker.read
        self._check_losses = self.losing.check_losses

    def _handlers(self) -> dict[type, list[Handler]]:
        clock = self.ctx.clock
        if not clock.known:
            return self.waiting
        return self.playing if clock.table.turn else self.dispatch

    def fork(self, *, saves: dict[str, Reading] | None = None) -> Reading:
        """Another reading from this point: the table forks copy-on-write, each area copies
        its own small bookkeeping; the lines are shared."""
        twin = Reading.__new__(Reading)
        twin.__dict__.update(self.__dict__)
        old = self.ctx
        table = old.table.fork()
        clock = Clock(table, known=old.clock.known)
        clock.event = old.clock.event
        twin.ctx = Context(
            old.cards,
            table,
            clock,
            old.findings.fork(clock),
            old.text.fork(table),
            old.decks,
            previous=old.previous,
        )
        twin.areas = [area.fork(twin.ctx) for area in self.areas]
        twin.deferred = list(self.deferred)
        twin.saves = self.saves if saves is None else saves
        twin.skipped = dict(self.skipped)
        twin.assumptions = list(self.assumptions)
        twin._wire()
        return twin

    @property
    def corrects(self) -> frozenset[int]:
        """The pairs this reading reads as fixes that readings open beside it may not."""
        return self.fixes | self.late

    @property
    def findings(self) -> Findings:
        return self.ctx.findings

    @property
    def table(self) -> Table:
        return self.ctx.table

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    def _look(self) -> Iterable[object]:
        """The lines after the current one."""
        return self.window.after(self.index)

    def emit(self, signal: Signal) -> None:
        for handler in self._handlers().get(type(signal), ()):
            handler(signal, BLANK)

    # -- where the game starts and its setup ends -------------------------------------------

    def prepare(self, event: ev.Event, index: int) -> list[str]:
        """Before a line: start the game when it shows the setup, end the setup when it is
        the first line of turn 1. Returns the players who may have taken turn 1 when it
        starts without a turn line (one replay per reading is then needed)."""
        clock, table = self.clock, self.table
        if clock.number != 0 or not clock.known or index in self.skipped:
            return []
        self.index = index
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
        self.turn1_phase = first_phase(self.window.after(index - 1))
        candidates = [p.name for p in table.in_game()]
        if len(candidates) <= 1:
            self.phases.begin_turn(1, candidates[0] if candidates else None, self.turn1_phase)
            return []
        return candidates

    def reading(self, active: str) -> Reading:
        """A copy of this replay in which ``active`` took turn 1."""
        fork = self.fork()
        fork.turn1 = active
        fork.assumptions.append(f"{active} took turn 1")
        fork.phases.begin_turn(1, active, self.turn1_phase)
        return fork

    def as_logged(self, first: int, undo: int) -> Reading:
        """This replay, reading the lines at ``first`` and ``undo`` as two real actions."""
        self.assumptions.append(
            f"lines {self._line(first)} and {self._line(undo)} are two real actions"
        )
        return self

    def corrected(self, pairs: list[tuple[int, int]], *, late: bool = False) -> Reading:
        """A copy of this replay that reads each pair of lines (an action and its undo) as a
        misclick and its correction (R17.3); ``late``: one pair, undone later in its phase."""
        fork = self.fork()
        fork.skip(pairs, late=late)
        return fork

    def skip(self, pairs: list[tuple[int, int]], *, late: bool = False) -> None:
        """Read each pair as a misclick and its correction: neither line counts."""
        for first, undo in pairs:
            self.skipped[first] = None
            self.skipped[undo] = (
                f"lines {self._line(first)} and {self._line(undo)} change the same thing and "
                "together change nothing: a misclick put right later in the phase (R17.3)"
                if late
                else f"undoes line {self._line(first)} at once: a corrected misclick (R17.3)"
            )
        self.misclicks += 1
        if late:
            self.late |= {pairs[0][0]}
        else:
            self.fixes |= {pairs[0][0]}
        if len(self.assumptions) < MAX_ASSUMPTIONS:  # a reason to read, not a history
            first, undo = pairs[0]
            self.assumptions.append(
                f"lines {self._line(first)} and {self._line(undo)} were a misclick put right"
                if late
                else f"line {self._line(first)} was a misclick corrected at once"
            )

    def _line(self, index: int) -> int:
        return getattr(self.window.get(index), "line", 0)

    def assumes(self) -> str:
        """Why a finding of this reading is only a doubt: the log allows other readings."""
        return (
            f"only if {' and '.join(self.assumptions)}, and the log allows another reading"
            if self.assumptions
            else "another reading of the log allows it"
        )

    # -- saved games (R17.8) -----------------------------------------------------------------

    def save(self, name: str | None) -> None:
        """Keep the state of this moment under ``name`` (the last :data:`MAX_SAVES` names
        only: a load of an older one is a load of an unknown game)."""
        snapshot = self.fork(saves={})
        snapshot.ctx.findings = Findings(snapshot.ctx.clock)
        self.saves.pop(name or "", None)
        self.saves[name or ""] = snapshot
        if len(self.saves) > MAX_SAVES:
            del self.saves[next(iter(self.saves))]

    def load(self, name: str | None) -> Reading:
        """The replay after loading a saved game: the state this log saved, or an unknown
        table when the log never showed it being saved."""
        saved = self.saves.get(name or "")
        if saved is None:
            self.findings.warn(
                Topic.SAVED_GAME,
                "a saved game the log never showed being saved (or one saved before the last "
                f"{MAX_SAVES} saves) was loaded: the table is unknown from here, so findings "
                "that depend on it are unverifiable",
                rule="R17.8",
            )
            for player in list(self.table.players):
                me = self.table.edit(player)
                me.forget()
                me.lost = None  # the loaded game may be from before his loss
            self.table.losses = []
            self.clock.known = False
            return self
        restored = saved.fork(saves=self.saves)
        restored.index = self.index
        restored.clock.event = self.clock.event  # findings from here are at the load line
        restored.ctx.findings = self.findings.fork(restored.ctx.clock)
        restored.findings.warn(
            Topic.SAVED_GAME,
            f"the game saved as {name} earlier in this log was loaded: replaying from there",
            rule="R17.8",
        )
        return restored

    # -- lines -------------------------------------------------------------------------------

    def feed(self, event: ev.Event, index: int) -> None:
        self.index = index
        clock = self.ctx.clock
        clock.event = event
        if self.skipped and index in self.skipped:
            message = self.skipped.pop(index)
            if message is not None:
                self.findings.warn(
                    Topic.CORRECTION,
                    message,
                    rule="R17.3",
                    player=getattr(event, "player", None),
                )
            return
        kind = type(event)
        if kind is ev.Unparsed:
            unread = unread_of(cast(ev.Unparsed, event), self.table.order)
            self.findings.unread.append(unread)
            return
        if isinstance(event, ev.GameControl) and event.action == "clear":
            self._cleared(event)
            return
        if (
            kind in LAG_TYPES
            and clock.known
            and clock.number >= 1
            and lags(event, clock.phase, self._look, self.ctx.cards)
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
            self.index = index
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
        kind = type(event)
        fact = self._read(event)
        clock = self.ctx.clock
        handlers = (
            (self.playing if clock.table.turn else self.dispatch) if clock.known else self.waiting
        )
        for handler in handlers.get(kind, ()):
            handler(event, fact)
        if kind in LOSS_TYPES:
            self._check_losses()
        if kind not in NOT_ACTION_TYPES:
            self.ctx.previous = event
            self.touched = True

    def _cleared(self, event: ev.GameControl) -> None:
        """The table cleared in the middle of a game (no deck loads follow)."""
        self.findings.warn(
            Topic.TABLE,
            "the table was cleared: what is on it is unknown from here",
            player=event.player,
        )
        for player in list(self.table.players):
            self.table.edit(player).forget()

    def finish(self) -> None:
        """The log, or this game of it, stops here (R17.7)."""
        for index, late in self.deferred:
            self.index = index
            self.clock.event = late
            self._process(late)
        self.deferred = []
        self.clock.event = None
        self.emit(GameEnded())
        self.findings.commit_pending()
