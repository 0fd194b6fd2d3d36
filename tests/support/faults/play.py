"""Mutators for setup, the Draw and Build phases, the phase order and losing."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TypeGuard

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind as Violation
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.game.effects import Effect

from .logview import setup_end, texts, walk
from .splice import (
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


def draw_count(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A second discard in a Draw phase, or ``draws 3 cards.`` when the deck has room."""
    drawing = book.flagged(Effect.DRAW, Effect.DISCARD, Effect.DECK_TO_RESOURCE)
    cards = book.plain("Item") + book.plain("Survivor")
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if moment.phase != "Draw" or texts(moment, sides, getattr(e, "player", None)) & drawing:
            continue
        if isinstance(e, ev.Move) and e.discard and sides[e.player].hand >= 2 and cards:
            again = replace(e, card=rng.choice(cards))
            sites.append((partial(insert, events, i + 1, again), f"{e.player} discards 2"))
        if isinstance(e, ev.Draw) and e.count == 2 and book.deck_room(events, e.player) >= 2:
            sites.append((partial(swap, events, i, replace(e, count=3)), f"{e.player} draws 3"))
    return pick(Violation.DRAW_COUNT, sites, rng)


def resource_play(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A second face-down play in one Build, or one in the Recoup phase."""
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (
            isinstance(e, ev.Play)
            and e.hidden
            and e.src_zone == "Hand"
            and moment.phase == "Build"
            and sides[e.player].hand >= 2
        ):
            sites.append((partial(insert, events, i + 1, e), f"{e.player} plays twice"))
        if is_phase(e, "Recoup") and i + 1 < len(events):
            for name, side in sides.items():
                if side.hand >= 1:
                    late = ev.Play(name, "a face down card", name, "Hand")
                    sites.append((partial(insert, events, i + 1, late), f"{name} late"))
    return pick(Violation.RESOURCE_PLAY, sites, rng)


def card_play(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """The last play of a Build one Spend short, or a free item played by a non-active
    player (and discarded at once, so nothing else changes)."""
    free = [name for name in book.plain("Item") if book.cost(name) == 0] or [
        name for name, card in book.cards.items() if card.type == "Item" and not card.cost
    ]
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (
            isinstance(e, ev.Play)
            and not e.hidden
            and e.src_zone == "Hand"
            and i > 0
            and is_spend(events[i - 1], e.player)
            and moment.phase == "Build"
            and not _spends_later_in_phase(events, i + 1, e.player)
        ):
            sites.append((partial(delete, events, i - 1, i), f"{e.card} one spend short"))
        if is_phase(e, "Build") and free and moment.active:
            for name, side in sides.items():
                if name != moment.active and side.hand >= 1:
                    item = rng.choice(free)
                    play = ev.Play(name, item, name, "Hand")
                    gone = ev.TableToZone(name, item, name, "Discard", dst_pos="top")
                    sites.append(
                        (
                            partial(insert, events, i + 1, play, gone),
                            f"{name} plays {item} on {moment.active}'s turn",
                        )
                    )
    return pick(Violation.CARD_PLAY, sites, rng)


def _spends_later_in_phase(events: Events, start: int, player: str) -> bool:
    """Spends after a play may pay for it: only a play with none after it is surely short."""
    end = next_phase_line(events, start) or len(events)
    return any(is_spend(event, player) for event in events[start:end])


def opening_survivors(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """An item put out at setup (when the deck has room), or an opening survivor that never
    acts swapped for a dearer one at least as strong (the number of survivors, so every
    upkeep, stays; every fight he may have won unnamed, he still wins)."""
    items, survivors = book.plain("Item"), book.plain("Survivor")
    openings: dict[str, list[int]] = {}
    for i, e, moment, _ in walk(events):
        if isinstance(e, ev.Play) and moment.turn == 0 and e.card in book.cards:
            openings.setdefault(e.player, []).append(i)
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if moment.turn != 0:
            continue
        if isinstance(e, ev.Shuffle) and items and book.deck_room(events, e.player) >= 2:
            play = ev.Play(e.player, rng.choice(items), e.player, "Deck")
            sites.append((partial(insert, events, i, play), f"{play.card} at setup"))
        if not (isinstance(e, ev.Play) and e.card in book.cards) or acted_on(events, i + 1, e.card):
            continue
        opened = [getattr(events[j], "card", "") for j in openings[e.player]]
        rest = sum(book.cost(name) for name in opened) - book.cost(e.card)
        dear = [
            name
            for name in survivors
            if rest + book.cost(name) > 6 and book.power(name) >= book.power(e.card)
        ]
        if dear:
            changed = replace(e, card=rng.choice(dear))
            sites.append(
                (
                    partial(_over_budget, events, i, changed, openings, book),
                    f"{e.card} swapped for {changed.card}",
                )
            )
    return pick(Violation.OPENING_SURVIVORS, sites, rng)


def _over_budget(events: Events, index: int, changed: ev.Play, openings, book: Book):
    """The swapped log, and the opening play at which the running cost passes 6."""
    swapped, _ = swap(events, index, changed)
    total = 0
    for j in openings[changed.player]:
        total += book.cost(swapped[j].card)
        if total > 6:
            return swapped, j
    raise AssertionError("a dearer swap must pass the budget")


def phase_order(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """Skip an empty Attack phase (Build -> Recoup) or the End phase."""
    sites: list[Site] = []
    for i, e in enumerate(events):
        following = events[i + 1] if i + 1 < len(events) else None
        if is_phase(e, "Attack") and is_phase(following, "Recoup"):
            skip = replace(e, new="Recoup")
            sites.append((partial(cut, events, i, i + 2, skip), "Attack skipped"))
        if is_phase(e, "End") and isinstance(following, ev.TurnChange):
            sites.append((partial(delete, events, i, i + 1), "End skipped"))
    return pick(Violation.PHASE_ORDER, sites, rng)


def zombie_upgrade(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """The active player's upgrade moved from Build to the Attack phase (his zombies do not
    fight then), or a non-zombie flipped by a player whose zombies no longer hurt anyone."""
    plain = book.plain("Item") + book.plain("Survivor")
    fights = [
        (i, moment.active)
        for i, e, moment, _ in walk(events)
        if moment.phase == "Attack" and not isinstance(e, ev.PhaseChange)
    ]
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if _is_flip(e) and moment.phase == "Build" and e.player == moment.active:
            end = next_phase_line(events, i + 1)
            if (
                end is not None
                and is_phase(events[end], "Attack")
                and not any(
                    getattr(x, "card", None) == e.card or _is_flip(x) for x in events[i + 1 : end]
                )
            ):
                sites.append(
                    (
                        partial(
                            cut, events, i, end + 1, *events[i + 1 : end + 1], e, report_at=end
                        ),
                        f"{e.card} upgraded in Attack",
                    )
                )
        if not (is_phase(e, "Build") and plain):
            continue
        for name, side in sides.items():
            if spare_face_down(events, i + 1, name, side.face_down) >= 1 and not any(
                j > i and active != name for j, active in fights
            ):
                flip = ev.Perform.of(name, Meaning.FLIP, rng.choice(plain), game=ZOMBIE_GAME)
                sites.append((partial(insert, events, i + 1, flip), f"{flip.card} flipped"))
    return pick(Violation.ZOMBIE_UPGRADE, sites, rng)


def _is_flip(event: ev.Event) -> TypeGuard[ev.Perform]:
    return isinstance(event, ev.Perform) and event.meaning == Meaning.FLIP


def spare_face_down(events: Events, start: int, player: str, face_down: int) -> int:
    """How many of ``player``'s face-down cards he never needs ready again from ``start``."""
    spare, spent = face_down, 0
    for event in events[start:]:
        if isinstance(event, ev.TurnChange) or (
            isinstance(event, ev.PerformAll) and event.player == player
        ):
            spent = 0
        elif getattr(event, "player", None) != player:
            continue
        elif isinstance(event, ev.Play) and event.hidden:
            face_down += 1
        elif _is_flip(event):
            face_down -= 1
        elif isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND and event.hidden:
            spare = min(spare, face_down - spent - 1)
            spent += 1
    return spare


def action_after_loss(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """After the line that ended the game, the player who lost acts once more."""
    last = next((e for e in reversed(events) if not isinstance(e, ev.Chat | ev.Seat)), None)
    if last is None or isinstance(last, ev.PhaseChange | ev.TurnChange):
        return None  # stopped at the turn cap: nobody lost
    seated = [e.player for e in events if isinstance(e, ev.Seat) and e.action == "sit"]
    loser = getattr(last, "player", "")
    if isinstance(last, ev.Perform) and last.meaning == Meaning.TAKE_CONTROL:
        loser = next(name for name in seated if name != loser)
    elif setup_end(events) == len(events):  # lost at setup (R2.5)
        opened = {e.player for e in events if isinstance(e, ev.Play) and e.src_zone == "Deck"}
        loser = next(name for name in seated if name not in opened)
    action = ev.PerformAll.of(loser, Meaning.READY_ALL, game=ZOMBIE_GAME)
    return pick(
        Violation.ACTION_AFTER_LOSS,
        [(partial(insert, events, len(events), action), f"{loser} acts after losing")],
        rng,
    )
