"""A player that searches: it weighs its blocks against the attacker's best reply, and keeps
its deck.

The greedy player never blocks a fight it would lose, so the attackers it leaves unblocked
go where they like (R10.3) and a 2-power zombie kills a 1-power survivor outright. This
player tries the ways to block (each attacker left alone or met by one free survivor, at most
:data:`BUDGET` plans a decision, the greedy plan among the first), answers each with the
attacker's greedy assignment of the leftover attackers, and reads every fight's result from
the rules model's own outcomes (:func:`zcards.game.fights.outcomes`): exact when the powers
are known, the worst case for it when they are not. It keeps the plan that loses the least:
a chump block that saves a stronger survivor is taken, one that only costs a survivor is not.
It uses "draw a card" text only while its deck is longer than every opponent's, since the
player whose deck runs out first loses (R14.1). Everything else it plays as the greedy player.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import ClassVar

from zcards.game.effects import Effect
from zcards.game.fights import Outcomes
from zcards.game.options import Use
from zcards.game.table import Player, Survivor
from zcards.sim.declaring import Assignment, Attacker
from zcards.sim.players import GreedyStrategy, Strategy

BUDGET = 400  # block plans weighed per Attack phase
LAST_SURVIVOR = 100.0  # losing every survivor loses the game (R14.1)
DECK_MARGIN = 2  # cards its deck must be longer than each opponent's before it draws by text


class SearchStrategy(GreedyStrategy):
    """The greedy player, with searched blocks and a deck it does not draw out."""

    kind = "search"
    policy: ClassVar[dict[str, str]] = {
        **GreedyStrategy.policy,
        "blocking": f"tries up to {BUDGET} ways to block (each attacker unblocked or met by one"
        " free survivor), answers each with the attacker's greedy assignment of the leftover"
        " attackers, and keeps the one that loses the least survivor value (chump blocks"
        " included)",
        "cards": GreedyStrategy.policy["cards"]
        + "; uses 'draw a card' text only while its deck is longer than every opponent's",
    }

    def defend(self, assignment: Assignment) -> None:
        best: tuple[float, int, list[tuple[Survivor, Attacker]]] | None = None
        reply = GreedyStrategy(self.rng, self.cards)  # its assignment draws no random numbers
        for plan in _plans(assignment, BUDGET):
            trial = _trial(assignment)
            if not all(trial.block(survivor, attacker) for survivor, attacker in plan):
                continue
            for owner in dict.fromkeys(owner for owner, _ in assignment.attackers):
                reply.assign(trial, owner)
            score = (self._loss(trial), len(plan), plan)
            if best is None or score[:2] < best[:2]:
                best = score
        for survivor, attacker in best[2] if best else ():
            assignment.block(survivor, attacker)

    def assign(self, assignment: Assignment, me: str) -> None:
        """Send the leftover attackers where they cost the survivor player the most: every
        way of sending each (or holding it back), at most BUDGET, weighed like blocks."""
        leftover = assignment.leftover(me)
        best: tuple[float, list[tuple[Attacker, Survivor]]] | None = None
        for plan in _sendings(assignment, leftover, BUDGET):
            trial = _trial(assignment)
            if all(trial.join(survivor, attacker) for attacker, survivor in plan):
                score = self._loss(trial)
                if best is None or score > best[0]:
                    best = (score, plan)
        unsent = list(leftover)
        for attacker, survivor in best[1] if best else ():
            if assignment.join(survivor, attacker):
                unsent.remove(attacker)
        if unsent:  # a fight the rules forbid: the greedy player places what is left
            super().assign(assignment, me)

    def _loss(self, trial: Assignment) -> float:
        """The survivor value the fights may cost, less a little for attackers spent."""
        loss, dead = 0.0, 0
        for survivor, zombies in trial.fights():
            result = trial.outcomes(survivor, zombies)
            cost, killed = self._fight_cost(survivor, result)
            loss += cost
            dead += killed
            if result.lose and not result.win:
                loss -= 0.5 * len(zombies)
        if trial.survivors and dead == len(trial.survivors):
            loss += LAST_SURVIVOR
        return loss

    def _fight_cost(self, survivor: Survivor, result: Outcomes) -> tuple[float, bool]:
        info = self._info(survivor.name)
        health = info.health or 1
        left = max(1, health - (survivor.wounds or 0))
        worth = float(info.power + health + 2)
        if result.overwhelm:
            return worth, True
        wounds = max(result.wounds, default=1) if result.win else result.backlash
        if wounds >= left:
            return worth, True
        cost = worth * wounds / health
        if result.win and result.infect and not survivor.infected:
            cost += worth / 2  # a wound every Ready phase, then the zombie player's
        return cost, False

    def ability(self, me: Player, options: list[Use]) -> Use | None:  # type: ignore[override]
        if not self._may_draw(me):
            options = [use for use in options if not use.does(Effect.DRAW)]
        return super().ability(me, options)

    def _may_draw(self, me: Player) -> bool:
        if self.game is None or me.deck is None:
            return True
        others = [
            p.deck for p in self.game.players.values() if p.name != me.name and p.deck is not None
        ]
        return all(me.deck > deck + DECK_MARGIN for deck in others)


def _trial(assignment: Assignment) -> Assignment:
    """The assignment as declared so far, to try more fights on, sharing its worked-out fight
    outcomes. A trial asks no legality of its fights (the executor's ``legal`` is the cost of
    a search): the plan kept is declared on the real assignment, which asks it of every
    fight."""
    trial = copy.copy(assignment)
    trial._fights = {uid: list(fight) for uid, fight in assignment._fights.items()}
    trial._blocked, trial.allows = set(assignment._blocked), None
    return trial


def _sendings(
    assignment: Assignment, attackers: list[Attacker], budget: int
) -> Iterator[list[tuple[Attacker, Survivor]]]:
    """Ways to send ``attackers``: each at one survivor (the weakest first) or held back."""
    targets = sorted(assignment.survivors, key=lambda s: assignment.outcomes(s, []).survivor.lo)
    count = 0

    def walk(
        index: int, plan: list[tuple[Attacker, Survivor]]
    ) -> Iterator[list[tuple[Attacker, Survivor]]]:
        nonlocal count
        if count >= budget:
            return
        if index == len(attackers):
            count += 1
            yield list(plan)
            return
        for survivor in targets:
            plan.append((attackers[index], survivor))
            yield from walk(index + 1, plan)
            plan.pop()
        yield from walk(index + 1, plan)

    yield from walk(0, [])


def _plans(assignment: Assignment, budget: int) -> Iterator[list[tuple[Survivor, Attacker]]]:
    """Block plans, strongest attackers first: each left unblocked or met by a free survivor;
    the plan of no blocks first, at most ``budget`` plans."""
    attackers = sorted(
        assignment.attackers,
        key=lambda a: -assignment.outcomes(assignment.survivors[0], [a]).zombies.hi,
    )
    count = 0

    def walk(
        index: int, free: list[Survivor], plan: list[tuple[Survivor, Attacker]]
    ) -> Iterator[list[tuple[Survivor, Attacker]]]:
        nonlocal count
        if count >= budget:
            return
        if index == len(attackers) or not free:
            count += 1
            yield list(plan)
            return
        yield from walk(index + 1, free, plan)
        for survivor in free:
            plan.append((survivor, attackers[index]))
            yield from walk(index + 1, [s for s in free if s is not survivor], plan)
            plan.pop()

    yield from walk(0, list(assignment.survivors), [])


STRATEGIES: dict[str, type[Strategy]] = {
    "random": Strategy,
    "greedy": GreedyStrategy,
    "search": SearchStrategy,
}
"""Every player by the name ``--strategy`` takes."""
