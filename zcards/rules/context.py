"""What the rule areas share: the table, the clock, the findings, card data and text, and
the replay's own events (phase and turn boundaries) next to the log's.

A rule area is a class with a ``handlers()`` table (event type -> method); the replay calls
every area's handler for each event, the table tracker first. Areas read the shared table and
clock but keep their own bookkeeping to themselves; what a line *means* on the table (which
copy of a survivor, whether a ready zombie could be spent) comes from the tracker as a
:class:`Fact`, so every area reads a line the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import Meaning
from zcards.rules.cards import CardIndex, CardInfo
from zcards.rules.findings import Clock, Findings
from zcards.rules.state import Player, Survivor, TableState
from zcards.rules.zombies import Fit


class TextExplainer(Protocol):
    """The card text the replay keeps (:class:`zcards.rules.excuses.CardText`): told of turns,
    phases, attackers and card uses as the log goes, asked which cards could explain an
    event."""

    def new_turn(self) -> None: ...

    def new_phase(self) -> None: ...

    def set_attackers(self, attackers: dict[str, set[str]]) -> None: ...

    def used(self, card: str | None, controller: str, how: str) -> None: ...

    def withdrawn(self, card: str | None, controller: str) -> None: ...

    def explain(
        self, event: str, subject: str | None, *, card: str | None = None, consume: bool = True
    ) -> list[str]: ...


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


@dataclass
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
    added: int = 0  # counter change of a Wound/Heal line


Handler = Callable[[Any, Fact], None]


class Area:
    """Base of the rule areas: the shared context and the findings helpers."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.table: TableState = ctx.table
        self.clock: Clock = ctx.clock
        self.findings: Findings = ctx.findings

    def handlers(self) -> Mapping[type, Handler]:
        return {}

    def check(
        self,
        kind: Kind,
        message: str,
        event: str | Iterable[str],
        subject: str | None,
        *,
        card: str | None = None,
        **where: Any,
    ) -> None:
        """A violation, unless some card text could have caused it (R16.1)."""
        names: list[str] = []
        for one in (event,) if isinstance(event, str) else event:
            names += self.ctx.text.explain(one, subject, card=card)
        if names:
            self.findings.cannot_decide(
                kind,
                f"{message}; card text of {', '.join(sorted(set(names)))} may allow it",
                **{k: v for k, v in where.items() if k in ("rule", "player", "line")},
            )
        else:
            self.findings.violation(kind, message, **where)


@dataclass
class Context:
    """One replay's shared state; the tracker alone writes the table, the phase area alone
    the clock."""

    cards: CardIndex
    table: TableState
    clock: Clock
    findings: Findings
    text: TextExplainer
    decks: Mapping[str, int] = field(default_factory=dict)
    events: Sequence[object] = ()  # the whole log, for the few checks that look ahead
    index: int = 0  # the position of the current line in ``events``
    previous: ev.Event | None = None  # the game action before the current line
    emit: Callable[[Signal], None] = lambda _: None  # the replay's own events, dispatched

    def upcoming(self) -> Iterable[object]:
        """The lines after the current one."""
        return (self.events[i] for i in range(self.index + 1, len(self.events)))

    def zombie_players(self) -> list[Player]:
        """This turn's zombie players (R1.1): everyone still in the game but the active one."""
        return [p for p in self.table.in_game() if p.name != self.clock.active]

    def card_name(self, event: ev.Event) -> str | None:
        """The card a line names, None when it is hidden."""
        card = getattr(event, "card", None)
        return None if card is None or event.hidden else str(card)


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


_NOT_ACTION_TYPES = frozenset(NOT_ACTIONS)
_ACTION_TYPES = frozenset(ACTIONS)


def is_game_action(event: object) -> bool:
    return type(event) not in _NOT_ACTION_TYPES and isinstance(event, ev.Event)


def is_action(event: object) -> bool:
    """A game action of its actor (R14.2)."""
    return type(event) in _ACTION_TYPES
