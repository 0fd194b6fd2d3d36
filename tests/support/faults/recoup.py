"""Mutators for the contract's Recoup kinds: moving zombies to combat (R9.1), the Scavenger
penalty (R12.2) and cards put from a deck into a resource zone (R6.3)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import partial

from lackey_plugin.log import events as ev
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.game.effects import Effect

from .logview import walk
from .play import spare_face_down
from .splice import (
    Book,
    Mutation,
    Site,
    cut,
    delete,
    insert,
    is_phase,
    is_spend,
    next_phase_line,
    pick,
)

Events = Sequence[ev.Event]
FACE_DOWN_PLAY = "a face down card"
# Card text that puts the top card of a deck into a resource zone (Shuffling Crowd).
_DECK_TO_RESOURCE_TEXT = re.compile(r"top card of your deck into your resource zone", re.I)


def _is_counter(event: ev.Event, meaning: Meaning) -> bool:
    return isinstance(event, ev.CounterChange) and event.meaning == meaning


def _game_action(events: Events, index: int, step: int) -> ev.Event | None:
    """The nearest line from ``index`` (going by ``step``) that is not chat."""
    while 0 <= index < len(events):
        if not isinstance(events[index], ev.Chat):
            return events[index]
        index += step
    return None


def combat_move(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A zombie sent to combat without its Spend, or (Spend and To Combat together) in the
    Attack phase of its controller's turn instead of his Recoup. Found at the To Combat line.

    Only where no neighbouring line could stand in for the missing spend or pair up with the
    To Combat line as a correction, and never for a Fast zombie (readied at once)."""
    # Ambush Lurker moves to combat ready, unspent
    moving = book.flagged(Effect.TO_COMBAT, Effect.LEAVE_COMBAT)
    sites: list[Site] = []
    recoup = 0
    for i, e, moment, _ in walk(events):
        if is_phase(e, "Recoup"):
            recoup = i
        if not (_is_counter(e, Meaning.TO_COMBAT) and moment.phase == "Recoup" and i > 0):
            continue
        if getattr(e, "card", None) in moving:
            continue
        assert isinstance(e, ev.CounterChange)
        spend = events[i - 1]
        if not (is_spend(spend, e.player) and getattr(spend, "card", None) == e.card):
            continue
        after, before = _game_action(events, i + 1, 1), _game_action(events, i - 2, -1)
        if getattr(after, "card", None) == e.card:
            continue  # a Fast zombie's Ready, or a line that may pair with this one
        if not (isinstance(before, ev.CounterChange) and before.card == e.card):
            sites.append((partial(delete, events, i - 1, i), f"{e.card} moved unspent"))
        between = events[recoup + 1 : i - 1]
        if not any(getattr(x, "card", None) == e.card for x in between):
            earlier = (spend, e, *events[recoup : i - 1])
            sites.append(
                (
                    partial(cut, events, recoup, i + 1, *earlier, report_at=recoup + 1),
                    f"{e.card} moved to combat in Attack",
                )
            )
    return pick("combat-move", sites, rng)


def _penalty_play(event: ev.Event) -> bool:
    """``plays a face down card from the top of his Deck.`` (a Scavenger roll of 1)."""
    return (
        isinstance(event, ev.Play)
        and event.hidden
        and event.src_zone == "Deck"
        and event.src_pos == "top"
    )


def _owed(events: Events, index: int) -> bool:
    """Whether the penalty play at ``index`` follows a roll of 1 (chat and the other zombie
    players' penalty plays may come in between)."""
    before = index - 1
    while before >= 0 and (isinstance(events[before], ev.Chat) or _penalty_play(events[before])):
        before -= 1
    roll = events[before] if before >= 0 else None
    return isinstance(roll, ev.DiceRoll) and roll.results == (1,)


def scavenge_penalty(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """After a Scavenger roll of 1, a zombie player does not put his top card into his
    resource zone; found at the line that ends that Recoup. Only when he never needs that
    card later (his other face-down cards cover every later spend)."""
    sites: list[Site] = []
    for i, e, _, sides in walk(events):
        if not (_penalty_play(e) and _owed(events, i)):
            continue
        assert isinstance(e, ev.Play)
        end = next_phase_line(events, i + 1)
        if (
            end is not None
            and is_phase(events[end], "End")
            and spare_face_down(events, i + 1, e.player, sides[e.player].face_down + 1) >= 1
        ):
            sites.append((partial(delete, events, i, end), f"{e.player} keeps his card"))
    return pick("scavenge-penalty", sites, rng)


def deck_to_resource(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A face-down card from the top of a player's deck that no Scavenger roll of 1 owed:
    right after a phase line (outside any roll's penalty), or a second one after a penalty
    play. Never in a turn where the player turned up a card whose text does it."""
    crowd = {name for name, card in book.cards.items() if _DECK_TO_RESOURCE_TEXT.search(card.text)}
    flipped: set[tuple[int, str]] = set()
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if isinstance(e, ev.Perform) and e.meaning == Meaning.FLIP and e.card in crowd:
            flipped.add((moment.turn, e.player))
        if moment.turn == 0:
            continue
        if isinstance(e, ev.PhaseChange) and moment.phase != "Recoup":
            owners = list(sides)
        elif _penalty_play(e) and _owed(events, i):
            owners = [getattr(e, "player", "")]
        else:
            continue
        for name in owners:
            if (moment.turn, name) in flipped or book.deck_room(events, name) < 2:
                continue
            extra = ev.Play(name, FACE_DOWN_PLAY, name, "Deck", src_pos="top")
            sites.append((partial(insert, events, i + 1, extra), f"{name} takes a card"))
    return pick("deck-to-resource", sites, rng)


def food_loss(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A player who is not active loses a food in another player's Recoup phase (only the
    active player pays upkeep, R12.5); found at that line when the phase ends."""
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if not (is_phase(e, "End") and moment.phase == "Recoup" and moment.turn > 0):
            continue
        for player, side in sides.items():
            if player != moment.active and side.food > 0:
                lost = ev.StatChange(player, "Food", side.food, side.food - 1, target=player)
                sites.append((partial(insert, events, i, lost), f"{player} pays upkeep too"))
    return pick("food-loss", sites, rng)


def readying(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A zombie that is not Fast readied right after its move to the combat zone (R4.1, R9.2);
    found at the Ready line. Only after a Spend and To Combat pair of one named zombie, where
    the next game action is about another card."""
    moving = book.flagged(Effect.TO_COMBAT, Effect.LEAVE_COMBAT)
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if not (_is_counter(e, Meaning.TO_COMBAT) and moment.phase == "Recoup" and i > 0):
            continue
        assert isinstance(e, ev.CounterChange)
        card = book.cards.get(e.card)
        if card is None or e.card in moving or "Fast" in card.keywords:
            continue
        if not (
            is_spend(events[i - 1], e.player) and getattr(events[i - 1], "card", None) == e.card
        ):
            continue
        if getattr(_game_action(events, i + 1, 1), "card", None) == e.card:
            continue
        ready = ev.Perform.of(e.player, Meaning.READY, e.card, game=ZOMBIE_GAME)
        sites.append((partial(insert, events, i + 1, ready), f"{e.card} readied in combat"))
    return pick("readying", sites, rng)


def scavenge_under_ban(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A Scavenger roll while a zombie whose text forbids attracting attention (Carrion
    Crows) is face up in a combat zone: at the start of the active player's Recoup, his ready
    Scavenger is spent and rolls a 4 and he gains the food (R16.1); found at the roll line. Only
    where that zombie was moved to its controller's combat zone by name and never left it, and
    the Scavenger is not used again in that phase."""
    banning = {n for n, c in book.cards.items() if "cannot attract attention" in c.text}
    scavengers = {n for n, c in book.cards.items() if "Scavenger" in c.symbols}
    in_combat: dict[str, int] = {}
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        card = getattr(e, "card", None)
        if card in banning:
            key = f"{getattr(e, 'player', '')}/{card}"
            if _is_counter(e, Meaning.TO_COMBAT):
                in_combat[key] = 1
            elif _is_counter(e, Meaning.LEAVE_COMBAT) or isinstance(e, ev.TableToZone):
                in_combat[key] = 0  # a copy left: the others are not followed
        if not (is_phase(e, "Recoup") and moment.turn > 0 and moment.active in sides):
            continue
        active = moment.active
        if not any(k.split("/")[0] != active and n for k, n in in_combat.items()):
            continue
        end = next_phase_line(events, i + 1) or len(events)
        used = {getattr(x, "card", None) for x in events[i + 1 : end] if is_spend(x, active)}
        side = sides[active]
        for name in sorted(set(side.named) & scavengers - used):
            food = side.food
            lines = (
                ev.Perform.of(active, Meaning.SPEND, name, game=ZOMBIE_GAME),
                ev.DiceRoll(active, 6, (4,)),
                ev.StatChange(active, "Food", food, food + 1, target=active),
            )
            sites.append((partial(cut, events, i + 1, i + 1, *lines, report_at=i + 2), name))
    return pick("ability-use", sites, rng)
