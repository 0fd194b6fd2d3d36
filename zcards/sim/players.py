"""Automated players: a random one that tries every legal choice, and a greedy one.

The simulator offers a player only the choices the rules model allows (:mod:`zcards.game.options`)
and the player picks; so a strategy can never make a game illegal, and the random player
explores corners the greedy one avoids. Both use card text: they attach items to survivors,
play one-shot items, use survivors' and zombies' abilities, Medic and Scavenger, and take
the choices a fight's text offers (a Kamikaze Corpse's extra wounds, an infection).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.definition import OPENING_BUDGET
from zcards.game.effects import Effect, Row
from zcards.game.fights import Outcomes
from zcards.game.ledger import Game
from zcards.game.options import Use, host_rows, payable
from zcards.game.power import Powers
from zcards.game.rules import opening_fits
from zcards.game.table import Player, Survivor
from zcards.game.zombies import Zombie
from zcards.sim.declaring import Assignment, Attacker

T = TypeVar("T")


class Strategy:
    """Random legal choices; :class:`GreedyStrategy` overrides the ones it plays better."""

    kind = "random"
    policy: ClassVar[dict[str, str]] = {
        "bidding": "bids 0-10 food at random; winning the bid, picks the first player at random",
        "attacking": "moves each ready zombie to combat with chance 0.6 and sends each leftover"
        " attacker at a random survivor",
        "blocking": "blocks with each survivor with chance 0.5, against a random attacker",
        "cards": "plays a random playable card (chance 0.7) and a random resource, arms a"
        " random survivor, uses each legal ability with chance 0.6",
    }
    """What the player does, as a balance report states it."""

    def __init__(self, rng: random.Random, cards: CardIndex) -> None:
        self.rng = rng
        self.cards = cards
        self.game: Game | None = None  # the table as every player sees it (play_game sets it)

    def _maybe(self, options: Sequence[T], chance: float = 0.7) -> T | None:
        return self.rng.choice(options) if options and self.rng.random() < chance else None

    def _info(self, name: str) -> CardInfo:
        info = self.cards.get(name)
        assert info is not None
        return info

    # -- setup -------------------------------------------------------------------------------

    def bid(self) -> int:
        return self.rng.randint(0, 10)

    def first_player(self, me: str, names: Sequence[str]) -> str:
        return self.rng.choice(list(names))

    def opening(self, deck: Sequence[CardInfo]) -> list[CardInfo]:
        candidates = [card for card in deck if card.type == "Survivor"]
        self.rng.shuffle(candidates)
        chosen: list[CardInfo] = []
        for card in candidates:
            if opening_fits([*(c.cost for c in chosen), card.cost]) and self.rng.random() < 0.8:
                chosen.append(card)
        return chosen

    # -- cards -------------------------------------------------------------------------------

    def discard(self, me: Player) -> str:
        return self.rng.choice(sorted(me.hand_names.elements()))

    def resource(self, me: Player, options: Sequence[str]) -> str | None:
        """One of ``options`` (his hand's cards, one per copy, sorted) as his resource."""
        return self._maybe(options, 0.8)

    def play(self, me: Player, options: Sequence[CardInfo]) -> CardInfo | None:
        return self._maybe(options)

    def pay(self, me: Player, cost: int) -> list[Zombie]:
        ready = payable(me)
        return self.rng.sample(ready, min(cost, len(ready)))

    def host(self, me: Player, item: CardInfo, powers: Powers) -> Survivor | None:
        """The survivor an item is attached to (None for an item without a host)."""
        return self.rng.choice(me.survivors) if host_rows(item) and me.survivors else None

    def upgrade(self, me: Player, options: Sequence[Zombie]) -> Zombie | None:
        return self._maybe(options)

    def use_optional(self, row: Row) -> bool:
        return self.rng.random() < 0.7

    def pick_card(self, names: Sequence[str]) -> str:
        return self.rng.choice(list(names))

    def most_wounded(self, survivors: Sequence[Survivor]) -> Survivor:
        return max(survivors, key=lambda s: s.wounds or 0)

    def zombies_to_spend(self, targets: Sequence[Attacker], amount: int) -> list[Attacker]:
        return self.rng.sample(list(targets), min(amount, len(targets)))

    # -- attack ------------------------------------------------------------------------------

    def attack_ability(
        self, uses: Sequence[Use], targets: Sequence[Attacker]
    ) -> tuple[Use, Attacker] | None:
        if not uses or not targets or self.rng.random() < 0.4:
            return None
        return self.rng.choice(list(uses)), self.rng.choice(list(targets))

    def defend(self, assignment: Assignment) -> None:
        """Assign some survivors, each to a different attacker."""
        pool = list(assignment.attackers)
        for survivor in assignment.survivors:
            if pool and self.rng.random() < 0.5:
                assignment.block(survivor, pool.pop(self.rng.randrange(len(pool))))

    def assign(self, assignment: Assignment, me: str) -> None:
        """Send leftover attackers at survivors, starting new fights as needed."""
        for attacker in assignment.leftover(me):
            target = self._maybe(assignment.survivors, 0.8)
            if target is not None:
                assignment.join(target, attacker)

    def fight_order(
        self, fights: list[tuple[Survivor, list[Attacker]]]
    ) -> list[tuple[Survivor, list[Attacker]]]:
        return self.rng.sample(fights, len(fights))

    def kamikaze(self, survivor: Survivor, wounds: int) -> bool:
        return self.rng.random() < 0.5

    def infect(self, survivor: Survivor) -> bool:
        return self.rng.random() < 0.7

    # -- recoup ------------------------------------------------------------------------------

    def ability(self, me: Player, options: Sequence[Use]) -> Use | None:
        return self._maybe(options, 0.6)

    def to_combat(self, me: Player, options: Sequence[Zombie]) -> list[Zombie]:
        return [zombie for zombie in options if self.rng.random() < 0.6]

    def starve(self, me: Player) -> Survivor:
        return self.rng.choice(me.survivors)


class GreedyStrategy(Strategy):
    """Plays the strongest survivors, arms them, attacks where it hurts and defends where it
    wins."""

    kind = "greedy"
    policy: ClassVar[dict[str, str]] = {
        "bidding": "bids 6-9 food at random; winning the bid (the lower bid), goes first: under"
        " bidding the first player is the one who started with less food",
        "attacking": "moves every ready zombie to combat; sends each leftover attacker where"
        " it gains most (an overwhelmed survivor, then a won fight, then a wound)",
        "blocking": "against the strongest attackers first, blocks with the weakest survivor"
        " that still wins; never blocks a fight it would lose",
        "cards": "plays its strongest survivor while its food covers upkeep, else a useful item"
        " (arms, heals, cures, feeds); arms its strongest survivor; turns up its strongest"
        " zombie; heals, feeds and scavenges when short, draws and cures; plays its strongest"
        " zombie as the resource and discards its weakest card",
    }

    def bid(self) -> int:
        return self.rng.randint(6, 9)

    def first_player(self, me: str, names: Sequence[str]) -> str:
        return me

    def opening(self, deck: Sequence[CardInfo]) -> list[CardInfo]:
        return best_survivors(deck, OPENING_BUDGET)

    def discard(self, me: Player) -> str:
        return min(sorted(me.hand_names), key=lambda name: _value(self._info(name)))

    def resource(self, me: Player, options: Sequence[str]) -> str | None:
        if not options:
            return None
        hand = [self._info(name) for name in sorted(set(options))]
        zombies = [card for card in hand if card.type == "Zombie"]
        if zombies:
            return max(zombies, key=lambda card: card.power).name
        return min(hand, key=_value).name

    def play(self, me: Player, options: Sequence[CardInfo]) -> CardInfo | None:
        survivors = [card for card in options if card.type == "Survivor"]
        if survivors and len(me.survivors) + 1 < (me.food or 0):
            return max(survivors, key=_value)
        items = [card for card in options if card.type == "Item" and self._useful(me, card)]
        return items[0] if items else None

    def _useful(self, me: Player, item: CardInfo) -> bool:
        """An item worth its cost now: one that arms a survivor, heals, cures or feeds."""
        if host_rows(item) or item.barricade:
            return bool(me.survivors)
        if item.has(Effect.HEAL):
            return any(s.wounds for s in me.survivors)
        if item.has(Effect.CURE):
            return any(s.infected for s in me.survivors)
        return True

    def pay(self, me: Player, cost: int) -> list[Zombie]:
        """Spend zombies already in combat first: the rest can still move there in Recoup."""
        ready = sorted(payable(me), key=lambda z: (not z.combat, z.face_up, z.name))
        return ready[:cost]

    def host(self, me: Player, item: CardInfo, powers: Powers) -> Survivor | None:
        """Arm the strongest survivor (it wins the most fights)."""
        if not host_rows(item) or not me.survivors:
            return None
        return max(me.survivors, key=lambda s: (self._info(s.name).power, -(s.wounds or 0)))

    def upgrade(self, me: Player, options: Sequence[Zombie]) -> Zombie | None:
        return max(options, key=lambda zombie: self._info(zombie.name).power, default=None)

    def use_optional(self, row: Row) -> bool:
        return True

    def zombies_to_spend(self, targets: Sequence[Attacker], amount: int) -> list[Attacker]:
        def power(attacker: Attacker) -> int:
            zombie = attacker[1]
            return self._info(zombie.name).power if zombie.face_up and not zombie.generic else 1

        return sorted(targets, key=power, reverse=True)[:amount]

    def attack_ability(
        self, uses: Sequence[Use], targets: Sequence[Attacker]
    ) -> tuple[Use, Attacker] | None:
        if not uses or not targets:
            return None
        return uses[0], self.zombies_to_spend(targets, 1)[0]

    def defend(self, assignment: Assignment) -> None:
        """Send the weakest survivor that still wins against each attacker, strongest first."""
        free = sorted(assignment.survivors, key=lambda s: self._info(s.name).power)

        def zombie_power(attacker: Attacker) -> int:
            return assignment.outcomes(free[0], [attacker]).zombies.hi if free else 0

        for attacker in sorted(assignment.attackers, key=zombie_power, reverse=True):
            for survivor in free:
                if not assignment.outcomes(survivor, [attacker]).win and assignment.block(
                    survivor, attacker
                ):
                    free.remove(survivor)
                    break

    def assign(self, assignment: Assignment, me: str) -> None:
        for attacker in assignment.leftover(me):
            best, gain = None, 0
            for survivor in assignment.survivors:
                now = _gain(assignment.outcomes(survivor, assignment.against(survivor)))
                then = _gain(
                    assignment.outcomes(survivor, [*assignment.against(survivor), attacker])
                )
                if then - now > gain:
                    best, gain = survivor, then - now
            if best is None or not assignment.join(best, attacker):
                for survivor in assignment.survivors:
                    if assignment.join(survivor, attacker):
                        break

    def kamikaze(self, survivor: Survivor, wounds: int) -> bool:
        return True

    def infect(self, survivor: Survivor) -> bool:
        return True

    def ability(self, me: Player, options: Sequence[Use]) -> Use | None:
        heals = [u for u in options if u.target is not None]
        if heals:
            return max(heals, key=lambda u: getattr(u.target, "wounds", 0) or 0)
        food = [u for u in options if u.does(Effect.FOOD)]
        if food and (me.food or 0) < len(me.survivors) + 2:
            return food[0]
        if (me.food or 0) < len(me.survivors) + 2:
            scavenge = next((u for u in options if not u.rows and u.target is None), None)
            if scavenge is not None:
                return scavenge
        return next((u for u in options if u.does(Effect.DRAW) or u.does(Effect.CURE)), None)

    def to_combat(self, me: Player, options: Sequence[Zombie]) -> list[Zombie]:
        return list(options)

    def starve(self, me: Player) -> Survivor:
        return max(me.survivors, key=lambda s: (self._info(s.name).health or 1) - (s.wounds or 0))


def best_survivors(deck: Sequence[CardInfo], budget: int) -> list[CardInfo]:
    """The survivors from ``deck`` with the most power plus health at a total cost <= budget."""
    best: dict[int, tuple[int, list[CardInfo]]] = {0: (0, [])}
    for card in deck:
        if card.type != "Survivor":
            continue
        for spent, (score, chosen) in sorted(best.items(), reverse=True):
            total = spent + card.cost
            if total <= budget and best.get(total, (-1, []))[0] < score + _value(card):
                best[total] = (score + _value(card), [*chosen, card])
    return max(best.values(), key=lambda entry: entry[0])[1]


def _value(card: CardInfo) -> int:
    bonus = 2 if card.type == "Survivor" else 1 if card.type == "Zombie" else 0
    return card.power + (card.health or 0) + bonus


def _gain(result: Outcomes) -> int:
    """How good a fight's outcome is for the zombie side."""
    if result.overwhelm:
        return 3
    if result.win:
        return 2
    return 1 if result.zombies.hi else 0
