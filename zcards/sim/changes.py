"""Card changes a designer tries, as ``'Gross Ghoul.power=3'``: parsed, and applied to decks;
or the cards of a second database or card file, swapped in by name.

A change edits the card in every deck that holds it (all its copies); its text is read again
by the rules model, so a changed ``text`` plays as written. The keyword column is what the
rules read, so a ``text`` change that states keywords (``'Sprinter.text=Fierce.'``) sets the
column to them, and one that drops a keyword its text stated says that the column keeps it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lackey_plugin.inputs import open_regular
from zcards.cards.convert import NUMBER_LIMIT
from zcards.cards.model import KEYWORDS, Card, RequirementSyntaxError, parse_requirements
from zcards.cards.normalise import read_card_file
from zcards.errors import UsageError
from zcards.sim.game import DeckList
from zcards.store.db import iter_cards, open_db

SQLITE_MAGIC = b"SQLite format 3\x00"
NUMBERS = ("cost", "power", "health")
LISTS = ("keywords", "symbols")
WORDS = ("text", "faction", "type")
FIELDS = (*NUMBERS, *LISTS, "requirements", *WORDS)


@dataclass(frozen=True)
class Change:
    """One field of one card set to a new value; ``label`` is how it was written."""

    card: str
    field: str
    value: Any  # of the field's type
    label: str

    def apply(self, card: Card) -> Card:
        changed = dataclasses.replace(card, **{self.field: self.value})
        stated = stated_keywords(self.value) if self.field == "text" else ()
        if stated:
            changed = dataclasses.replace(changed, keywords=stated)
        return changed


_SENTENCE = re.compile(r"[^.!?]+[.!?]?")
_REMINDER = re.compile(r"\([^)]*\)")


def stated_keywords(text: str) -> tuple[str, ...]:
    """The keywords a card text states as sentences of their own ("Fast.", "Fierce (…)."),
    in the game's spelling."""
    spelled = {keyword.casefold(): keyword for keyword in KEYWORDS}
    found: list[str] = []
    for sentence in _SENTENCE.findall(_REMINDER.sub("", text or "")):
        for word in re.split(r"[,\s]+", sentence.strip(" .!?")):
            keyword = spelled.get(word.casefold())
            if keyword is None:
                break
            found.append(keyword)
    return tuple(dict.fromkeys(found))


def check_changes(changes: Sequence[Change], decks: Sequence[DeckList]) -> list[str]:
    """Refuse changes that contradict each other; notes on what a text change leaves as it
    was (the keyword column, which the rules read)."""
    seen: dict[tuple[str, str], Change] = {}
    for change in changes:
        earlier = seen.setdefault((change.card, change.field), change)
        if earlier is not change:
            raise UsageError(
                f"{earlier.label!r} and {change.label!r} both change {change.card}'s"
                f" {change.field}: give one value per card and field"
            )
    cards = {card.name: card for deck in decks for card in deck.cards}
    notes = []
    for change in changes:
        if change.field != "text":
            continue
        card = cards[change.card]
        kept = set(stated_keywords(card.text)) - set(stated_keywords(change.value))
        kept &= set(card.keywords)
        if kept and not stated_keywords(change.value):
            notes.append(
                f"{change.label!r}: the text no longer says {', '.join(sorted(kept))}, but the"
                f" keyword column still does and the rules read it; change"
                f" '{change.card}.keywords=…' too"
            )
        elif stated_keywords(change.value):
            notes.append(
                f"{change.label!r}: its keywords are now"
                f" {', '.join(stated_keywords(change.value))}, as the new text states"
            )
    return notes


def parse_change(spec: str, names: Sequence[str]) -> Change:
    """``NAME.FIELD=VALUE`` for a card called ``NAME`` (any case) among ``names``."""
    target, equals, value = spec.partition("=")
    name, dot, field = target.rpartition(".")
    field = field.strip().casefold()
    if not equals or not dot or not name.strip():
        raise UsageError(f"a change is CARD.FIELD=VALUE (as 'Gross Ghoul.power=3'), got {spec!r}")
    if field not in FIELDS:
        raise UsageError(f"cannot change {field!r} in {spec!r}: fields are {', '.join(FIELDS)}")
    found = {n.casefold(): n for n in names}.get(name.strip().casefold())
    if found is None:
        raise UsageError(f"no card called {name.strip()!r} in the decks played ({spec!r})")
    return Change(found, field, _value(field, value.strip(), spec), spec)


def _value(field: str, value: str, spec: str) -> Any:
    if field in NUMBERS:
        if value == "" and field == "health":
            return None
        if not value.isascii() or not value.isdigit():
            raise UsageError(f"{field} is a whole number of 0 or more, got {value!r} in {spec!r}")
        if len(value.lstrip("0")) > len(str(NUMBER_LIMIT)) or int(value) > NUMBER_LIMIT:
            shown = value if len(value) <= 20 else f"{value[:20]}… ({len(value):,} digits)"
            raise UsageError(f"{field} is at most {NUMBER_LIMIT:,}, got {shown}")
        return int(value)
    if field in LISTS:
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if field == "requirements":
        try:
            return parse_requirements(value)
        except RequirementSyntaxError as error:
            raise UsageError(f"{error} in {spec!r}") from None
    return value


def apply_changes(decks: Sequence[DeckList], changes: Sequence[Change]) -> list[DeckList]:
    """The decks with every change made to every copy of its card."""
    by_card: dict[str, list[Change]] = {}
    for change in changes:
        by_card.setdefault(change.card, []).append(change)

    def changed(card: Card) -> Card:
        for change in by_card.get(card.name, ()):
            card = change.apply(card)
        return card

    return [DeckList(deck.name, tuple(changed(card) for card in deck.cards)) for deck in decks]


def other_cards(path: Path) -> dict[str, Card]:
    """The cards of a second card database or Lackey card-data file, by name (a damaged or
    foreign database, or card data with bad rows, is the same clear error as elsewhere)."""
    with open_regular(path, "card database or card file") as stream:
        sqlite = stream.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    cards = iter_cards(open_db(path)) if sqlite else read_card_file(path)
    found: dict[str, Card] = {}
    for card in cards:
        found.setdefault(card.name, card)
    return found


def swap_cards(decks: Sequence[DeckList], cards: dict[str, Card], source: str) -> list[DeckList]:
    """The decks with each card as ``cards`` has it; every card the decks play must be there."""
    missing = sorted({card.name for deck in decks for card in deck.cards} - set(cards))
    if missing:
        raise UsageError(f"{source} has no card called {missing[0]!r}, which the decks play")
    return [DeckList(deck.name, tuple(cards[card.name] for card in deck.cards)) for deck in decks]
