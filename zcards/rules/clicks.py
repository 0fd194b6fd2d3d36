"""How people click: immediate corrections (R17.3) and phase lines logged late (R17.5).

* :class:`Corrections` finds every action undone by its exact inverse before any other game
  action; the audit replays the log both with the pair (two real actions) and without it (a
  corrected misclick: the table as before the first of the two), and settles the two
  readings as it settles any (R17.1).
* :func:`lags` says whether an action is logged just before the phase line that makes it
  legal, with nothing of the old phase in between (the replay then counts it in the new
  phase).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex
from zcards.game.definition import (
    ATTACK_PHASE,
    DISCARD,
    DRAW_PHASE,
    HAND,
    PHASES,
    READY_PHASE,
    Meaning,
)
from zcards.rules.context import is_game_action, meaning_of
from zcards.rules.moves import puts_back

_INVERSE = {
    Meaning.WOUND: Meaning.HEAL,
    Meaning.HEAL: Meaning.WOUND,
    Meaning.INFECT: Meaning.CURE,
    Meaning.CURE: Meaning.INFECT,
    Meaning.TO_COMBAT: Meaning.LEAVE_COMBAT,
    Meaning.LEAVE_COMBAT: Meaning.TO_COMBAT,
    Meaning.SPEND: Meaning.READY,
    Meaning.READY: Meaning.SPEND,
}


_UNDOABLE_TYPES = frozenset(
    {ev.CounterChange, ev.Perform, ev.StatChange, ev.Play, ev.TableToZone, ev.Draw, ev.Move}
)


def _same_card(a: ev.Event, b: ev.Event) -> bool:
    card_a, card_b = getattr(a, "card", None), getattr(b, "card", None)
    return a.hidden == b.hidden and (a.hidden or card_a == card_b)


def _ability_result(event: ev.Event, before: ev.Event | None) -> bool:
    """A heal, cure or food gain right after its player's spend, or a food gain right after
    his die roll (other players' lines in between, such as the top cards a roll of 1 puts
    out), is what that ability did: a Medic's heal, a Scavenger's food. A real action."""
    gain = isinstance(event, ev.StatChange) and event.new > event.old
    if isinstance(before, ev.DiceRoll):
        return gain
    if isinstance(before, ev.Perform) and meaning_of(before) == Meaning.SPEND:
        return gain or (
            isinstance(event, ev.CounterChange)
            and meaning_of(event) in (Meaning.HEAL, Meaning.CURE)
        )
    return False


def _undoable(event: ev.Event, before: ev.Event | None) -> bool:
    """Whether an action could be undone by the next one (R17.3)."""
    if isinstance(event, ev.Play):
        return True
    if isinstance(event, ev.Draw):
        return event.count == 1
    if isinstance(event, ev.CounterChange):
        return (
            event.new != event.old
            and meaning_of(event) in _INVERSE
            and not _ability_result(event, before)
        )
    if isinstance(event, ev.StatChange):
        return event.new != event.old and not _ability_result(event, before)
    if isinstance(event, ev.Perform):
        meaning = meaning_of(event)
        if meaning not in (Meaning.SPEND, Meaning.READY):
            return False
        # A zombie moved to combat, then spent and readied (Fast): not a misclick.
        return not (
            isinstance(before, ev.CounterChange)
            and meaning_of(before) == Meaning.TO_COMBAT
            and before.player == event.player
            and _same_card(before, event)
        )
    return False


def _undoes(first: ev.Event, second: ev.Event) -> bool:
    """Whether ``second`` is the exact inverse of ``first``."""
    if getattr(first, "player", None) != getattr(second, "player", None):
        return False
    if isinstance(first, ev.CounterChange) and isinstance(second, ev.CounterChange):
        return (
            _INVERSE.get(meaning_of(first)) == meaning_of(second)  # type: ignore[arg-type]
            and _same_card(first, second)
            and (second.old, second.new) == (first.new, first.old)
        )
    if isinstance(first, ev.Perform) and isinstance(second, ev.Perform):
        return _INVERSE.get(meaning_of(first)) == meaning_of(second) and _same_card(  # type: ignore[arg-type]
            first, second
        )
    if isinstance(first, ev.StatChange) and isinstance(second, ev.StatChange):
        return (
            first.stat.casefold() == second.stat.casefold()
            and first.target == second.target
            and (second.old, second.new) == (first.new, first.old)
        )
    if isinstance(first, ev.Draw):
        return puts_back(first, second)
    if isinstance(first, ev.Play) and isinstance(second, ev.TableToZone):
        return (
            _same_card(first, second)
            and second.dst_zone == first.src_zone
            and (second.dst_owner or second.player) == (first.src_owner or first.player)
        )
    return False


MAX_NESTED = 64  # corrections nested in one another that the audit follows


class Corrections:
    """The immediate corrections a log may hold, found as its lines come in: each action
    that the next game action undoes exactly, mapped to that undo (nested pairs too: an
    action, a second, the second's undo, the first's undo). Whether a pair *is* a correction
    or two real actions is a reading (R17.3): the audit keeps both."""

    def __init__(self) -> None:
        self.pairs: dict[int, int] = {}  # the index of an undone action -> its undo's
        self.open: dict[int, ev.Event] = {}  # actions the next one may still undo, in order
        self._last: dict[str, ev.Event] = {}  # each player's previous game action

    def feed(self, index: int, event: object) -> None:
        if not is_game_action(event):
            return
        assert isinstance(event, ev.Event)
        player = getattr(event, "player", "")
        opened = self.open
        if type(event) not in _UNDOABLE_TYPES:
            if opened:
                opened.clear()
        elif opened and _undoes(opened[first := next(reversed(opened))], event):
            del opened[first]
            self.pairs[first] = index
        elif _undoable(event, self._last.get(player)):
            opened[index] = event
            if len(opened) > MAX_NESTED:
                del opened[next(iter(opened))]
        elif opened:
            opened.clear()
        self._last[player] = event

    def within(self, first: int, undo: int) -> list[tuple[int, int]]:
        """The pairs from ``first`` to ``undo``: correcting the outer pair corrects those
        nested in it too (the values chain)."""
        return [(a, self.pairs[a]) for a in range(first, undo + 1) if a in self.pairs]

    def forget(self, index: int) -> None:
        """The audit has passed the lines before ``index``: their pairs are no longer asked
        for."""
        for first in [a for a in self.pairs if a < index]:
            del self.pairs[first]


# -- phase-line lag --------------------------------------------------------------------------


LAG_WINDOW = 64  # lines looked ahead for the phase line: early actions are a handful
LAG_TYPES = frozenset({ev.Draw, ev.Move, ev.Play, ev.Perform, ev.Face})  # what may be early


def _lag_kind(event: ev.Event, phase: str, cards: CardIndex) -> bool:
    """Whether ``event`` belongs to the phase after ``phase`` (so it may be logged early)."""
    if phase == READY_PHASE:
        return isinstance(event, ev.Draw) or (
            isinstance(event, ev.Move) and event.src_zone == HAND and event.dst_zone == DISCARD
        )
    if phase == DRAW_PHASE:
        if isinstance(event, ev.Play):
            return event.src_zone == HAND and event.hidden
        return isinstance(event, ev.Face) or (
            isinstance(event, ev.Perform) and meaning_of(event) == Meaning.FLIP
        )
    if phase == ATTACK_PHASE:  # a card spent for its own Recoup ability
        return (
            isinstance(event, ev.Perform)
            and meaning_of(event) == Meaning.SPEND
            and not event.hidden
            and has_recoup_ability(cards, event.card)
        )
    return False


def has_recoup_ability(cards: CardIndex, name: str) -> bool:
    """A card used in the Recoup phase by spending it: the Medic and Scavenger symbols, or
    its own "Recoup - Spend <name>" text."""
    info = cards.get(name)
    return info is not None and (
        info.has_symbol("Medic")
        or info.has_symbol("Scavenger")
        or f"Recoup - Spend {info.name}" in info.card.text
    )


_FOLLOWING = dict(zip(PHASES, PHASES[1:], strict=False))  # each phase's next but the last's


def lags(
    event: ev.Event, phase: str, upcoming: Callable[[], Iterable[object]], cards: CardIndex
) -> bool:
    """Whether ``event`` in ``phase`` is logged just before the phase line that makes it
    legal, with only such early actions in between (R17.5). Any player's: the active player
    too may click the phase button after drawing. ``upcoming`` gives the lines after it."""
    following = _FOLLOWING.get(phase)
    if following is None or not _lag_kind(event, phase, cards):
        return False
    for later in islice(upcoming(), LAG_WINDOW):
        if not isinstance(later, ev.Event) or not is_game_action(later):
            continue
        if isinstance(later, ev.PhaseChange):
            return later.action == "next" and (later.old, later.new) == (phase, following)
        if not _lag_kind(later, phase, cards):
            return False
    return False


def first_phase(upcoming: Iterable[object]) -> str:
    """The phase turn 1 is in when it starts without a turn line: the phase the first phase
    line leaves (from this line on), else Ready (R17.10)."""
    for later in upcoming:
        if isinstance(later, (ev.TurnChange, ev.NewGame)):
            break
        if isinstance(later, ev.PhaseChange) and later.old in PHASES:
            return later.old
    return READY_PHASE
