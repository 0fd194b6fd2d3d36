"""Mutators for the contract's setup and turn-order kinds: bids, starting food, the opening
shuffle and the turn order (R2.1, R2.2, R2.4, R3.4)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from lackey_plugin.log import events as ev

from .logview import setup_end
from .splice import Book, Mutation, Site, cut, delete, insert, is_phase, pick, swap

Events = Sequence[ev.Event]
# The contract's bid forms: "bid 8", "I bid 8 food", "8", "I'll bid 8", "bid: 8", "my bid is 8".
BID = re.compile(r"^(?:(?:I'll |I )?bid:? |my bid is )?(-?\d+)(?: food)?$", re.I)


def bids(events: Events) -> list[tuple[int, int]]:
    """(index, bid) of the seated players' bid chat lines during setup, in log order."""
    seated = {e.player for e in events if isinstance(e, ev.Seat) and e.action == "sit"}
    found = []
    for index, event in enumerate(events[: setup_end(events)]):
        match = BID.match(event.text) if isinstance(event, ev.Chat) else None
        if match and getattr(event, "player", None) in seated:
            found.append((index, int(match.group(1))))
    return found


def _winner(events: Events, placed: list[tuple[int, int]]) -> tuple[int, str, int]:
    """(index, player, bid) of the winning bid: the lowest, the earlier on a tie (R2.2)."""
    index, bid = min(placed, key=lambda entry: entry[1])
    return index, events[index].player, bid  # type: ignore[attr-defined]


def _setup_food(events: Events) -> list[tuple[int, ev.StatChange]]:
    return [
        (i, e) for i, e in enumerate(events[: setup_end(events)]) if isinstance(e, ev.StatChange)
    ]


def bid_range(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A losing bid (the higher one, or the later of a tie) raised above 10, in its form."""
    placed = bids(events)
    if len(placed) < 2:
        return None
    won = _winner(events, placed)[0]
    sites: list[Site] = []
    for index, _ in placed:
        if index == won:
            continue
        chat = events[index]
        assert isinstance(chat, ev.Chat)
        high = rng.randint(11, 15)
        text = re.sub(r"-?\d+", str(high), chat.text, count=1)
        changed = replace(chat, text=text)
        sites.append((partial(swap, events, index, changed), f"{chat.player} bids {high}"))
    return pick("bid-range", sites, rng)


def bid_food(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """With the bids in chat: the winner's setup food set to another value, or not set at all;
    or a losing bidder's food changed at setup (everyone else starts with 10)."""
    placed = bids(events)
    end = setup_end(events)
    if len(placed) < 2 or end == len(events):
        return None
    _, winner, bid = _winner(events, placed)
    food = _setup_food(events)
    sites: list[Site] = []
    own = [(index, change) for index, change in food if change.target == winner]
    for index, change in own if len(own) == 1 else ():  # not when a misclick pair follows
        if change.new == bid:
            wrong = bid - 1 if bid > 0 else bid + 1
            changed = replace(change, new=wrong, delta=None)
            sites.append(
                (
                    partial(swap, events, index, changed),
                    f"{winner}'s food set to {wrong}, his bid is {bid}",
                )
            )
            sites.append((partial(delete, events, index, end), f"{winner}'s food never set"))
    losers = {events[i].player for i, _ in placed} - {winner}  # type: ignore[attr-defined]
    after = food[-1][0] + 1 if food else placed[-1][0] + 1
    for loser in sorted(losers):
        change = ev.StatChange(loser, "Food", 10, 9, target=loser)
        sites.append((partial(insert, events, after, change), f"{loser} starts with 9"))
    return pick("bid-food", sites, rng)


def opening_shuffle(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A player who put out opening survivors does not shuffle afterwards: his shuffle is
    left out, or logged before his opening plays. Found at the line that ends setup."""
    end = setup_end(events)
    if end == len(events):
        return None
    sites: list[Site] = []
    for index, event in enumerate(events[:end]):
        if not (isinstance(event, ev.Shuffle) and event.zone == "Deck"):
            continue
        plays = [
            i
            for i, e in enumerate(events[:index])
            if isinstance(e, ev.Play) and e.player == event.player and e.src_zone == "Deck"
        ]
        if not plays:
            continue  # no opening survivor: he lost at setup (R2.5)
        sites.append((partial(delete, events, index, end), f"{event.player} never shuffles"))
        early = (event, *events[plays[0] : index])
        sites.append(
            (
                partial(cut, events, plays[0], index + 1, *early, report_at=end),
                f"{event.player} shuffles before his survivors",
            )
        )
    return pick("opening-shuffle", sites, rng)


def turn_order(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """The log stops after a turn's End phase with a turn line giving the same player the
    next turn (two players: the other one was next). The game before it is unchanged."""
    turns = {e.number: e.active for e in events if isinstance(e, ev.TurnChange)}
    sites: list[Site] = []
    turn = 0
    for index, event in enumerate(events[:-1]):
        if isinstance(event, ev.TurnChange):
            turn = event.number
        if not (is_phase(event, "End") and turn in turns):
            continue
        active = turns[turn]
        again = ev.TurnChange(active, turn + 1, active)
        sites.append(
            (
                partial(cut, events, index + 1, len(events), again),
                f"{active} takes turn {turn + 1} too",
            )
        )
    return pick("turn-order", sites, rng)


def opening_hand(events: Events, rng: random.Random, book: Book) -> Mutation | None:
    """A player's opening draw of 7 made 8 (one more card drawn at setup, R2.3): the draw of
    7 cards changed, or one more card drawn right after his seventh. Only where his deck has
    a card to spare (a game that ended by an empty deck would end a draw earlier)."""
    end = setup_end(events)
    sites: list[Site] = []
    drawn: dict[str, int] = {}
    for index, event in enumerate(events[:end]):
        if not isinstance(event, ev.Draw):
            continue
        before = drawn.get(event.player, 0)
        drawn[event.player] = before + event.count
        if before + event.count != 7 or book.deck_room(events, event.player) < 1:
            continue
        if event.count == 7:
            changed = replace(event, count=8)
            sites.append((partial(swap, events, index, changed), f"{event.player} draws 8"))
        else:
            extra = ev.Draw(event.player, 1, "a card" if event.hidden else event.card)
            sites.append((partial(insert, events, index + 1, extra), f"{event.player} 8th card"))
    return pick("opening-hand", sites, rng)
