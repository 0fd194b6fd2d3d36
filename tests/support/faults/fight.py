"""Mutators for fights, the Ready and Recoup phases, death and food."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind as Violation
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.game.effects import Effect

from .logview import Side, setup_end, texts, walk
from .splice import (
    FACE_DOWN,
    FIGHT_TEXT,
    Book,
    Mutation,
    Site,
    acted_on,
    cut,
    delete,
    insert,
    is_phase,
    is_spend,
    next_phase_line,
    pick,
    swap,
)

Events = Sequence[ev.Event]


def illegal_attacker(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A zombie player's face-down card loses a fight although he has nothing in combat."""
    spending = book.flagged(Effect.SPEND)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if not is_phase(e, "Attack"):
            continue
        for name, side in sides.items():
            if (
                name != moment.active
                and side.combat == 0
                and side.face_down >= 1
                and not texts(moment, sides, name) & spending
            ):
                spend = ev.Perform.of(name, Meaning.SPEND, FACE_DOWN, game=ZOMBIE_GAME)
                sites.append(
                    (
                        partial(insert, events, i + 1, spend),
                        f"{name} attacks from outside combat",
                    )
                )
    return pick(Violation.ILLEGAL_ATTACKER, sites, rng)


def combat_result(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A wound in an Attack phase that no attacker can cause: on a zombie player's survivor,
    or on the active player's when no other player has anything in combat."""
    explaining = book.flagged(*FIGHT_TEXT)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if not is_phase(e, "Attack") or moment.active is None or texts(moment, sides) & explaining:
            continue
        unopposed = not any(side.combat for name, side in sides.items() if name != moment.active)
        for name, side in sides.items():
            if name != moment.active or unopposed:
                sites.extend(_wound_sites(events, i + 1, name, side, book))
    return pick(Violation.COMBAT_RESULT, sites, rng)


def _wound_sites(events: Events, index: int, player: str, side: Side, book: Book) -> list[Site]:
    sites: list[Site] = []
    for survivor in side.named:
        card = book.cards.get(survivor)
        wounds = side.wounds.get(survivor, 0)
        if card and card.type == "Survivor" and wounds + 1 < (card.health or 1):
            hit = ev.CounterChange.of(
                player, Meaning.WOUND, survivor, wounds, wounds + 1, game=ZOMBIE_GAME
            )
            sites.append(
                (
                    partial(insert, events, index, hit),
                    f"{player}'s {survivor} wounded with no attacker",
                )
            )
    return sites


def food_upkeep(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """Drop the upkeep food line of a player's last Recoup (no later upkeep or food line
    depends on his food total); found when that Recoup ends."""
    last_food = {e.target: i for i, e in enumerate(events) if isinstance(e, ev.StatChange)}
    ends = [(i, moment.active) for i, e, moment, _ in walk(events) if is_phase(e, "End")]
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if not (
            isinstance(e, ev.StatChange)
            and moment.phase == "Recoup"
            and e.target == moment.active
            and e.delta == -1
            and last_food[e.target] == i
        ):
            continue
        mine = [j for j, active in ends if j > i and active == e.target]
        if len(mine) == 1:
            sites.append((partial(delete, events, i, mine[0]), f"{e.target} no upkeep"))
    return pick(Violation.FOOD_UPKEEP, sites, rng)


def infection_wound(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """Drop an infected survivor's wound from a Ready phase (one that did not kill it: a
    death line would still follow); found when the phase ends."""
    sites: list[Site] = []
    for i, e, moment, _ in walk(events[:-1]):
        if not (
            isinstance(e, ev.CounterChange)
            and e.meaning == Meaning.WOUND
            and moment.phase == "Ready"
            and moment.turn > 0
        ):
            continue
        end = next_phase_line(events, i + 1)
        if end is not None and not any(_leaves(later, e.card) for later in events[i + 1 : end]):
            sites.append((partial(delete, events, i, end), f"{e.card} not wounded"))
    return pick(Violation.INFECTION_WOUND, sites, rng)


def _leaves(event: ev.Event, card: str) -> bool:
    """A line by which a survivor leaves play (dies, or is taken over)."""
    if getattr(event, "card", None) != card:
        return False
    return isinstance(event, ev.TableToZone) or (
        isinstance(event, ev.Perform) and event.meaning == Meaning.TAKE_CONTROL
    )


FACE_DOWN_PLAY = "a face down card"


def scavenge_food(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A successful roll becomes a 1 and keeps its food; the zombie players put their top
    card out as a roll of 1 makes them (R12.2), so the food is the only fault."""
    feeding = book.flagged(Effect.FOOD)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events[:-1]):
        if not (
            isinstance(e, ev.DiceRoll)
            and e.results != (1,)
            and _gains_food(events[i + 1])
            and not texts(moment, sides, e.player) & feeding
        ):
            continue
        others = [name for name in sides if name != e.player]
        if book.decks is not None and any(book.deck_room(events, name) < 1 for name in others):
            continue
        penalty = [ev.Play(name, FACE_DOWN_PLAY, name, "Deck", src_pos="top") for name in others]
        rolled = replace(e, results=(1,))
        site = partial(cut, events, i, i + 1, rolled, *penalty, report_at=i + 1 + len(penalty))
        sites.append((site, f"{e.player} rolled 1"))
    return pick(Violation.SCAVENGE_FOOD, sites, rng)


def _gains_food(event: ev.Event) -> bool:
    return isinstance(event, ev.StatChange) and event.delta == 1


def ability_use(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A Scavenger roll or a Medic heal without the survivor's Spend. The audit sees the
    unbacked roll when food is credited for it, so that is the line."""
    feeding, healing = book.flagged(Effect.FOOD), book.flagged(Effect.HEAL)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events[:-1]):
        spend = events[i - 1] if i else None
        if spend is None or not is_spend(spend, getattr(e, "player", "")) or spend.hidden:
            continue
        note = f"{spend.card} not spent"
        if (
            isinstance(e, ev.DiceRoll)
            and _gains_food(events[i + 1])
            and not texts(moment, sides, e.player) & feeding
        ):
            sites.append((partial(delete, events, i - 1, i + 1), note))
        elif (
            isinstance(e, ev.CounterChange)
            and e.meaning == Meaning.HEAL
            and not texts(moment, sides) & healing
        ):
            sites.append((partial(delete, events, i - 1, i), note))
    return pick(Violation.ABILITY_USE, sites, rng)


def dead_survivor(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """Drop the discard line of a survivor whose wounds reached its Health; the audit finds it
    still in play when the phase ends. Only where one more survivor changes no later upkeep."""
    lasting = book.flagged(Effect.HEALTH)
    hungry = [
        (i, moment.active)
        for i, e, moment, sides in walk(events)
        if is_phase(e, "End")
        and moment.active
        and _survivors(sides[moment.active], book) + 1 > sides[moment.active].food
    ]
    sites: list[Site] = []
    for i, e, moment, sides in walk(events[:-1]):
        card = book.cards.get(getattr(e, "card", ""))
        if not (
            isinstance(e, ev.CounterChange)
            and e.meaning == Meaning.WOUND
            and card
            and e.new >= (card.health or 1)
        ):
            continue
        after, end = events[i + 1], next_phase_line(events, i + 2)
        if (
            isinstance(after, ev.TableToZone)
            and after.card == e.card
            and end is not None
            and not any(isinstance(x, ev.TurnChange) for x in events[i + 2 : end])
            and not acted_on(events, i + 2, e.card)
            and not any(j > i and active == e.player for j, active in hungry)
            and not texts(moment, sides, e.player) & lasting
        ):
            sites.append((partial(delete, events, i + 1, end), f"{e.card} stays"))
    return pick(Violation.DEAD_SURVIVOR, sites, rng)


def _survivors(side: Side, book: Book) -> int:
    return sum(
        count
        for name, count in side.named.items()
        if name in book.cards and book.cards[name].type == "Survivor"
    )


def food_total(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A food line whose "from" is not the tracked total (the bid line when there is one)."""
    changes = [(i, e) for i, e in enumerate(events) if isinstance(e, ev.StatChange)]
    bids = [(i, e) for i, e in changes if i < setup_end(events)]
    sites: list[Site] = [
        (
            partial(swap, events, i, replace(e, old=e.old + 1, delta=None)),
            f"{e.target} from {e.old + 1}",
        )
        for i, e in bids or changes
    ]
    return pick("food-total", sites, rng)
