"""Search results as stored rows, decoded only as far as a caller reads them.

Building a :class:`~zcards.cards.model.Card` costs more than fetching its row (four JSON decodes and
a frozen dataclass): a search that prints JSON, counts or pages through results never needs
one. A :class:`CardRow` is the row tuple itself (columns in :data:`CARD_FIELDS` order): scalar
fields are read by index, JSON fields are decoded when asked for, :meth:`CardRow.card` builds
the full card, :meth:`CardRow.to_json` writes the stored JSON text as it is and
:meth:`CardRow.cells` gives the CSV cells, each stored list converted once per distinct text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from json.encoder import encode_basestring
from operator import itemgetter
from typing import Any

from lackey_plugin.compact_json import encode_compact
from zcards.cards.model import CARD_FIELDS, Card

SELECT_COLUMNS = ", ".join(f"cards.{name}" for name in CARD_FIELDS)
"""The SELECT list a :class:`CardRow` expects."""

_SCALAR_NAMES = tuple(
    name for name in CARD_FIELDS if name not in ("keywords", "requirements", "symbols", "extra")
)
_SCALARS = itemgetter(*(CARD_FIELDS.index(name) for name in _SCALAR_NAMES))
_KEYWORDS, _REQUIREMENTS, _SYMBOLS, _EXTRA = (
    CARD_FIELDS.index(name) for name in ("keywords", "requirements", "symbols", "extra")
)
CSV_COLUMNS = tuple(name for name in CARD_FIELDS if name != "extra")
"""The columns of :meth:`CardRow.cells`: every field but ``extra``, which CSV spreads out."""


# A result repeats few distinct lists (a game has a handful of keywords); the caches are
# bounded so that a result of all-different lists costs time, never memory.
@lru_cache(maxsize=4096)
def _items_cell(stored: str | None) -> str:
    """A stored JSON list as one cell: ``Fast, Tough``."""
    return ", ".join(map(str, json.loads(stored))) if stored else ""


@lru_cache(maxsize=4096)
def _requirements_cell(stored: str | None) -> str:
    """A stored JSON mapping of requirements as one cell: ``2 Fast, 1 Tough``."""
    if not stored:
        return ""
    return ", ".join(f"{count} {name}" for name, count in json.loads(stored).items())


class CardRow(tuple[Any, ...]):
    """One ``cards`` row, read lazily. Attribute names and meanings are those of ``Card``."""

    __slots__ = ()

    name: str = property(itemgetter(0))  # type: ignore[assignment]
    set_name: str = property(itemgetter(1))  # type: ignore[assignment]
    image_file: str = property(lambda row: row[2] or "")  # type: ignore[assignment]
    type: str = property(lambda row: row[3] or "")  # type: ignore[assignment]
    faction: str = property(lambda row: row[4] or "")  # type: ignore[assignment]
    cost: int | None = property(itemgetter(5))  # type: ignore[assignment]
    power: int | None = property(itemgetter(6))  # type: ignore[assignment]
    health: int | None = property(itemgetter(7))  # type: ignore[assignment]
    rarity: str = property(lambda row: row[11] or "")  # type: ignore[assignment]
    text: str = property(lambda row: row[12] or "")  # type: ignore[assignment]

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(json.loads(self[_KEYWORDS] or "[]"))

    @property
    def requirements(self) -> dict[str, int]:
        return json.loads(self[_REQUIREMENTS] or "{}")

    @property
    def symbols(self) -> tuple[str, ...]:
        return tuple(json.loads(self[_SYMBOLS] or "[]"))

    @property
    def extra(self) -> Mapping[str, str]:
        return json.loads(self[_EXTRA] or "{}")

    def card(self) -> Card:
        """The full, normalised card."""
        return Card(
            name=self.name,
            set_name=self.set_name,
            image_file=self.image_file,
            type=self.type,
            faction=self.faction,
            cost=self.cost,
            power=self.power,
            health=self.health,
            keywords=self.keywords,
            requirements=self.requirements,
            symbols=self.symbols,
            rarity=self.rarity,
            text=self.text,
            extra=self.extra,
        )

    def to_dict(self) -> dict[str, Any]:
        """The card's fields as plain data (lists and mappings decoded)."""
        data = dict(zip(_SCALAR_NAMES, _SCALARS(self), strict=True))
        for name in ("image_file", "type", "faction", "rarity", "text"):
            data[name] = data[name] or ""
        data.update(
            keywords=list(self.keywords),
            requirements=self.requirements,
            symbols=list(self.symbols),
            extra=self.extra,
        )
        return data

    def cells(self) -> list[Any]:
        """The row as CSV cells in :data:`CSV_COLUMNS` order (None is an empty cell)."""
        cells = list(self)
        cells[_KEYWORDS] = _items_cell(self[_KEYWORDS])
        cells[_REQUIREMENTS] = _requirements_cell(self[_REQUIREMENTS])
        cells[_SYMBOLS] = _items_cell(self[_SYMBOLS])
        del cells[_EXTRA]
        return cells

    def spread_cells(self, columns: Sequence[str]) -> list[Any]:
        """:meth:`cells`, then the values of other games' ``columns`` (empty where the card
        has none)."""
        stored = self[_EXTRA]
        extra = json.loads(stored) if stored and stored != "{}" else {}
        return self.cells() + [extra.get(column, "") for column in columns]

    def to_json(self) -> str:
        """The card as one line of compact JSON, like :meth:`to_dict`. The list and mapping
        columns are copied as stored: only :func:`zcards.cards.model.json_text` writes them."""
        (name, set_name, image_file, kind, faction, cost, power, health,
         keywords, requirements, symbols, rarity, text, extra) = self  # fmt: skip
        return _JSON_ROW % (
            _string(name),
            _string(set_name),
            _string(image_file or ""),
            _string(kind or ""),
            _string(faction or ""),
            _number(cost),
            _number(power),
            _number(health),
            _string(rarity or ""),
            _string(text or ""),
            keywords or "[]",
            requirements or "{}",
            symbols or "[]",
            extra or "{}",
        )


_JSON_ROW = (
    "{"
    + ", ".join(
        f'"{name}": %s' for name in (*_SCALAR_NAMES, "keywords", "requirements", "symbols", "extra")
    )
    + "}"
)
"""A card's JSON object with a ``%s`` per value, in :meth:`CardRow.to_json`'s order."""
_string = encode_basestring  # one JSON string, non-ASCII kept (C)


def _number(value: object) -> str:
    """A number column as JSON (SQLite keeps text it cannot convert in an INTEGER column)."""
    if value is None:
        return "null"
    return str(value) if type(value) is int else encode_compact(value)
