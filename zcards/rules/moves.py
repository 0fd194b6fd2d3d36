"""A move is what it does in the game, whatever verb or drag produced it (R17).

Players draw by clicking Draw or by dragging the top card of their deck to their hand; Lackey
logs the drag as ``moves a card from the top of his Deck to his Hand.``. For the rules both are
a draw, so the audit reads the drag as the :class:`~lackey_plugin.log.events.Draw` it is before
any rule area sees it: the Draw phase counts it, the opening hand counts it, and putting the
card straight back on top of the deck undoes it like any misclick (R17.3).
"""

from __future__ import annotations

from lackey_plugin.log import events as ev
from zcards.game.definition import DECK, HAND


def as_played(event: ev.Event) -> ev.Event:
    """The event as the game sees it: a drag of a player's own deck card to his hand is a
    draw of one card; any other line is itself."""
    if not isinstance(event, ev.Move) or event.src_zone != DECK or event.dst_zone != HAND:
        return event
    owner = event.src_owner or event.player
    if (event.dst_owner or event.player) != owner or event.src_pos not in ("top", None):
        return event
    return ev.Draw(
        owner,
        1,
        event.card,
        line=event.line,
        raw=event.raw,
        timestamp=event.timestamp,
        seconds=event.seconds,
    )


def puts_back(draw: ev.Event, move: ev.Event) -> bool:
    """Whether ``move`` puts the one card ``draw`` drew straight back on top of the deck it
    came from: the draw did not happen (R17.3)."""
    return (
        isinstance(draw, ev.Draw)
        and isinstance(move, ev.Move)
        and draw.count == 1
        and move.src_zone == HAND
        and move.dst_zone == DECK
        and move.dst_pos in ("top", None)
        and (move.src_owner or move.player) == draw.player == (move.dst_owner or move.player)
        and (move.hidden or draw.hidden or move.card == draw.card)
    )
