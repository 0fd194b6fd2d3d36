"""What the rule areas share: the table, the clock, the findings, card data and text, and
the replay's own events (phase and turn boundaries) next to the log's.

A rule area is a class with a ``handlers()`` table (event type -> method); the replay calls
every area's handler for each event, the table tracker first. Areas read the shared table
and clock but keep their own bookkeeping to themselves, in plain containers of immutable
values keyed by names and card uids (never by the table's objects), so a reading forks by
copying those containers (:meth:`Area.fork`) and the table copy-on-write. What a line
*means* on the table (which copy of a survivor, whether a ready zombie could be spent) comes
from the tracker as a :class:`Fact`, so every area reads a line the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MethodType
from typing import TYPE_CHECKING, Any

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex, CardInfo
from zcards.game.catalogue import Kind, kind_info
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.game.effects import Effect, Target
from zcards.game.power import Powers
from zcards.game.table import SETUP, Player, Survivor, Table
from zcards.game.zombies import Fit
from zcards.rules.findings import Findings

if TYPE_CHECKING:
    from zcards.rules.text import TextLedger


class Clock:
    """Where a reading is: the table's turn, phase and active player; whether the log lets
    the rules read them (``known``: False while they wait for a turn line, R17.9); and the
    line being replayed."""

    __slots__ = ("table", "known", "event")

    def __init__(self, table: Table, *, known: bool = True) -> None:
        self.table = table
        self.known = known
        self.event: ev.Event | None = None

    @property
    def number(self) -> int:
        return self.table.turn

    @number.setter
    def number(self, value: int) -> None:
        self.table.turn = value

    @property
    def phase(self) -> str:
        return self.table.phase

    @phase.setter
    def phase(self, value: str) -> None:
        self.table.phase = value

    @property
    def active(self) -> str | None:
        return self.table.active

    @active.setter
    def active(self, value: str | None) -> None:
        self.table.active = value

    @property
    def in_setup(self) -> bool:
        return self.table.phase == SETUP


# -- the replay's own events ---------------------------------------------------------------


@dataclass(frozen=True)
class PhaseBegun:
    phase: str


@dataclass(frozen=True)
class PhaseEnded:
    phase: str


@dataclass(frozen=True)
class TurnBegun:
    number: int
    active: str | None


@dataclass(frozen=True)
class SetupEnded:
    """The first line of turn 1 (a turn, phase or turn-action line) ends the setup."""


@dataclass(frozen=True)
class GameEnded:
    """The log, or this game of it, stops here: nothing more is due (R17.7)."""


Signal = PhaseBegun | PhaseEnded | TurnBegun | SetupEnded | GameEnded


@dataclass(slots=True)
class Fact:
    """What the tracker read a line to mean on the table (blank for the replay's own events).

    ``fit`` says whether a ready card (or a copy with those tokens) could be acted on;
    ``attack_fit``, for a zombie player's spend in the Attack phase, whether the spent zombie
    could be a ready one in his combat zone (R10.1)."""

    meaning: Meaning | None = None
    owner: Player | None = None
    name: str | None = None  # the card, None when hidden
    info: CardInfo | None = None
    what: str = ""  # survivor, zombie, item, unseen (a card the log has not shown)
    survivor: Survivor | None = None
    fit: Fit = Fit.YES
    attack_fit: Fit | None = None
    added: int = 0  # counter (or food) change of the line
    restores: int = 0  # food a gain gives back of this phase's unexplained losses


BLANK = Fact()  # what the replay's own events and lines that change nothing mean (never changed)

Handler = Callable[[Any, Fact], None]

_BY_VALUE: dict[str, Meaning] = {meaning.value: meaning for meaning in Meaning}
_BY_LABEL = ZOMBIE_GAME.meanings()


def meaning_of(event: ev.Perform | ev.PerformAll | ev.CounterChange) -> Meaning | None:
    """The line's Zombie CCG meaning: the one the parser's game definition gave it, else the
    one its label has in :data:`ZOMBIE_GAME` (events made in code)."""
    value = event.meaning if event.meaning is not None else _BY_LABEL.get(event.label)
    return _BY_VALUE.get(value) if value is not None else None


class Area:
    """Base of the rule areas: the shared context, the findings helpers and forking.
    ``setup_only``: an area whose handlers do nothing once turn 1 has begun (the replay then
    stops calling them)."""

    setup_only = False

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.table: Table = ctx.table  # a reading's table and clock never change
        self.clock: Clock = ctx.clock

    @property
    def findings(self) -> Findings:
        return self.ctx.findings

    def handlers(self) -> Mapping[type, Handler]:
        return {}

    def fork(self, ctx: Context) -> Area:
        """A copy of this area for another reading: its containers are copied (their values
        are immutable), its context is the new reading's."""
        twin = copy.copy(self)
        twin.ctx, twin.table, twin.clock = ctx, ctx.table, ctx.clock
        for name, value in vars(self).items():
            if isinstance(value, dict | list | set):
                setattr(twin, name, type(value)(value))
        return twin

    def check(
        self,
        kind: Kind,
        message: str,
        effect: Effect | Iterable[Effect],
        subject: str | None,
        *,
        card: str | None = None,
        gain: bool | None = None,
        not_on: Target | None = None,
        **where: Any,
    ) -> None:
        """A violation, unless a legal use of card text explains it (then nothing is wrong),
        or a card the model cannot read may (then the log cannot decide, R16.1)."""
        why = self.ctx.text.explain(effect, subject, card=card, gain=gain, not_on=not_on)
        if why.legal:
            return
        if why.doubts:
            self.findings.cannot_decide(
                kind,
                f"{message}; card text of {', '.join(why.doubts)} may allow it",
                **{k: v for k, v in where.items() if k in ("rule", "player", "line")},
            )
        elif why.unpaid:  # the text that would allow it asks for a cost not paid (R16.1)
            cost = f"{message}; {', '.join(why.unpaid)} would allow it only with its cost paid"
            rule = "R16.1" if "R16.1" in kind_info(kind).rules else where.get("rule")
            self.findings.violation(kind, cost, **{**where, "rule": rule})
        else:
            self.findings.violation(kind, message, **where)


@dataclass
class Context:
    """One reading's shared state; the tracker alone writes the table, the phase area alone
    the clock."""

    cards: CardIndex
    table: Table
    clock: Clock
    findings: Findings
    text: TextLedger
    decks: Mapping[str, int] = field(default_factory=dict)
    look: Callable[[], Iterable[object]] = lambda: ()  # the lines after the current one
    previous: ev.Event | None = None  # the game action before the current line
    emit: Callable[[Signal], None] = lambda _: None  # the replay's own events, dispatched

    def upcoming(self) -> Iterable[object]:
        """The lines after the current one (as far as the audit reads ahead)."""
        return self.look()

    def powers(self) -> Powers:
        """Power and Health on this reading's table, with this turn's one-shot boosts."""
        return Powers(self.cards, self.table, self.text.boosts())

    def card_name(self, event: ev.Event) -> str | None:
        """The card a line names, None when it is hidden."""
        card = getattr(event, "card", None)  # what event.hidden says, without its two calls
        return None if card is None or card in ev.HIDDEN_CARDS else str(card)


# Lines that change nothing in the game: they never break an immediate correction (R17.3)
# nor count as a game action of their player.
NOT_ACTIONS: tuple[type, ...] = (
    ev.Chat,
    ev.Whisper,
    ev.Seat,
    ev.Unparsed,
    ev.System,
    ev.Peek,
    ev.Reveal,
    ev.CoinFlip,
)
# Game actions of their actor (R14.2); phase and turn lines are bookkeeping anyone may do.
ACTIONS: tuple[type, ...] = (
    ev.Draw,
    ev.Move,
    ev.Play,
    ev.TableToZone,
    ev.Perform,
    ev.PerformAll,
    ev.CounterChange,
    ev.Face,
    ev.CardAction,
    ev.StatChange,
    ev.DiceRoll,
    ev.Spawn,
)


NOT_ACTION_TYPES = frozenset(NOT_ACTIONS)
ACTION_TYPES = frozenset(ACTIONS)


def is_game_action(event: object) -> bool:
    return type(event) not in NOT_ACTION_TYPES and isinstance(event, ev.Event)


TRACKER, PHASES_AREA = 0, 3  # a replay's areas followed while the clock is unknown (R17.9)
Plan = list[tuple[type, int, Callable[..., None], bool, bool]]
_PLANS: dict[tuple[type, ...], Plan] = {}


def dispatch_plan(areas: list[Area]) -> Plan:
    """Each area's handlers as (event type, area index, function, whether it runs once
    turn 1 has begun, whether it runs while the clock is unknown): the same for every
    reading, so worked out once (a fork only binds them to its own areas)."""
    key = tuple(map(type, areas))
    plan = _PLANS.get(key)
    if plan is None:
        plan = []
        for index, area in enumerate(areas):
            for kind, handler in area.handlers().items():
                assert isinstance(handler, MethodType) and handler.__self__ is area
                waiting = index in (TRACKER, PHASES_AREA)
                plan.append((kind, index, handler.__func__, not area.setup_only, waiting))
        _PLANS[key] = plan
    return plan
