"""Bids as players type them (R2.1, R2.2, R17.6): in the forms people use (``bid 8``, ``I'll
bid 8``, a bare ``8``), or as any number a player types in free chat while bids are being made
(``ok 8``, ``8 too, I'll start``). A stated bid is certain; a number in free chat
is one possible bid of that player (a number above 10 there is a joke, not a bid: it is no
option). The Food lines decide what chat does not: the starting food is wrong only if no
choice among each player's possible bids gives it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zcards.game.definition import STARTING_FOOD
from zcards.game.rules import bid_allowed

_BID_FORMS = (
    re.compile(r"^(?:i\s+)?bids?\s*:?\s*(-?\d+)(?:\s+food)?[.!]*$", re.I),
    re.compile(r"^i(?:'ll|\s+will)\s+bid\s+(-?\d+)(?:\s+food)?[.!]*$", re.I),
    re.compile(r"^my\s+bid\s+is\s+(-?\d+)(?:\s+food)?[.!]*$", re.I),
)
_BARE_BID = re.compile(r"^(-?\d+)[.!]*$")
_NUMBER = re.compile(r"(?<![\w.-])(\d{1,3})(?!\w|\.\d)")
MAX_TYPED = 8  # numbers kept per player: a bid is a number or two, not a paragraph


def read_bid(text: str, *, bare: bool) -> int | None:
    """The bid a chat line states, if it states one (``bare``: a lone number counts)."""
    text = text.strip()
    for form in _BID_FORMS:
        match = form.match(text)
        if match:
            return int(match.group(1))
    match = _BARE_BID.match(text) if bare else None
    return int(match.group(1)) if match else None


def typed_numbers(text: str) -> list[int]:
    """The numbers a free chat line holds, in digits (a word such as "one" is too often not
    a number: "quick one before bed")."""
    return [int(match.group(1)) for match in _NUMBER.finditer(text)]


@dataclass(frozen=True)
class Bid:
    player: str
    value: int
    line: int | None  # None: read from the player's Food line, not from chat


class Bids:
    """Each player's possible bids, as the chat of the setup shows them."""

    def __init__(self) -> None:
        self.stated: dict[str, Bid] = {}
        self.typed: dict[str, list[Bid]] = {}

    def read(self, player: str, text: str, line: int, *, window: bool) -> Bid | None:
        """Read one chat line (``window``: bids are still being made); the bid it states, if
        it states one (its range is then checked)."""
        value = read_bid(text, bare=window)
        if value is not None:
            self.stated[player] = bid = Bid(player, value, line)
            return bid
        if window:
            typed = self.typed.setdefault(player, [])
            for number in typed_numbers(text):
                if bid_allowed(number) and len(typed) < MAX_TYPED:
                    typed.append(Bid(player, number, line))
        return None

    def options(self, player: str) -> list[Bid]:
        """What the player may have bid (empty: the chat does not say)."""
        stated = self.stated.get(player)
        return [stated] if stated is not None else self.typed.get(player, [])

    def wrong_food(self, food: dict[str, int]) -> list[str]:
        """R2.2: the players whose starting food no reading of the bids allows (the fewest
        over the readings; every player's food when no reading has a winner)."""
        readings = []
        for winner in food:
            mine = self.options(winner) or [Bid(winner, food[winner], None)]
            for bid in mine:
                if bid_allowed(bid.value) and self._wins(bid, food):
                    expected = dict.fromkeys(food, STARTING_FOOD) | {winner: bid.value}
                    readings.append([name for name in food if food[name] != expected[name]])
        if not readings:
            readings = [[name for name in food if food[name] != STARTING_FOOD]]
        return min(readings, key=len)

    def _wins(self, bid: Bid, food: dict[str, int]) -> bool:
        """Whether every other player may have bid something ``bid`` beats: higher, or the
        same later (when the lines tell which came first)."""
        for other in food:
            if other == bid.player:
                continue
            options = self.options(other)
            if options and not any(_beats(bid, theirs) for theirs in options):
                return False
        return True


def _beats(mine: Bid, theirs: Bid) -> bool:
    if mine.value != theirs.value:
        return mine.value < theirs.value
    return mine.line is None or theirs.line is None or mine.line < theirs.line
