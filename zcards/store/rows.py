"""Search results as stored rows, decoded only as far as a caller reads them.

Building a :class:`~zcards.cards.model.Card` costs more than fetching its row (four JSON decodes and
a frozen dataclass): a search that prints JSON, counts or pages through results never needs
one. A :class:`CardRow` is the row tuple itself (columns in :data:`CARD_FIELDS` order): scalar
fields are read by index, JSON fields are decoded when asked for, :meth:`CardRow.card` builds
the full card and :meth:`CardRow.to_json` writes the stored JSON text as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
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

    def to_json(self) -> str:
        """The card as one line of compact JSON, like :meth:`to_dict`. The list and mapping
        columns are copied as stored: only :func:`zcards.cards.model.json_text` writes them."""
        scalars = dict(zip(_SCALAR_NAMES, _SCALARS(self), strict=True))
        for name in ("image_file", "type", "faction", "rarity", "text"):
            scalars[name] = scalars[name] or ""
        return (
            f"{encode_compact(scalars)[:-1]}, "
            f'"keywords": {self[_KEYWORDS] or "[]"}, '
            f'"requirements": {self[_REQUIREMENTS] or "{}"}, '
            f'"symbols": {self[_SYMBOLS] or "[]"}, '
            f'"extra": {self[_EXTRA] or "{}"}}}'
        )
