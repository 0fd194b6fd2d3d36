"""What a log shows, event by event: turn, phase, and each player's public side of the table.

The mutators use it to find places where an injected line breaks exactly one rule (a Spend in
an Attack phase where the player has nothing in combat, …). It reads only what the log says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from lackey_plugin.log import events as ev
from zcards.game.definition import Meaning

SETUP = "Setup"


@dataclass
class Side:
    """One player's side as the log shows it."""

    food: int = 10
    hand: int = 0
    taken: int = 0
    face_down: int = 0
    combat: int = 0
    named: Counter[str] = field(default_factory=Counter)
    wounds: dict[str, int] = field(default_factory=dict)
    opening: list[str] = field(default_factory=list)


@dataclass
class Moment:
    """Where in the game an event sits (turn 0 is setup)."""

    turn: int = 0
    phase: str = SETUP
    active: str | None = None
    played: set[str] = field(default_factory=set)


def texts(moment: Moment, sides: dict[str, Side], player: str | None = None) -> set[str]:
    """Names whose card text could explain a line: one player's face-up cards (everyone's
    when ``player`` is None) and every card played this turn, as the audit counts them."""
    chosen = sides.values() if player is None else [sides[player]] if player in sides else []
    return set(moment.played).union(*(side.named.keys() for side in chosen))


def walk(events: Sequence[ev.Event]) -> Iterator[tuple[int, ev.Event, Moment, dict[str, Side]]]:
    """Yield each event with the game position and sides as they were *before* it."""
    moment = Moment()
    sides: dict[str, Side] = {}
    for index, event in enumerate(events):
        yield index, event, moment, sides
        _apply(event, moment, sides)


def setup_end(events: Sequence[ev.Event]) -> int:
    """The index of the line that ends setup: the first turn or phase line (a log without a
    turn-1 line starts turn 1 with its first phase line), ``len(events)`` when there is none."""
    return next(
        (i for i, e in enumerate(events) if isinstance(e, ev.TurnChange | ev.PhaseChange)),
        len(events),
    )


def final(events: Sequence[ev.Event]) -> tuple[Moment, dict[str, Side]]:
    """The game position and sides after the last event."""
    moment, sides = Moment(), dict[str, Side]()
    for event in events:
        _apply(event, moment, sides)
    return moment, sides


def _apply(event: ev.Event, moment: Moment, sides: dict[str, Side]) -> None:
    player = getattr(event, "player", None)
    if isinstance(event, ev.Seat) and event.action == "sit":
        sides.setdefault(event.player, Side())
        return
    if player is None or player not in sides:
        return
    side = sides[player]
    match event:
        case ev.TurnChange():
            moment.turn, moment.active, moment.phase = event.number, event.active, "Ready"
            moment.played.clear()
        case ev.PhaseChange():
            if moment.turn == 0:  # no turn-1 line: the first phase line starts turn 1, and
                moment.turn, moment.active = 1, event.player  # the simulator's active writes it
                moment.played.clear()
            moment.phase = event.new
        case ev.StatChange(target=target) if target in sides:
            sides[target].food = event.new
        case ev.Draw():
            side.hand += event.count
            side.taken += event.count
        case ev.Move(src_zone="Hand"):
            side.hand -= 1
        case ev.Play():
            _play(event, moment, side)
        case ev.TableToZone():
            _leave(side, event.card)
            side.hand += event.dst_zone == "Hand"  # a card played by mistake, moved back
        case ev.Perform(meaning=Meaning.FLIP):
            side.face_down -= 1
            side.named[event.card] += 1
        case ev.Perform(meaning=Meaning.TAKE_CONTROL):
            for other in sides.values():
                if other is not side and other.named[event.card] > 0:
                    _leave(other, event.card)
                    break
            side.named[event.card] += 1
        case ev.CounterChange(meaning=Meaning.TO_COMBAT):
            side.combat += 1
        case ev.CounterChange(meaning=Meaning.LEAVE_COMBAT):
            side.combat -= 1
        case ev.CounterChange(meaning=Meaning.WOUND | Meaning.HEAL):
            side.wounds[event.card] = event.new


def _play(event: ev.Play, moment: Moment, side: Side) -> None:
    if event.src_zone == "Hand":
        side.hand -= 1
    elif event.src_zone == "Deck":
        side.taken += 1
    if event.hidden:
        side.face_down += 1
        return
    side.named[event.card] += 1
    moment.played.add(event.card)
    if moment.turn == 0:
        side.opening.append(event.card)


def _leave(side: Side, card: str) -> None:
    side.named[card] -= 1
    if side.named[card] <= 0:
        del side.named[card]
        side.wounds.pop(card, None)
