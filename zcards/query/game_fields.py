"""A card's values as its game spells them: the game definition's columns, in its order.

The source's own text wins (what the import kept in ``extra``), then the converted field;
a Lorcana card shows ``Strength 3``, never a Zombie ``Power``. Without a stored game (the
Zombie game) a card shows the Zombie columns and any other column it came with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lackey_plugin.columns import Column
from lackey_plugin.gamefile import GameFile
from zcards.cards.model import Card

# Built-in field -> how Card.to_lackey_fields names it.
FIELD_HEADERS = {
    "name": "Name",
    "set_name": "Set",
    "image_file": "ImageFile",
    "type": "Type",
    "faction": "Faction",
    "cost": "Cost",
    "power": "Power",
    "health": "Health",
    "keywords": "Keywords",
    "requirements": "Requirements",
    "symbols": "Symbols",
    "rarity": "Rarity",
    "text": "Text",
}
_OVERFLOW = re.compile(r"^Column(\d+)$")


def game_fields(card: Card, game: GameFile | None) -> dict[str, str]:
    """Column name -> value for each column of ``game`` (None: the Zombie columns)."""
    if game is None:
        return card.to_lackey_fields()
    return dict(zip((c.name for c in game.columns), card_values(card, game.columns), strict=False))


def card_values(card: Card, columns: Sequence[Column]) -> list[str]:
    """The card's row: a value per column, then any unnamed trailing fields it came with."""
    fields = card.to_lackey_fields()
    values = []
    for column in columns:
        if column.name in card.extra:
            values.append(card.extra[column.name])
        elif column.field is not None:
            values.append(fields[FIELD_HEADERS[column.field]])
        else:
            values.append("")
    overflow = sorted(
        (int(match.group(1)), value)
        for key, value in card.extra.items()
        if (match := _OVERFLOW.match(key)) and int(match.group(1)) > len(columns)
    )
    for position, value in overflow:
        values += [""] * (position - 1 - len(values)) + [value]
    return values
