"""Ablations: the same games with one card, keyword or ability taken out, to weigh each.

A designer asks which parts of his cards carry a deck. ``--ablate cards`` replaces each card
by a vanilla card of its cost and stats (no keywords, symbols or text); ``keywords`` removes
one keyword from every card (and from every requirement that names it, which would otherwise
be unmeetable); ``abilities`` removes one card's text, keeping its keywords. Each variant is
played on the same seeds as the cards as printed, so its paired games say whether it changed
anything at all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from zcards.cards.model import Card
from zcards.sim.game import DeckList

KINDS = ("cards", "keywords", "abilities")


def ablations(decks: Sequence[DeckList], kind: str) -> list[tuple[str, list[DeckList]]]:
    """(label, decks) for each thing of ``kind`` the decks hold, sorted by label."""
    cards = {card.name: card for deck in decks for card in deck.cards}
    if kind == "cards":
        return [
            (f"{name} as a vanilla card", _edited(decks, name, _vanilla))
            for name in sorted(cards)
            if _vanilla(cards[name]) != cards[name]
        ]
    if kind == "keywords":
        keywords = sorted({k for card in cards.values() for k in card.keywords}, key=str.casefold)
        return [(f"no {keyword}", _everywhere(decks, _without(keyword))) for keyword in keywords]
    if kind == "abilities":
        return [
            (f"{name} without its text", _edited(decks, name, _textless))
            for name in sorted(cards)
            if cards[name].text
        ]
    raise ValueError(f"unknown ablation {kind!r}; known: {', '.join(KINDS)}")


def _vanilla(card: Card) -> Card:
    return dataclasses.replace(card, keywords=(), symbols=(), text="")


def _textless(card: Card) -> Card:
    return dataclasses.replace(card, text="")


def _without(keyword: str) -> Callable[[Card], Card]:
    folded = keyword.casefold()

    def edit(card: Card) -> Card:
        return dataclasses.replace(
            card,
            keywords=tuple(k for k in card.keywords if k.casefold() != folded),
            requirements={k: n for k, n in card.requirements.items() if k.casefold() != folded},
        )

    return edit


def _edited(decks: Sequence[DeckList], name: str, edit: Callable[[Card], Card]) -> list[DeckList]:
    return _everywhere(decks, lambda card: edit(card) if card.name == name else card)


def _everywhere(decks: Sequence[DeckList], edit: Callable[[Card], Card]) -> list[DeckList]:
    return [DeckList(deck.name, tuple(edit(card) for card in deck.cards)) for deck in decks]
