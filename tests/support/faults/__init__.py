"""Planted violations, the measure of what the audit catches: for each violation kind, turn a
legal log into one that breaks exactly that rule, and say on which line the audit must
report it.

A mutator takes the events of a legal log (one event per line), a random source and a
:class:`~support.faults.splice.Book` (card data, deck sizes), and returns a
:class:`~support.faults.splice.Mutation`, or None when the log has no place for the violation.
Places are chosen so that no reading of the mutated log is legal: the audit is sound, so a
change that a hidden card or card text could explain (R16.1) would rightly not be reported.
Where a check can only conclude at the end of a phase (a missing wound, a survivor that
stays in play), the reported line is that phase change, as the audit reports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.game.catalogue import Kind as Violation

from . import fight, play, recoup, setup
from .splice import Book, Mutation

Mutator = Callable[[Sequence[ev.Event], random.Random, Book], Mutation | None]

MUTATORS: dict[str, Mutator] = {
    Violation.DRAW_COUNT: play.draw_count,
    Violation.RESOURCE_PLAY: play.resource_play,
    Violation.CARD_PLAY: play.card_play,
    Violation.OPENING_SURVIVORS: play.opening_survivors,
    Violation.PHASE_ORDER: play.phase_order,
    Violation.ILLEGAL_ATTACKER: fight.illegal_attacker,
    Violation.COMBAT_RESULT: fight.combat_result,
    Violation.FOOD_UPKEEP: fight.food_upkeep,
    Violation.INFECTION_WOUND: fight.infection_wound,
    Violation.ZOMBIE_UPGRADE: play.zombie_upgrade,
    Violation.SCAVENGE_FOOD: fight.scavenge_food,
    Violation.ABILITY_USE: fight.ability_use,
    Violation.ACTION_AFTER_LOSS: play.action_after_loss,
    Violation.DEAD_SURVIVOR: fight.dead_survivor,
    "food-total": fight.food_total,
    "bid-range": setup.bid_range,
    "bid-food": setup.bid_food,
    "opening-shuffle": setup.opening_shuffle,
    "turn-order": setup.turn_order,
    "combat-move": recoup.combat_move,
    "scavenge-penalty": recoup.scavenge_penalty,
    "deck-to-resource": recoup.deck_to_resource,
    Violation.OPENING_HAND: setup.opening_hand,
    Violation.FOOD_LOSS: recoup.food_loss,
    Violation.READYING: recoup.readying,
}
# A "from" value that contradicts the tracked food is an unlogged change (an undo, a revert):
# the audit must report it unverifiable, never as a violation (audit contract).
UNVERIFIABLE = frozenset({"food-total"})


def mutate(
    kind: str,
    events: Sequence[ev.Event],
    rng: random.Random,
    cards: Mapping[str, Card],
    decks: Mapping[str, int] | None = None,
) -> Mutation | None:
    """Inject one violation of ``kind`` into a legal log, or None when it has no place for it.

    ``decks`` (deck sizes by player) lets mutators that take cards from a deck make sure the
    deck does not run out earlier than in the legal game.
    """
    return MUTATORS[str(kind)](events, rng, Book(cards, decks))


__all__ = ["MUTATORS", "UNVERIFIABLE", "Book", "Mutation", "Mutator", "mutate"]
