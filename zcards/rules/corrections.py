"""How people click: immediate corrections (R17.3) and phase lines logged late (R17.5).

* :class:`Corrections` finds every action undone by its exact inverse before any other game
  action, and every action on one thing (one card's counters, its spent state, a card moved
  out and back, a drawn card put back) undone later in the same phase with nothing else done
  to that thing in between (a fix found by its net effect); the audit replays the log both with
  the pair (two real actions) and without it (a corrected misclick: the table as before the
  first of the two), and settles the readings as it settles any (R17.1).
* :func:`lags` says whether an action is logged just before the phase line that makes it
  legal, with nothing of the old phase in between (the replay then counts it in the new
  phase).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import islice

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex
from zcards.game.definition import (
    ATTACK_PHASE,
    DECK,
    DISCARD,
    DRAW_PHASE,
    HAND,
    PHASES,
    READY_PHASE,
    Meaning,
)
from zcards.game.effects import Effect, Timing
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


def may_heal(cards: CardIndex | None, name: str) -> bool:
    """Whether the card named may heal or cure: a Medic, card text that does, text the effect
    rows do not wholly cover, or a card missing from the card data (it may do anything).
    Without card data, any card may."""
    if cards is None:
        return True
    info = cards.get(name)
    return (
        info is None
        or info.may({Effect.HEAL, Effect.CURE})
        or info.has_symbol("Medic")
        or info.has(Effect.HEAL)
        or info.has(Effect.CURE)
    )


_ANY_HEALS = 1 << 16  # what a card of unknown text may heal as it leaves play: no bound


def _death_heals(cards: CardIndex | None, name: str) -> int:
    """How many counters the card's text removes from each survivor when it dies (Grandma
    Edna's one wound counter); no bound for a card missing from the card data or whose text
    the effect rows do not wholly cover, or without card data (it may do anything)."""
    info = None if cards is None else cards.get(name)
    if info is None or info.may({Effect.HEAL, Effect.CURE}):
        return _ANY_HEALS
    return sum(
        row.amount for row in info.rows(Timing.DIES) if row.effect in (Effect.HEAL, Effect.CURE)
    )


def _medic_heal(event: ev.Event, before: ev.Event | None, cards: CardIndex | None) -> bool:
    """A heal or cure right after its player's spend of a card that may heal (a Medic) is
    what that card did: a real action, never a misclick nor a fix. (A face-down card is a
    zombie: spending it heals nothing.)"""
    return (
        isinstance(event, ev.CounterChange)
        and meaning_of(event) in (Meaning.HEAL, Meaning.CURE)
        and isinstance(before, ev.Perform)
        and meaning_of(before) == Meaning.SPEND
        and not before.hidden
        and may_heal(cards, before.card)
    )


def _rolled_gain(event: ev.Event, before: ev.Event | None) -> bool:
    """A food gain right after its player's die roll: the roll's food, never a misclick (a
    gain right after a spend may be one: people click Food by mistake before rolling)."""
    return (
        isinstance(before, ev.DiceRoll)
        and isinstance(event, ev.StatChange)
        and event.new > event.old
    )


def _undoable(event: ev.Event, before: ev.Event | None) -> bool:
    """Whether an action could be undone by the next one (R17.3)."""
    if isinstance(event, ev.Play):
        return True
    if isinstance(event, ev.Draw):
        return event.count == 1
    if isinstance(event, ev.Move):  # a card moved out, to be moved back (not the deck: shuffled)
        return not event.hidden and DECK not in (event.src_zone, event.dst_zone)
    if isinstance(event, ev.CounterChange):
        return event.new != event.old and meaning_of(event) in _INVERSE
    if isinstance(event, ev.StatChange):
        return event.new != event.old and not _rolled_gain(event, before)
    if isinstance(event, ev.Perform):
        meaning = meaning_of(event)
        if meaning not in (Meaning.SPEND, Meaning.READY):
            return False
        return not _arrives_ready(event, before)
    return False


def _arrives_ready(event: ev.Event, before: ev.Event | None) -> bool:
    """A zombie moved to combat, then spent or readied (Fast): not a misclick."""
    return (
        isinstance(event, ev.Perform)
        and isinstance(before, ev.CounterChange)
        and meaning_of(before) == Meaning.TO_COMBAT
        and before.player == event.player
        and _same_card(before, event)
    )


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
    if isinstance(first, ev.Move) and isinstance(second, ev.Move):
        return (
            first.card == second.card
            and not second.hidden
            and (second.src_zone, second.dst_zone) == (first.dst_zone, first.src_zone)
            and (second.src_owner, second.dst_owner) == (first.dst_owner, first.src_owner)
        )
    if isinstance(first, ev.Play) and isinstance(second, ev.TableToZone):
        return (
            _same_card(first, second)
            and second.dst_zone == first.src_zone
            and (second.dst_owner or second.player) == (first.src_owner or first.player)
        )
    return False


MAX_NESTED = 64  # corrections nested in one another that the audit follows
MAX_LATE = 8  # actions on one thing in one phase that a later line may still undo
# Lines that end a phase (or a game): a fix found later is a fix of the same phase only.
_PHASE_ENDS = (ev.PhaseChange, ev.TurnChange, ev.NewGame, ev.DeckLoad, ev.GameControl)


Key = tuple[object, ...]


def _subjects(event: ev.Event) -> tuple[Key | None, Key | None]:
    """What an action changes, as two keys: the one it waits under for a later undo, and the
    one of the earlier action it would undo (its inverse's): one card's counter of a kind, a
    named card's spent state, the top of a player's deck, a card moved or played from a zone.
    None for anything else (a face-down card spent or readied: which one is not logged; food,
    whose lines of a phase are judged by their net effect, :mod:`zcards.rules.food`)."""
    if isinstance(event, ev.CounterChange | ev.Perform):
        meaning = meaning_of(event)
        inverse = _INVERSE.get(meaning)  # type: ignore[arg-type]
        if inverse is None or (isinstance(event, ev.Perform) and event.hidden):
            return None, None
        card = (event.hidden, event.card)
        return (event.player, meaning, card), (event.player, inverse, card)
    if isinstance(event, ev.Draw):
        return (event.player, DECK), None
    if isinstance(event, ev.Move):
        owner = event.src_owner or event.player
        if event.src_zone == HAND and event.dst_zone == DECK:
            return None, (owner, DECK)
        return (owner, event.card, event.src_zone, event.dst_zone), (
            owner,
            event.card,
            event.dst_zone,
            event.src_zone,
        )
    if isinstance(event, ev.Play):
        return (event.player, ev.Play, event.hidden, event.card), None
    if isinstance(event, ev.TableToZone):
        return None, (event.player, ev.Play, event.hidden, event.card)
    return None, None


class Corrections:
    """The corrections a log may hold, found as its lines come in: each action that the next
    game action undoes exactly, mapped to that undo (nested pairs too: an action, a second,
    the second's undo, the first's undo), and each action undone later in its phase by the
    next action on the same thing (``late``: the pair's net effect is no change). Whether a
    pair *is* a correction or two real actions is a reading (R17.3): the audit keeps both."""

    def __init__(self, cards: CardIndex | None = None) -> None:
        self.cards = cards  # which spent cards may heal or feed (their lines are no fixes)
        self.pairs: dict[int, int] = {}  # the index of an undone action -> its undo's
        self.open: dict[int, ev.Event] = {}  # actions the next one may still undo, in order
        self.late: set[int] = set()  # the pairs (by first index) undone later in the phase
        self.waiting: set[int] = set()  # actions a later line of the phase may still undo
        self._things: dict[Key, list[tuple[int, ev.Event]]] = {}  # waiting, by subject
        self._last: dict[str, ev.Event] = {}  # each player's previous game action
        # players healing as cards whose text heals leave play: the heals each survivor may
        # get from them (one per card: Grandma Edna's), and those it got so far
        self._dying: dict[str, tuple[int, Counter[Key]]] = {}

    def feed(self, index: int, event: object) -> None:
        if isinstance(event, _PHASE_ENDS) and self.waiting:
            self.waiting.clear()
            self._things.clear()
        if not is_game_action(event):
            return
        assert isinstance(event, ev.Event)
        player = getattr(event, "player", "")
        opened = self.open
        before = self._last.get(player)
        self._last[player] = event
        kind = type(event)
        triggered = (kind is ev.TableToZone or bool(self._dying)) and self._death_trigger(
            player, event
        )
        if kind not in _UNDOABLE_TYPES:
            if opened:
                opened.clear()
            return
        if opened and _undoes(opened[first := next(reversed(opened))], event):
            del opened[first]
            self.pairs[first] = index
            self.waiting.discard(first)
            return
        subject, undoes = _subjects(event)
        medic = kind is ev.CounterChange and _medic_heal(event, before, self.cards)
        if (
            undoes in self._things
            and not (medic or triggered or _arrives_ready(event, before))  # no fix can be
            and self._undoes_late(undoes, index, event)
        ):
            opened.clear()
        elif not (medic or triggered) and _undoable(event, before):  # card text: real
            opened[index] = event
            if len(opened) > MAX_NESTED:
                del opened[next(iter(opened))]
            if subject is not None:
                self._await(subject, index, event)
        elif opened:
            opened.clear()

    def _death_trigger(self, player: str, event: ev.Event) -> bool:
        """Whether ``event`` is one of the heals that follow a card whose text heals leaving
        play (Grandma Edna's death: a wound counter off each other survivor): card text at
        work, never a fix. Each such card heals a survivor as often as its text says (Edna:
        once): a further heal of the same survivor is no card text (a misclick, say, put
        right at once)."""
        if isinstance(event, ev.TableToZone) and not event.hidden:
            heals = _death_heals(self.cards, event.card)
            if heals:
                allowed, healed = self._dying.get(player, (0, Counter()))
                self._dying[player] = (allowed + heals, healed)
            return False
        dying = self._dying.get(player)
        if dying is None:
            return False
        allowed, healed = dying
        if not (
            isinstance(event, ev.CounterChange)
            and meaning_of(event) in (Meaning.HEAL, Meaning.CURE)
        ):
            del self._dying[player]
            return False
        survivor = (meaning_of(event), event.hidden, event.card)
        if healed[survivor] >= allowed:
            return False
        healed[survivor] += 1
        return True

    def _undoes_late(self, subject: Key, index: int, event: ev.Event) -> bool:
        """Whether ``event`` undoes an earlier action of the phase waiting under ``subject``."""
        things = self._things.get(subject)
        if not things:
            return False
        for position in range(len(things) - 1, -1, -1):
            first, action = things[position]
            if first in self.waiting and _undoes(action, event):
                del things[position]
                self.waiting.discard(first)
                self.pairs[first] = index
                self.late.add(first)
                return True
        return False

    def _await(self, subject: Key, index: int, event: ev.Event) -> None:
        """``event`` may be undone later in the phase (a few actions per thing are kept)."""
        things = self._things.setdefault(subject, [])
        things.append((index, event))
        self.waiting.add(index)
        if len(things) > MAX_LATE:
            self.waiting.discard(things.pop(0)[0])

    def within(self, first: int, undo: int) -> list[tuple[int, int]]:
        """The pairs from ``first`` to ``undo``: correcting the outer pair corrects those
        nested in it too (the values chain); a pair undone later in the phase is one pair."""
        if first in self.late:
            return [(first, undo)]
        return [(a, self.pairs[a]) for a in range(first, undo + 1) if a in self.pairs]

    def forget(self, index: int) -> None:
        """The audit has passed the lines before ``index``: their pairs are no longer asked
        for."""
        for first in [a for a in self.pairs if a < index]:
            del self.pairs[first]
            self.late.discard(first)


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
