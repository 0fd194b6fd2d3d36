"""Every arrangement of each player's cards in play that a log allows, read from the log alone.

A log hides face-down cards: it says that *a* face-down card was spent, flipped or sent to
combat, never which one. So instead of one table per player this keeps every *arrangement*
the lines so far allow: a multiset of cards, each with what the log shows of it (its name,
or ``a face-down card``), its zone and whether it is spent. Each line maps each arrangement
to the arrangements it can lead to (a Spend on a face-down card: any ready face-down card,
in either zone); an arrangement a line cannot apply to is dropped (``To Combat (0 to 1)``
needs such a card outside the combat zone). A question about the table ("may this Spend be
a ready attacker's?") is then asked of every arrangement: the log decides it only when all
of them give one answer.

Two rules narrow the arrangements to those of a *legal* game, because a reading that breaks
a rule earlier is no reading of a legal log:

* a zombie player's Spend in the Attack phase is a fight (R10): it spends a ready card in
  his combat zone, so earlier fights of the phase use up the ready attackers;
* an action undone by its exact inverse on the next game action (Spend then Ready, To Combat
  then Leave Combat, a card played and moved straight back to the hand) is a corrected
  misclick (R17.3): the pair leaves the table as it was before it.

Written from the rules and the log protocol (docs/log-protocol.md), independently of the
audit (``zcards.rules``) on purpose: it measures the audit. It reads the recording protocol's
lines for one game from its start, as the simulator writes them in every style.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from lackey_plugin.log import events as ev
from zcards.game.definition import Meaning

from .logview import Moment, walk

FACE_DOWN = "a face-down card"
COMBAT, RESOURCE, SURVIVOR = "combat", "resource", "survivor"
ZOMBIE_ZONES = (COMBAT, RESOURCE)


class Card(NamedTuple):
    """One card in play as the log can know it."""

    shown: str  # its name, or FACE_DOWN
    zone: str
    spent: bool


Arrangement = tuple[tuple[Card, int], ...]
"""One player's cards in play: a multiset, as sorted (card, copies) pairs."""

EMPTY: frozenset[Arrangement] = frozenset({()})


def _swap(table: Arrangement, old: Card | None, new: Card | None) -> Arrangement:
    """``table`` with one ``old`` card taken out and one ``new`` card put in (None: none)."""
    copies = dict(table)
    if old is not None:
        copies[old] -= 1
    if new is not None:
        copies[new] = copies.get(new, 0) + 1
    return tuple(sorted((card, n) for card, n in copies.items() if n > 0))


def _change(
    tables: Iterable[Arrangement],
    chosen: Callable[[Card], bool],
    becomes: Callable[[Card], Iterable[Card | None]],
) -> frozenset[Arrangement]:
    """Every arrangement reached by changing one card that ``chosen`` accepts, in each way
    ``becomes`` allows (None: it leaves the table). Arrangements without such a card drop."""
    return frozenset(
        _swap(table, card, new)
        for table in tables
        for card, _ in table
        if chosen(card)
        for new in becomes(card)
    )


def _shown(card: str) -> str:
    return FACE_DOWN if ev.is_hidden(card) else card


@dataclass(frozen=True)
class Tables:
    """The arrangements each player's cards in play may be in, before one line."""

    arrangements: Mapping[str, frozenset[Arrangement]]

    def of(self, player: str) -> frozenset[Arrangement]:
        return self.arrangements.get(player, EMPTY)

    def fight_reading(self, player: str, shown: str) -> str:
        """Why the log cannot rule out that a Spend of ``shown`` by ``player`` spends a ready
        attacker (a ready card in his combat zone); "" when no arrangement has one."""
        tables = self.of(player)
        able = [t for t in tables if any(c == Card(shown, COMBAT, False) for c, _ in t)]
        if not able:
            return ""
        if len(able) == len(tables):
            return "a ready attacker looks the same"
        kind = "a face-down card" if shown == FACE_DOWN else "a face-up zombie"
        in_combat = {sum(n for c, n in t if c.shown == shown and c.zone == COMBAT) for t in tables}
        if len(in_combat) > 1:
            return f"{kind}'s zone is not in the log"
        return f"whether {kind} is spent is not in the log"

    def attacker_reading(self, players: Iterable[str]) -> str:
        """Why the log cannot rule out a ready attacker of one of ``players``; "" when no
        arrangement of theirs has a ready card in a combat zone."""
        for player in players:
            tables = self.of(player)
            armed = [[c.shown for c, _ in t if c.zone == COMBAT and not c.spent] for t in tables]
            if len(tables) == sum(1 for shown in armed if shown):
                return "a ready attacker is in the log"
            if shown := sorted({name for some in armed for name in some}):
                return self.fight_reading(player, shown[0])
        return ""


class Contradiction(ValueError):
    """A line that no arrangement allows: the log is not one legal game from its start."""


def readings(events: Sequence[ev.Event], zombies: frozenset[str]) -> Iterator[Tables]:
    """The tables before each event of ``events``; ``zombies`` are the Zombie cards' names
    (a face-up card played from the hand goes to the resource zone if it is one).

    Between a misclick and its correction the tables are those of the misclick read as a
    real action: a line put there breaks the pair, so the misclick is no correction then
    (and only if no legal reading of it as real exists, it is read as a bare misclick)."""
    corrected = corrections(events)
    misclicks = set(corrected.values())
    tables: dict[str, frozenset[Arrangement]] = {}
    before: dict[int, frozenset[Arrangement]] = {}
    for index, event, moment, _ in walk(events):
        yield Tables(dict(tables))
        player = getattr(event, "player", None)
        if player is None:
            continue
        if index in corrected:  # the pair leaves the table as it was before it
            tables[player] = before.pop(corrected[index])
            continue
        changes = dict(_apply(event, moment, tables, zombies, fights=True))
        if index in misclicks:
            before[index] = tables.get(player, EMPTY)
            if not all(changes.values()):
                changes = dict(_apply(event, moment, tables, zombies, fights=False))
        for owner, after in changes.items():
            if not after:
                raise Contradiction(
                    f"event {index}: no arrangement of {owner}'s table allows {event}"
                )
            tables[owner] = after


def _apply(
    event: ev.Event,
    moment: Moment,
    tables: Mapping[str, frozenset[Arrangement]],
    zombies: frozenset[str],
    fights: bool,
) -> Iterator[tuple[str, frozenset[Arrangement]]]:
    """The new arrangements of each player whose cards ``event`` changes; with ``fights``,
    a zombie player's Spend in the Attack phase is a fight (R10)."""
    player: str = getattr(event, "player", "")
    mine = tables.get(player, EMPTY)
    match event:
        case ev.Play():
            zone = RESOURCE if event.hidden or event.card in zombies else SURVIVOR
            yield (
                player,
                frozenset(_swap(t, None, Card(_shown(event.card), zone, False)) for t in mine),
            )
        case ev.TableToZone():
            yield player, _change(mine, lambda c: c.shown == _shown(event.card), lambda c: [None])
        case ev.PerformAll(meaning=Meaning.READY_ALL):
            yield player, frozenset(_ready_all(t) for t in mine)
        case ev.Perform(meaning=Meaning.SPEND):
            fight = fights and moment.phase == "Attack" and player != moment.active
            zones = (COMBAT,) if fight else (COMBAT, RESOURCE, SURVIVOR)
            yield (
                player,
                _change(
                    mine,
                    lambda c: c.shown == _shown(event.card) and not c.spent and c.zone in zones,
                    lambda c: [c._replace(spent=True)],
                ),
            )
        case ev.Perform(meaning=Meaning.READY):
            yield (
                player,
                _change(
                    mine,
                    lambda c: c.shown == _shown(event.card) and c.spent,
                    lambda c: [c._replace(spent=False)],
                ),
            )
        case ev.Perform(meaning=Meaning.FLIP):
            yield (
                player,
                _change(
                    mine,
                    lambda c: c.shown == FACE_DOWN and c.zone in ZOMBIE_ZONES,
                    lambda c: [c._replace(shown=event.card)],
                ),
            )
        case ev.Perform(meaning=Meaning.TAKE_CONTROL):
            yield from _take_control(event, tables)
        case ev.CounterChange(meaning=Meaning.TO_COMBAT | Meaning.LEAVE_COMBAT):
            source, target = (COMBAT if n > 0 else RESOURCE for n in (event.old, event.new))
            yield (
                player,
                _change(
                    mine,
                    lambda c: c.shown == _shown(event.card) and c.zone == source,
                    lambda c: [c._replace(zone=target)],
                ),
            )


def _ready_all(table: Arrangement) -> Arrangement:
    ready: Counter[Card] = Counter()
    for card, n in table:
        ready[card._replace(spent=False)] += n
    return tuple(sorted(ready.items()))


def _take_control(
    event: ev.Perform, tables: Mapping[str, frozenset[Arrangement]]
) -> Iterator[tuple[str, frozenset[Arrangement]]]:
    """An infected survivor that died: it leaves its controller's table (the first other
    player who has it) and becomes a face-up zombie in the taker's resource zone, keeping its
    rotation (which the tables do not follow for survivors: either)."""
    for owner, theirs in tables.items():
        if owner != event.player and any(c.shown == event.card for t in theirs for c, _ in t):
            yield owner, _change(theirs, lambda c: c.shown == event.card, lambda c: [None])
            break
    yield (
        event.player,
        frozenset(
            _swap(t, None, Card(event.card, RESOURCE, spent))
            for t in tables.get(event.player, EMPTY)
            for spent in (False, True)
        ),
    )


_INVERSES: dict[str, str] = {  # R17.3's pairs, in the order a misclick and its correction come
    Meaning.SPEND: Meaning.READY,
    Meaning.TO_COMBAT: Meaning.LEAVE_COMBAT,
    Meaning.WOUND: Meaning.HEAL,
    Meaning.HEAL: Meaning.WOUND,
    Meaning.INFECT: Meaning.CURE,
    Meaning.CURE: Meaning.INFECT,
}


def corrections(events: Sequence[ev.Event]) -> dict[int, int]:
    """Immediate corrections (R17.3): the index of each undoing line, mapped to the index of
    the line it undoes. A pair leaves the game as before its first line, so the lines around
    it become neighbours and may be a pair in turn (Wound, Wound, Heal, Heal)."""
    pairs: dict[int, int] = {}
    open_: list[int] = []  # game actions not undone yet, the latest last
    for index, event in enumerate(events):
        if isinstance(event, ev.Chat):
            continue
        if open_ and _undoes(event, events[open_[-1]]):
            pairs[index] = open_.pop()
        else:
            open_.append(index)
    return pairs


def _undoes(undo: ev.Event, done: ev.Event) -> bool:
    """Whether ``undo`` is the exact inverse of ``done`` (same player, same card or stat)."""
    match done, undo:
        case ev.StatChange(), ev.StatChange():
            return (done.player, done.target, done.stat, done.new, done.old) == (
                undo.player,
                undo.target,
                undo.stat,
                undo.old,
                undo.new,
            )
        case ev.Play(), ev.TableToZone():
            return (done.player, done.card, done.src_zone) == (
                undo.player,
                undo.card,
                undo.dst_zone,
            )
        case ev.CounterChange(), ev.CounterChange() if (done.old, done.new) != (undo.new, undo.old):
            return False
        case ev.Perform() | ev.CounterChange(), ev.Perform() | ev.CounterChange():
            same = (done.player, done.card) == (undo.player, undo.card)
            return same and done.meaning in _INVERSES and _INVERSES[done.meaning] == undo.meaning
    return False
