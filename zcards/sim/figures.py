"""What each player did with his cards in one game: the raw data of per-card figures.

A designer asks of a card what 17lands asks of a draft card: how do games go when it is
drawn, in the opening hand, played, and how often is its text used? The simulator notes
those few facts as the game runs (a set insert per card drawn or played), so a balance run
gets them without keeping or rereading the game's actions.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from zcards.sim.actions import Action, ActionKind

PLAYED = frozenset({ActionKind.PLAY_FROM_HAND, ActionKind.PLAY_FROM_DECK, ActionKind.FLIP})
"""Putting a card into play face up: a survivor or an item from the hand, an opening
survivor from the deck, a zombie turned up (a card played face down is a resource only)."""


class CardFigures(NamedTuple):
    """One player's cards in one game, by name."""

    drawn: frozenset[str]  # drawn at least once (the opening hand included)
    opening: frozenset[str]  # in the 7-card opening hand
    played: frozenset[str]  # put into play face up (see PLAYED)
    used: tuple[tuple[str, int], ...]  # how often its text was used, by card


class CardTrace:
    """:class:`CardFigures` as they are gathered during a game."""

    __slots__ = ("drawn", "opening", "played", "used")

    def __init__(self) -> None:
        self.drawn: set[str] = set()
        self.opening: frozenset[str] = frozenset()
        self.played: set[str] = set()
        self.used: Counter[str] = Counter()

    def saw(self, action: Action) -> None:
        if action.kind in PLAYED and action.card is not None:
            self.played.add(action.card)

    def figures(self) -> CardFigures:
        return CardFigures(
            frozenset(self.drawn),
            self.opening,
            frozenset(self.played),
            tuple(sorted(self.used.items())),
        )
