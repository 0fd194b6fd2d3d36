"""What a card face shows, decided once: the face template's whole input for one card.

:class:`FaceView` is a small, explicit view-model -- the numbers, the lines of text, the colour
scheme, the emblem and the art -- built from a :class:`Card` by :func:`face_view`. The template
only places it; the face cache hashes it (a face is drawn again only when its view changes).
Another game's faces need another ``face_view``, not another template.

Keywords and symbols are printed once: a card's text usually opens with them (``Fast. Fierce.
...``, ``Medic (Recoup - ...)``), so those opening words are set in bold where they stand, and
only the ones the text does not name get a line of their own.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from zcards.cards.model import CARD_TYPES, FACTIONS, RARITY_NAMES, Card

# Frame colour and a darker shade for the art's placeholder, per faction and per type.
PALETTES: dict[str, tuple[str, str]] = {
    "rage": ("#b3261e", "#4a0d0a"),
    "horde": ("#d9650b", "#5a2504"),
    "contagion": ("#2e7d32", "#0f2f12"),
    "weird": ("#6a1b9a", "#26083a"),
    "zombie": ("#4d5560", "#1d2126"),
    "survivor": ("#2f5478", "#0f2133"),
    "item": ("#6b5a45", "#2a2219"),
    "card": ("#4d5560", "#1d2126"),
}


@dataclass(frozen=True)
class TextSpan:
    """A stretch of rules text: ``style`` is ``""`` (plain), ``"term"`` (a keyword or symbol,
    bold; ``symbol`` names its icon) or ``"reminder"`` (its explanation, italic)."""

    text: str
    style: str = ""
    symbol: str = ""


@dataclass(frozen=True)
class Art:
    """A card's own picture: the file, the digest of its bytes (what the cache keys on), its
    size in pixels, and whether it is a plain JPEG (RGB or grey, upright) a PDF can hold as is."""

    path: str
    digest: str
    width: int
    height: int
    plain_jpeg: bool


@dataclass(frozen=True)
class FaceView:
    """Everything one card face shows; numbers are text ("" = the card has none)."""

    name: str
    cost: str
    power: str
    health: str
    type_line: str
    palette: str  # a key of PALETTES: the faction's colours, else the type's
    emblem: str  # the faction's emblem, else the type's (in the placeholder art)
    figure: str  # the type's silhouette in the placeholder art
    requires: str
    terms: tuple[TextSpan, ...]  # keywords and symbols the text does not name
    paragraphs: tuple[tuple[TextSpan, ...], ...]
    footer: str
    art: Art | None  # None: the placeholder drawn from palette, emblem and figure

    def cache_data(self) -> dict:
        """The view as plain data for a cache key: the art by its bytes, not where it lies."""
        data = asdict(self)
        data["art"] = self.art.digest if self.art else None
        return data


def face_view(card: Card, art: Art | None = None) -> FaceView:
    kind = card.type.lower() if card.type in CARD_TYPES else "card"
    faction = card.faction.lower() if card.faction in FACTIONS else ""
    lead, paragraphs = _paragraphs(card)
    named = {run.text.strip(" .").casefold() for run in lead if run.style == "term"}
    terms = [TextSpan(k, "term") for k in card.keywords if k.casefold() not in named]
    terms += [TextSpan(s, "term", s) for s in card.symbols if s.casefold() not in named]
    rarity = RARITY_NAMES.get(card.rarity, card.rarity)
    return FaceView(
        name=card.name,
        cost=_number(card.cost),
        power=_number(card.power),
        health=_number(card.health),
        type_line=" \u2014 ".join(part for part in (card.type or "Card", card.faction) if part),
        palette=faction or kind,
        emblem=faction or kind,
        figure=kind,
        requires=", ".join(f"{count} {keyword}" for keyword, count in card.requirements.items()),
        terms=tuple(terms),
        paragraphs=paragraphs,
        footer=" \u00b7 ".join(part for part in (card.set_name, rarity) if part),
        art=art,
    )


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _paragraphs(card: Card) -> tuple[tuple[TextSpan, ...], tuple[tuple[TextSpan, ...], ...]]:
    """The text's paragraphs as spans, the first one's opening keywords and symbols marked;
    also returns those opening spans."""
    lines = [line.strip() for line in card.text.splitlines() if line.strip()]
    if not lines:
        return (), ()
    symbols = {s.casefold(): s for s in card.symbols}
    words = sorted([*card.keywords, *card.symbols], key=len, reverse=True)
    lead = _lead_spans(lines[0], words, symbols)
    rest = lines[0][sum(len(run.text) for run in lead) :]
    first = (*lead, *((TextSpan(rest),) if rest else ()))
    return lead, (first, *((TextSpan(line),) for line in lines[1:]))


_REMINDER = re.compile(r"\s*\([^()]*\)\.?")


def _lead_spans(line: str, words: list[str], symbols: dict[str, str]) -> tuple[TextSpan, ...]:
    """The keywords and symbols the line opens with (``Fast. Fierce (...).``), as spans that
    together spell the start of the line exactly."""
    spans: list[TextSpan] = []
    position = 0
    while True:
        space = len(line[position:]) - len(line[position:].lstrip())
        start = position + space
        word = next((w for w in words if _opens(line, start, w)), None)
        if word is None:
            return tuple(spans)
        end = start + len(word)
        if line.startswith(".", end):
            end += 1
        text = line[position:end]
        spans.append(TextSpan(text, "term", symbols.get(word.casefold(), "")))
        position = end
        reminder = _REMINDER.match(line, position)
        if reminder and line[end - 1] != ".":
            spans.append(TextSpan(reminder.group(), "reminder"))
            position = reminder.end()


def _opens(line: str, start: int, word: str) -> bool:
    """``line`` has ``word`` (any case) at ``start`` as a whole word."""
    end = start + len(word)
    return line[start:end].casefold() == word.casefold() and not line[end : end + 1].isalnum()
