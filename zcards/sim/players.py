"""Automated players: a random one that tries every legal choice, and a greedy one.

The simulator offers a player only legal options and the player picks; so a strategy can never
make a game illegal, and the random player explores corners the greedy one avoids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from zcards.cards.model import Card
from zcards.game.definition import OPENING_BUDGET
from zcards.sim.state import COMBAT_ZONE, PlayerState, TableCard


@dataclass
class Fight:
    """One survivor against one or more zombies."""

    survivor: TableCard
    zombies: list[TableCard] = field(default_factory=list)

    @property
    def power(self) -> int:
        return sum(zombie.power for zombie in self.zombies)


@dataclass(frozen=True)
class Ability:
    """A Recoup ability: ``kind`` is "scavenge" or "heal"; ``target`` is the healed survivor."""

    kind: str
    user: TableCard
    target: TableCard | None = None


class Strategy:
    """Random legal choices; :class:`GreedyStrategy` overrides the ones it plays better."""

    kind = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _maybe(self, options: Sequence, chance: float = 0.7):
        return self.rng.choice(options) if options and self.rng.random() < chance else None

    def bid(self) -> int:
        return self.rng.randint(0, 10)

    def first_player(self, me: str, names: Sequence[str]) -> str:
        return self.rng.choice(list(names))

    def opening(self, deck: Sequence[Card]) -> list[Card]:
        candidates = [card for card in deck if card.type == "Survivor"]
        self.rng.shuffle(candidates)
        chosen: list[Card] = []
        for card in candidates:
            fits = sum(c.cost or 0 for c in chosen) + (card.cost or 0) <= OPENING_BUDGET
            if fits and self.rng.random() < 0.8:
                chosen.append(card)
        return chosen

    def discard(self, me: PlayerState) -> Card:
        return self.rng.choice(me.hand)

    def resource(self, me: PlayerState) -> Card | None:
        return self._maybe(me.hand, 0.8)

    def play(self, me: PlayerState, options: Sequence[Card]) -> Card | None:
        return self._maybe(options)

    def pay(self, me: PlayerState, cost: int) -> list[TableCard]:
        return self.rng.sample(me.ready_zombies, cost)

    def upgrade(self, me: PlayerState, options: Sequence[TableCard]) -> TableCard | None:
        return self._maybe(options)

    def defend(self, survivors: Sequence[TableCard], attackers: Sequence[TableCard]) -> list[Fight]:
        """Assign some survivors, each to a different attacker."""
        pool = list(attackers)
        fights = []
        for survivor in survivors:
            if pool and self.rng.random() < 0.5:
                zombie = pool.pop(self.rng.randrange(len(pool)))
                fights.append(Fight(survivor, [zombie]))
        return fights

    def assign(
        self, fights: list[Fight], survivors: Sequence[TableCard], leftover: Sequence[TableCard]
    ) -> None:
        """The zombie player adds leftover attackers to fights, starting new ones as needed."""
        for zombie in leftover:
            target = self._maybe(survivors, 0.8)
            if target is not None:
                _join(fights, target, zombie)

    def fight_order(self, fights: list[Fight]) -> list[Fight]:
        return self.rng.sample(fights, len(fights))

    def infect(self, survivor: TableCard) -> bool:
        return self.rng.random() < 0.7

    def ability(self, me: PlayerState, options: Sequence[Ability]) -> Ability | None:
        return self._maybe(options, 0.6)

    def to_combat(self, me: PlayerState, options: Sequence[TableCard]) -> list[TableCard]:
        return [zombie for zombie in options if self.rng.random() < 0.6]

    def starve(self, me: PlayerState) -> TableCard:
        return self.rng.choice(me.survivors)


class GreedyStrategy(Strategy):
    """Plays the strongest survivors, attacks where it hurts and defends where it wins."""

    kind = "greedy"

    def bid(self) -> int:
        return self.rng.randint(6, 9)

    def first_player(self, me: str, names: Sequence[str]) -> str:
        return me

    def opening(self, deck: Sequence[Card]) -> list[Card]:
        return best_survivors(deck, OPENING_BUDGET)

    def discard(self, me: PlayerState) -> Card:
        return min(me.hand, key=_value)

    def resource(self, me: PlayerState) -> Card | None:
        if not me.hand:
            return None
        zombies = [card for card in me.hand if card.type == "Zombie"]
        if zombies:
            return max(zombies, key=lambda card: card.power or 0)
        return min(me.hand, key=_value)

    def play(self, me: PlayerState, options: Sequence[Card]) -> Card | None:
        survivors = [card for card in options if card.type == "Survivor"]
        if survivors and len(me.survivors) + 1 < me.food:
            return max(survivors, key=_value)
        items = [card for card in options if card.type == "Item"]
        return items[0] if items else None

    def pay(self, me: PlayerState, cost: int) -> list[TableCard]:
        """Spend zombies already in combat first: the rest can still move there in Recoup."""
        ready = sorted(me.ready_zombies, key=lambda z: (z.zone != COMBAT_ZONE, z.power))
        return ready[:cost]

    def upgrade(self, me: PlayerState, options: Sequence[TableCard]) -> TableCard | None:
        return max(options, key=lambda zombie: zombie.card.power or 0, default=None)

    def defend(self, survivors: Sequence[TableCard], attackers: Sequence[TableCard]) -> list[Fight]:
        """Send the weakest survivor that still wins against each attacker, strongest first."""
        free = sorted(survivors, key=lambda survivor: survivor.power)
        fights = []
        for zombie in sorted(attackers, key=lambda zombie: -zombie.power):
            winner = next((s for s in free if s.power > zombie.power), None)
            if winner is not None:
                free.remove(winner)
                fights.append(Fight(winner, [zombie]))
        return fights

    def assign(
        self, fights: list[Fight], survivors: Sequence[TableCard], leftover: Sequence[TableCard]
    ) -> None:
        against = {id(fight.survivor): fight.power for fight in fights}
        for zombie in sorted(leftover, key=lambda zombie: -zombie.power):
            power = zombie.power
            target = max(survivors, key=lambda s: _gain(against.get(id(s), 0), power, s.power))
            _join(fights, target, zombie)
            against[id(target)] = against.get(id(target), 0) + power

    def infect(self, survivor: TableCard) -> bool:
        return True

    def ability(self, me: PlayerState, options: Sequence[Ability]) -> Ability | None:
        heals = [option for option in options if option.kind == "heal"]
        if heals:
            return max(heals, key=lambda option: option.target.wounds if option.target else 0)
        if me.food < len(me.survivors) + 2:
            return next((option for option in options if option.kind == "scavenge"), None)
        return None

    def to_combat(self, me: PlayerState, options: Sequence[TableCard]) -> list[TableCard]:
        return list(options)

    def starve(self, me: PlayerState) -> TableCard:
        return max(me.survivors, key=lambda survivor: survivor.health - survivor.wounds)


STRATEGIES: dict[str, type[Strategy]] = {"random": Strategy, "greedy": GreedyStrategy}


def best_survivors(deck: Sequence[Card], budget: int) -> list[Card]:
    """The survivors from ``deck`` with the most power plus health at a total cost <= budget."""
    best: dict[int, tuple[int, list[Card]]] = {0: (0, [])}
    for card in deck:
        if card.type != "Survivor":
            continue
        cost = card.cost or 0
        for spent, (score, chosen) in sorted(best.items(), reverse=True):
            total = spent + cost
            if total <= budget and best.get(total, (-1, []))[0] < score + _value(card):
                best[total] = (score + _value(card), [*chosen, card])
    return max(best.values(), key=lambda entry: entry[0])[1]


def _value(card: Card) -> int:
    bonus = 2 if card.type == "Survivor" else 1 if card.type == "Zombie" else 0
    return (card.power or 0) + (card.health or 0) + bonus


def _join(fights: list[Fight], survivor: TableCard, zombie: TableCard) -> None:
    for fight in fights:
        if fight.survivor is survivor:
            fight.zombies.append(zombie)
            return
    fights.append(Fight(survivor, [zombie]))


def _gain(before: int, power: int, defence: int) -> int:
    """How much adding a zombie of ``power`` to a fight against a survivor of power
    ``defence`` (zombies worth ``before`` already in it) helps the zombie side."""
    after = before + power
    if before >= 2 * defence:
        return 0
    if after >= 2 * defence:
        return 3
    if after >= defence:
        return 2
    return 1
