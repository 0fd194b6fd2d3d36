"""Card-data cells -> stored column values, each distinct cell of a column converted once.

Card files repeat a few values down most columns (types, factions, costs, keywords), so a
column is validated by converting each distinct cell once and looking the result up for every
row: 100,000 rows cost a few hundred conversions, and a bad cell is still reported at every
row that has it. Values come out in their stored form (lists and mappings as JSON text, see
:meth:`zcards.cards.model.Card.to_row`), ready for the ``cards`` table.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zcards.cards.model import (
    CARD_TYPES,
    FACTIONS,
    KEYWORDS,
    RARITIES,
    RARITY_NAMES,
    SYMBOLS,
    json_text,
    parse_requirements,
)

INT_FIELDS = ("cost", "power", "health")
# Card numbers are small; anything outside this range is a typo or an attack (and SQLite
# cannot store integers beyond 2**63 - 1 at all).
NUMBER_LIMIT = 10**9
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,30}")  # ASCII digits only: not "1_000", "٣" or "+3"
_MEMO_LIMIT = 50_000
# The stored value of a field missing from a file's header.
STORED_DEFAULTS: dict[str, object] = {
    "cost": None,
    "power": None,
    "health": None,
    "keywords": "[]",
    "requirements": "{}",
    "symbols": "[]",
}
_LIST_SPLIT = re.compile(r"\s*[,;]\s*")
_VOCABULARIES: dict[str, tuple[str, ...]] = {
    "type": CARD_TYPES,
    "faction": FACTIONS,
    "rarity": RARITIES,
    "keyword": KEYWORDS,
    "symbol": SYMBOLS,
}
# Case-insensitive spelling -> canonical value; rarities are also accepted by name ("Common").
_CANONICAL = {what: {v.casefold(): v for v in values} for what, values in _VOCABULARIES.items()}
_CANONICAL["rarity"].update({name.casefold(): code for code, name in RARITY_NAMES.items()})

Converter = Callable[[str], object]


class BadValue(ValueError):
    """A cell that does not convert; the message is shown to the user as is."""


@dataclass
class ConvertedColumn:
    """One converted column: ``values`` per row (None for a bad cell), ``errors`` by cell."""

    values: list[object]
    errors: dict[str, str]


def converter(name: str, header: str, strict: bool) -> Converter | None:
    """The cell -> stored value function of a card field; None keeps the text as it is."""
    if name in INT_FIELDS:
        return functools.partial(_int_value, header=header, strict=strict)
    if name == "requirements":
        return functools.partial(_requirements, strict=strict)
    if name in ("keywords", "symbols"):
        return functools.partial(_list_value, what=name[:-1] if strict else None)
    if strict and name in ("type", "faction", "rarity"):
        return functools.partial(_enum_value, what=name)
    if name == "text":
        return card_text
    return None


LINE_BREAK = "\\n"  # how a card-data file (one card a line) writes a line break in a text


def card_text(value: str) -> str:
    """A card's text as written, its literal ``\\n`` a line break (the plugin export writes
    it back so)."""
    return value.replace(LINE_BREAK, "\n") if LINE_BREAK in value else value


class ColumnConverter:
    """Converts the columns of one field, chunk after chunk of a file, each distinct cell once.

    The memo (cell -> value) is a dict whose misses convert: a column is converted in one
    pass of C-level lookups (building a set of its distinct cells first cost as much again)."""

    def __init__(self, convert: Converter) -> None:
        self.memo = _Memo(convert)

    def __call__(self, cells: Sequence[str]) -> ConvertedColumn:
        """Convert a column; a bad cell's value is None and its message is in ``errors``."""
        memo = self.memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        values = list(map(memo.__getitem__, cells))
        if not memo.bad:
            return ConvertedColumn(values, {})
        errors = {cell: memo.bad[cell] for cell in memo.bad.keys() & set(cells)}
        if errors:
            values = [None if isinstance(value, _Bad) else value for value in values]
        return ConvertedColumn(values, errors)


@dataclass(frozen=True)
class _Bad:
    message: str


class _Memo(dict[str, object]):
    """Cell -> stored value, converted on the first lookup; ``bad`` holds the messages of the
    cells that did not convert."""

    def __init__(self, convert: Converter) -> None:
        super().__init__()
        self.convert = convert
        self.bad: dict[str, str] = {}

    def __missing__(self, cell: str) -> object:
        try:
            value: object = self.convert(cell)
        except BadValue as error:
            value = _Bad(str(error))
            self.bad[cell] = value.message
        self[cell] = value
        return value

    def clear(self) -> None:
        super().clear()
        self.bad.clear()


def _int_value(value: str, *, header: str, strict: bool) -> int | None:
    if not value:
        return None
    if not _WHOLE_NUMBER.fullmatch(value):
        raise BadValue(f"{header} {_shown(value)} is not a whole number")
    number = int(value)
    if abs(number) > NUMBER_LIMIT:
        raise BadValue(f"{header} {_shown(value)} is out of range (at most {NUMBER_LIMIT:,})")
    if strict and number < 0:
        raise BadValue(f"{header} {number} is negative")
    return number


def _shown(value: str) -> str:
    """A cell in a message: quoted and escaped, long ones cut."""
    return repr(value if len(value) <= 40 else value[:37] + "...")


def _requirements(value: str, *, strict: bool) -> str:
    try:
        counts = parse_requirements(value)
    except ValueError as error:  # RequirementSyntaxError, or a count too long for int()
        raise BadValue(str(error)) from None
    if not value.isascii() and any(not char.isascii() for char in _digits(value)):
        raise BadValue(f"requirement {_shown(value)}: counts must be written with 0-9")
    if any(count > NUMBER_LIMIT for count in counts.values()):
        raise BadValue(f"requirement {_shown(value)} is out of range (at most {NUMBER_LIMIT:,})")
    if strict:
        counts = {_enum_value(keyword, what="keyword"): n for keyword, n in counts.items()}
    return json_text(counts)


def _digits(value: str) -> str:
    return "".join(char for char in value if char.isdigit())


def _list_value(value: str, *, what: str | None) -> str:
    """Comma-separated items; ``what`` names the vocabulary to check them against."""
    items = [item for item in _LIST_SPLIT.split(value) if item]
    if what is not None:
        items = [_enum_value(item, what=what) for item in items]
    return json_text(items)


def _enum_value(value: str, *, what: str) -> str:
    """The canonical spelling of ``value``; a typo gets a "did you mean" suggestion."""
    if not value:
        return value
    canonical = _CANONICAL[what].get(value.casefold())
    if canonical is None:
        vocabulary = _VOCABULARIES[what]
        raise BadValue(f"unknown {what} {value!r}{did_you_mean(value, vocabulary)}")
    return canonical


def did_you_mean(value: str, vocabulary: Sequence[str]) -> str:
    """``"; did you mean 'Horde'?"`` for a close match, else the list of valid values."""
    from rapidfuzz import fuzz, process  # only for a bad value: reading cards need not load it

    match = process.extractOne(
        value, vocabulary, scorer=fuzz.WRatio, processor=str.casefold, score_cutoff=70
    )
    if match:
        return f"; did you mean {match[0]!r}?"
    return f" (expected one of {', '.join(vocabulary)})"
