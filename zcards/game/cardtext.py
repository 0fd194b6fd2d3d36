"""What the effect rows make of one card's text, sentence by sentence (R16.1).

A card's rows are the bundled rows and its set's own rows (a designer's effects file, kept
with the cards in their ``Effects`` column: :func:`with_rows`) whose clause its text
contains. A sentence is read when rows account for all of it (a row covers a sentence only
when nothing of it is left), or when it restates the card's own keywords and symbols (the
columns decide what a card has), or when it does nothing in the game (flavour). Every other
sentence is *unread*, with what it may touch (:class:`~zcards.game.wording.Reach`): only
findings in that reach are doubted because of it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from zcards.cards.model import Card
from zcards.game.effects import Row, load_rows, parse_row, row_fields
from zcards.game.grammar import read_sentence
from zcards.game.wording import (
    Reach,
    acts,
    plain,
    requires,
    restates,
    sentences,
    speaks_of,
    words,
)

EFFECTS_COLUMN = "Effects"  # a card's own rows (JSON), as its set's effects file gave them


@dataclass(frozen=True)
class Unread:
    """A sentence of a card's text the rows do not read in full (``partly``: some row reads
    a part of it), and what it may touch."""

    sentence: str
    reach: Reach
    partly: bool = False


@dataclass(frozen=True)
class CardText:
    """What the effect rows make of one card's text."""

    rows: tuple[Row, ...]
    unread: tuple[Unread, ...] = ()

    @property
    def covered(self) -> bool:
        return not self.unread

    @property
    def uncovered(self) -> tuple[str, ...]:
        """The unread sentences, as printed."""
        return tuple(u.sentence for u in self.unread)


def own_rows(card: Card) -> tuple[Row, ...]:
    """The rows of the card's set kept with it (its ``Effects`` column)."""
    data = card.extra.get(EFFECTS_COLUMN)
    if not data:
        return ()
    try:
        raws = json.loads(data)
    except ValueError as error:
        raise ValueError(f"{card.name}: its {EFFECTS_COLUMN} are not JSON: {error}") from None
    if not isinstance(raws, list):
        raise ValueError(f"{card.name}: its {EFFECTS_COLUMN} are not a list of rows")
    where = f"{card.name}, {EFFECTS_COLUMN}"
    return tuple(parse_row(raw, f"{where}, row {i + 1}") for i, raw in enumerate(raws))


def with_rows(cards: Iterable[Card], rows: tuple[Row, ...]) -> list[Card]:
    """The cards, each keeping the rows of ``rows`` its text contains (with those it kept
    already), so every command that reads them reads the set's rows too."""
    marked = []
    for card in cards:
        mine = [row for row in rows if _find(row, card) >= 0]
        if not mine:
            marked.append(card)
            continue
        kept = [row_fields(row) for row in (*own_rows(card), *mine)]
        unique = [dict(t) for t in dict.fromkeys(tuple(sorted(r.items())) for r in kept)]
        extra = {**card.extra, EFFECTS_COLUMN: json.dumps(unique, ensure_ascii=False)}
        marked.append(dataclasses.replace(card, extra=extra))
    return marked


def _folded(text: str) -> str:
    low = text.casefold()
    return low if len(low) == len(text) else text


@cache
def _plain_clause(clause: str) -> str:
    return plain(clause)


def _clause_for(row: Row, name: str) -> str:
    """The row's clause as the card called ``name`` (read as text is read) would print it."""
    return _folded(_plain_clause(row.clause).replace("{self}", name))


def _find(row: Row, card: Card) -> int:
    return _folded(plain(card.text or "")).find(_clause_for(row, plain(card.name)))


def read_text(card: Card, rows: tuple[Row, ...] | None = None) -> CardText:
    """The rows whose clause the card's text contains, and its sentences they leave unread."""
    rows = (load_rows() if rows is None else rows) + own_rows(card)
    text = plain(card.text or "")
    low = _folded(text)
    mine: list[Row] = []
    read = [False] * len(text)
    name = plain(card.name)
    for row in rows:
        clause = _clause_for(row, name)
        at = low.find(clause) if clause else -1
        if at < 0:
            continue
        mine.append(row)
        read[at : at + len(clause)] = [True] * len(clause)
    own = frozenset(w.casefold() for w in (*card.keywords, *card.symbols))
    needs = frozenset(k.casefold() for k in card.requirements)
    unread = []
    for start, end in sentences(text):
        sentence = text[start:end].strip()
        touched = any(read[start:end])
        if touched:
            left = "".join(" " if read[i] else text[i] for i in range(start, end))
            if words(left):
                unread.append(Unread(sentence, speaks_of(sentence, card.name), partly=True))
        elif (
            acts(sentence, card.name)
            and not restates(sentence, card.name, own)
            and not requires(sentence, needs)
        ):
            said = read_sentence(sentence, card.name)
            if said:
                mine.extend(said)
            else:
                unread.append(Unread(sentence, speaks_of(sentence, card.name)))
    return CardText(tuple(mine), tuple(unread))
