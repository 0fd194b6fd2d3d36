"""Power and health in a fight: printed numbers, then every static effect that applies (R10,
R16).

What an observer does not know becomes a :class:`Span` of possible values: an item whose host
he did not see may or may not be on this survivor, a card missing from the card data may
have any power. The simulator knows everything, so its spans are single values. Effects that
set a power apply before effects that add to it; a power is never below 0.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.effects import Condition, Effect, Row, Target
from zcards.game.table import Player, Survivor, Table
from zcards.game.zombies import HIDDEN

UNKNOWN_POWER = 99  # a card missing from the card data: any power up to this
ZOMBIE_TARGETS = frozenset(
    {
        Target.YOUR_FACE_DOWN_IN_COMBAT,
        Target.YOUR_EX_SURVIVORS,
        Target.FAST_FIGHTING_YOURS,
        Target.FACE_DOWN_FIGHTING_YOURS,
        Target.WEIRD_FIGHTING,
        Target.FIGHTING_ZOMBIES,
    }
)

SURVIVOR_OWN = frozenset({Target.WEIRD_FIGHTING, Target.FIGHTING_ZOMBIES})  # his zombies'


class Span(NamedTuple):
    """A value known to lie in ``lo..hi``."""

    lo: int
    hi: int

    def __add__(self, other: object) -> Span:
        assert isinstance(other, Span)
        return Span(self.lo + other.lo, self.hi + other.hi)

    def plus(self, lo: int, hi: int | None = None) -> Span:
        return Span(self.lo + lo, self.hi + (lo if hi is None else hi))

    def floor(self) -> Span:
        return Span(max(0, self.lo), max(0, self.hi))


EXACT_ZERO = Span(0, 0)


class Fighter(NamedTuple):
    """A zombie in a fight: its name (:data:`HIDDEN` when face down), its controller, and
    whether it is an ex-survivor (R11.3)."""

    name: str
    controller: str
    generic: bool = False


class Fight(NamedTuple):
    """One survivor (of ``defender``) against one or more zombies."""

    survivor: Survivor
    defender: str
    zombies: tuple[Fighter, ...]


@dataclass(frozen=True)
class Boost:
    """A one-shot power effect of this turn (Adrenaline Shot): ``amount`` on one survivor,
    ``target`` (a survivor uid) or, when the observer does not know which, any survivor."""

    amount: int
    target: int | None


class Powers:
    """Power and health of fighters on one table."""

    def __init__(self, cards: CardIndex, table: Table, boosts: Iterable[Boost] = ()) -> None:
        self.cards = cards
        self.table = table
        self.boosts = tuple(boosts)
        # a Powers is made for one moment of one table: what it works out holds meanwhile
        self._rows: dict[str, list[tuple[CardInfo, Row]]] = {}
        self._for_zombies: dict[str, list[tuple[CardInfo, Row]]] = {}
        self._zombies: dict[tuple[Fighter, int, tuple[Fighter, ...]], Span] = {}
        self._survivors: dict[tuple[int, tuple[Fighter, ...]], Span] = {}
        self._reading: dict[tuple[Fighter, str], bool] = {}
        self._counts: dict[str, Span] = {}

    # -- what is on the table --------------------------------------------------------------

    def _info(self, fighter: Fighter) -> CardInfo | None:
        if fighter.name == HIDDEN or fighter.generic:
            return None
        return self.cards.get(fighter.name)

    def _static(self, player: Player) -> list[tuple[CardInfo, Row]]:
        """The power rows of the cards face up on a player's table about other cards than
        themselves (read once: a Powers is made for one moment of one table)."""
        found = self._rows.get(player.name)
        if found is None:
            found = list(self.cards.table_rows_of(frozenset(player.face_up_names())))
            self._rows[player.name] = found
        return found

    def _zombie_rows(self, player: Player) -> list[tuple[CardInfo, Row]]:
        """The rows of his cards that change the power of zombies (his own, or those
        fighting his survivors)."""
        found = self._for_zombies.get(player.name)
        if found is None:
            found = self._for_zombies[player.name] = [
                (card, row) for card, row in self._static(player) if row.target in ZOMBIE_TARGETS
            ]
        return found

    def _in_fight(self, fight: Fight, effect: Effect) -> bool:
        return any(
            (info := self._info(z)) is not None and effect in info.effects for z in fight.zombies
        )

    def _zombie_count(self, player: Player) -> Span:
        found = self._counts.get(player.name)
        if found is None:
            counts = {b.controlled for b in player.zombies.readings}
            hi = UNKNOWN_POWER if player.zombies.unknown else max(counts)
            found = self._counts[player.name] = Span(min(counts), hi)
        return found

    # -- zombies ---------------------------------------------------------------------------

    def zombie(self, fighter: Fighter, fight: Fight) -> Span:
        """One zombie's power in ``fight``."""
        key = (
            fighter,
            fight.survivor.uid if self.reads_survivor(fighter, fight.defender) else -1,
            fight.zombies,
        )
        found = self._zombies.get(key)
        if found is None:
            found = self._zombies[key] = self._zombie(fighter, fight)
        return found

    def reads_survivor(self, fighter: Fighter, defender: str) -> bool:
        """Whether the zombie's power depends on which of the defender's survivors it fights:
        its own text about wounded survivors, or a survivor's text about zombies fighting
        him."""
        key = (fighter, defender)
        found = self._reading.get(key)
        if found is None:
            info = self._info(fighter)
            me = self.table.players.get(defender)
            found = self._reading[key] = (
                info is not None
                and any(r.condition is Condition.FIGHTING_WOUNDED for r in info.own_power_rows)
            ) or (
                me is not None and any(r.target in SURVIVOR_OWN for _, r in self._zombie_rows(me))
            )
        return found

    def _zombie(self, fighter: Fighter, fight: Fight) -> Span:
        info = self._info(fighter)
        owner = self.table.players.get(fighter.controller)
        defender = self.table.players.get(fight.defender)
        if fighter.name != HIDDEN and not fighter.generic and info is None:
            return Span(0, UNKNOWN_POWER)
        power = Span(1, 1) if info is None else Span(info.power, info.power)
        rows = [
            (player, target_ok, self._zombie_rows(player))
            for player, target_ok in ((owner, True), (defender, False))
            if player is not None
        ]
        if (info is None or not info.own_power_rows) and not any(found for _, _, found in rows):
            return power  # nothing on the table changes it
        sets: list[tuple[Span, bool]] = []
        adds = EXACT_ZERO
        if info is not None:
            for row in info.own_power_rows:
                change = self._own_zombie_row(row, fighter, fight, owner)
                if change is not None:
                    sets, adds = _apply(row, change, sets, adds)
        for _, target_ok, found in rows:
            for card, row in found:
                if (
                    target_ok
                    and row.target is Target.YOUR_FACE_DOWN_IN_COMBAT
                    and fighter.name == HIDDEN
                ) or (target_ok and row.target is Target.YOUR_EX_SURVIVORS and fighter.generic):
                    sets, adds = _apply(row, Span(1, 1), sets, adds)
                elif not target_ok:
                    change = self._defender_row(card, row, fighter, info, fight)
                    if change is not None:
                        sets, adds = _apply(row, change, sets, adds)
        return (_set_power(power, sets) + adds).floor()

    def _own_zombie_row(
        self, row: Row, fighter: Fighter, fight: Fight, owner: Player | None
    ) -> Span | None:
        """How often (0 or 1 times, or a count) a zombie's own row applies in this fight."""
        others = list(fight.zombies)
        others.remove(fighter)
        if row.effect is Effect.NO_SOLO:
            return Span(1, 1) if not others else None
        condition = row.condition
        if condition is Condition.FIGHTING_WOUNDED:
            wounds = fight.survivor.wounds
            return Span(0, 1) if wounds is None else _once(wounds > 0)
        if condition in (Condition.ANOTHER_OF_FACTION, Condition.PER_OTHER_OF_FACTION):
            same = sum(
                1
                for other in others
                if (i := self._info(other)) is not None and i.faction == row.faction
            )
            return (
                _once(same > 0) if condition is Condition.ANOTHER_OF_FACTION else Span(same, same)
            )
        if owner is None:
            return Span(0, 1)
        if condition is Condition.ZOMBIES_AT_LEAST:
            count = self._zombie_count(owner)
            return Span(int(count.lo >= row.count), int(count.hi >= row.count))
        if condition is Condition.PER_OTHER_ZOMBIES:
            count = self._zombie_count(owner)
            return Span((count.lo - 1) // row.count, (count.hi - 1) // row.count)
        if condition is Condition.ITEM_IN_DISCARD:
            has = any(
                (i := self.cards.get(n)) is not None and i.type == "Item" for n in owner.discard
            )
            return Span(int(has), 1) if not owner.known else _once(has)
        return _once(condition is Condition.ALWAYS)

    def _defender_row(
        self,
        card: CardInfo,
        row: Row,
        fighter: Fighter,
        info: CardInfo | None,
        fight: Fight,
    ) -> Span | None:
        """Whether a static row of the defending player's cards changes this zombie."""
        if row.effect not in (Effect.POWER, Effect.SET_POWER):
            return None
        if card.barricade and self._in_fight(fight, Effect.NO_BARRICADES):
            return None
        target, survivor = row.target, fight.survivor
        if target is Target.FAST_FIGHTING_YOURS:
            return _once(info is not None and info.has_keyword("Fast"))
        if target is Target.FACE_DOWN_FIGHTING_YOURS:
            return _once(fighter.name == HIDDEN)
        if card.name != survivor.name:
            return None  # the rows below are the fighting survivor's own
        if target is Target.WEIRD_FIGHTING:
            return _once(info is not None and info.faction == "Weird")
        if target is Target.FIGHTING_ZOMBIES and row.condition is Condition.OTHER_SURVIVOR_READY:
            defender = self.table.players[fight.defender]
            others = [s.spent for s in defender.survivors if s.uid != survivor.uid]
            return Span(int(False in others), int(any(s is not True for s in others)))
        return None

    # -- survivors -------------------------------------------------------------------------

    def survivor(self, fight: Fight) -> Span:
        """The survivor's power in ``fight``."""
        key = (fight.survivor.uid, fight.zombies)
        found = self._survivors.get(key)
        if found is None:
            found = self._survivors[key] = self._survivor(fight)
        return found

    def _survivor(self, fight: Fight) -> Span:
        survivor = fight.survivor
        info = self.cards.get(survivor.name)
        if info is None or info.card.power is None:
            return Span(0, UNKNOWN_POWER)
        power = Span(info.power, info.power)
        me = self.table.players[fight.defender]
        for row in info.own_power_rows:
            if row.effect is Effect.POWER:
                times = self._survivor_condition(row, me, fight)
                power = power.plus(row.amount * times.lo, row.amount * times.hi)
        items_count = not self._in_fight(fight, Effect.NO_ITEM_POWER)
        for item in me.items:
            card = self.cards.get(item.name)
            if card is None:
                power = power.plus(0, UNKNOWN_POWER) if items_count else power
                continue
            if items_count:
                for amount in card.host_power:
                    power = _on_host(power, amount, item.host, survivor.uid)
        for boost in self.boosts:
            power = _on_host(power, boost.amount, boost.target, survivor.uid)
        if survivor.infected is not False:
            for player in self.table.players.values():
                for _, row in self._static(player):
                    if row.target is Target.INFECTED_SURVIVORS and row.effect is Effect.POWER:
                        amount = row.amount
                        power = (
                            power.plus(amount)
                            if survivor.infected
                            else power.plus(min(0, amount), max(0, amount))
                        )
        return power.floor()

    def _survivor_condition(self, row: Row, me: Player, fight: Fight) -> Span:
        condition = row.condition
        if condition is Condition.FOOD_BELOW_SURVIVORS:
            food = me.food_now
            if food is None:
                return Span(0, 1)
            return _once(food < len(me.survivors))
        if condition is Condition.SURVIVORS_AT_LEAST:
            return _once(len(me.survivors) >= row.count)
        if condition is Condition.FIGHTING_FAST:
            fast = any(
                (i := self._info(z)) is not None and i.has_keyword("Fast") for z in fight.zombies
            )
            return _once(fast)
        if condition is Condition.CONTROLS_BARRICADE:
            has = any((c := self.cards.get(i.name)) is not None and c.barricade for i in me.items)
            return _once(has)
        return _once(condition is Condition.ALWAYS)

    def health(self, owner: str, survivor: Survivor) -> Span | None:
        """The survivor's Health with the items that may be attached to it (None: unknown)."""
        info = self.cards.get(survivor.name)
        if info is None or info.health is None:
            return None
        health = Span(info.health, info.health)
        for item in self.table.players[owner].items:
            card = self.cards.get(item.name)
            for amount in card.host_health if card is not None else ():
                health = _on_host(health, amount, item.host, survivor.uid)
        return health


def _once(holds: bool) -> Span:
    return Span(1, 1) if holds else EXACT_ZERO


def _apply(
    row: Row, times: Span, sets: list[tuple[Span, bool]], adds: Span
) -> tuple[list[tuple[Span, bool]], Span]:
    """Add one row's change: a power it sets (surely, or maybe: ``times``), or its amount
    ``times`` over."""
    if row.effect in (Effect.SET_POWER, Effect.NO_SOLO):
        if times.hi:
            sets = [*sets, (Span(row.amount, row.amount), bool(times.lo))]
        return sets, adds
    low, high = row.amount * times.lo, row.amount * times.hi
    return sets, adds.plus(min(low, high), max(low, high))


def _set_power(printed: Span, sets: list[tuple[Span, bool]]) -> Span:
    """The power before additions: the printed one unless a set surely applies; every set
    that may apply is a possibility."""
    if not sets:
        return printed
    values = [span for span, _ in sets]
    if not any(sure for _, sure in sets):
        values.append(printed)
    return Span(min(v.lo for v in values), max(v.hi for v in values))


def _on_host(value: Span, amount: int, host: int | None, uid: int) -> Span:
    """``value`` with a bonus of an item (or boost) that is on this survivor (``host`` is its
    uid), or may be (``host`` None)."""
    if host == uid:
        return value.plus(amount)
    if host is None:
        return value.plus(min(0, amount), max(0, amount))
    return value


def hull(a: Span, b: Span) -> Span:
    """The smallest span holding both."""
    return Span(min(a.lo, b.lo), max(a.hi, b.hi))
