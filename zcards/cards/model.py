"""The Zombie CCG card model: one normalised ``Card`` shape for every part of zcards.

Field names equal the column names of the ``cards`` table, so a card converts to and
from a database row without a mapping table.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# The bundled card-data columns, in file order (Lackey needs Name, Set, ImageFile first).
ZOMBIE_COLUMNS: tuple[str, ...] = (
    "Name",
    "Set",
    "ImageFile",
    "Type",
    "Faction",
    "Cost",
    "Power",
    "Health",
    "Keywords",
    "Requirements",
    "Symbols",
    "Rarity",
    "Text",
)

CARD_TYPES: tuple[str, ...] = ("Zombie", "Survivor", "Item")
FACTIONS: tuple[str, ...] = ("Rage", "Horde", "Contagion", "Weird")
KEYWORDS: tuple[str, ...] = ("Fast", "Tough", "Fierce", "Infectious", "Enduring", "Sentient")
SYMBOLS: tuple[str, ...] = ("Medic", "Scavenger")
RARITIES: tuple[str, ...] = ("C", "U", "R", "S")
RARITY_NAMES: dict[str, str] = {"C": "Common", "U": "Uncommon", "R": "Rare", "S": "Special"}

_REQUIREMENT = re.compile(r"^\s*(\d+)\s*x?\s*([A-Za-z][A-Za-z ]*?)\s*$")


class RequirementSyntaxError(ValueError):
    """A requirement clause is not ``<count> <Keyword>``."""


def parse_requirements(text: str) -> dict[str, int]:
    """``"2 Fast, 1 Tough"`` -> ``{"Fast": 2, "Tough": 1}`` (keyword spelling kept as written).

    Clauses are separated by commas, semicolons, ``+`` or `` and ``; a repeated keyword adds up.
    """
    counts: dict[str, int] = {}
    for clause in re.split(r"[,;+]|\band\b", text or ""):
        if not clause.strip():
            continue
        match = _REQUIREMENT.match(clause)
        if not match:
            clause_text = clause.strip()
            raise RequirementSyntaxError(f"requirement {clause_text!r} is not '<count> <keyword>'")
        keyword = match.group(2).strip()
        counts[keyword] = counts.get(keyword, 0) + int(match.group(1))
    return counts


_JSON_ENCODER = json.JSONEncoder(ensure_ascii=False)


def json_text(value: list | dict) -> str:
    """Compact JSON for the stored lists and mappings (an import encodes millions of them)."""
    if not value:
        return "[]" if isinstance(value, list) else "{}"
    return _JSON_ENCODER.encode(value)


def format_requirements(requirements: Mapping[str, int]) -> str:
    """The inverse of :func:`parse_requirements`, in the card's own order."""
    return ", ".join(f"{count} {keyword}" for keyword, count in requirements.items())


@dataclass(frozen=True)
class Card:
    """One card, normalised. ``extra`` keeps any column zcards has no field for, by header name."""

    name: str
    set_name: str
    image_file: str = ""
    type: str = ""
    faction: str = ""
    cost: int | None = None
    power: int | None = None
    health: int | None = None
    keywords: tuple[str, ...] = ()
    requirements: Mapping[str, int] = field(default_factory=dict)
    symbols: tuple[str, ...] = ()
    rarity: str = ""
    text: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        """Cards are identified by (Set, Name), as in Lackey."""
        return (self.set_name, self.name)

    def has_keyword(self, keyword: str) -> bool:
        return keyword.casefold() in (k.casefold() for k in self.keywords)

    def has_symbol(self, symbol: str) -> bool:
        return symbol.casefold() in (s.casefold() for s in self.symbols)

    def to_row(self) -> dict[str, Any]:
        """The ``cards`` table row: lists and mappings stored as JSON text."""
        return {
            "name": self.name,
            "set_name": self.set_name,
            "image_file": self.image_file,
            "type": self.type,
            "faction": self.faction,
            "cost": self.cost,
            "power": self.power,
            "health": self.health,
            "keywords": json_text(list(self.keywords)),
            "requirements": json_text(dict(self.requirements)),
            "symbols": json_text(list(self.symbols)),
            "rarity": self.rarity,
            "text": self.text,
            "extra": json_text(dict(self.extra)),
        }

    @classmethod
    def from_values(cls, values: Sequence[Any]) -> Card:
        """A card from ``to_row()`` values in :data:`CARD_FIELDS` order."""
        return cls.from_row(dict(zip(CARD_FIELDS, values, strict=True)))

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Card:
        return cls(
            name=row["name"],
            set_name=row["set_name"],
            image_file=row.get("image_file") or "",
            type=row.get("type") or "",
            faction=row.get("faction") or "",
            cost=row.get("cost"),
            power=row.get("power"),
            health=row.get("health"),
            keywords=tuple(json.loads(row.get("keywords") or "[]")),
            requirements=json.loads(row.get("requirements") or "{}"),
            symbols=tuple(json.loads(row.get("symbols") or "[]")),
            rarity=row.get("rarity") or "",
            text=row.get("text") or "",
            extra=json.loads(row.get("extra") or "{}"),
        )

    def to_lackey_fields(self) -> dict[str, str]:
        """The card as Lackey card-data fields (Zombie columns first, then extra columns)."""
        fields = {
            "Name": self.name,
            "Set": self.set_name,
            "ImageFile": self.image_file,
            "Type": self.type,
            "Faction": self.faction,
            "Cost": "" if self.cost is None else str(self.cost),
            "Power": "" if self.power is None else str(self.power),
            "Health": "" if self.health is None else str(self.health),
            "Keywords": ", ".join(self.keywords),
            "Requirements": format_requirements(self.requirements),
            "Symbols": ", ".join(self.symbols),
            "Rarity": self.rarity,
            "Text": self.text,
        }
        for column, value in self.extra.items():
            if not fields.get(column):
                fields[column] = value
        return fields


def card_data_columns(cards: Sequence[Card]) -> list[str]:
    """Card data columns for ``cards``: the Zombie columns, then any extra column they use,
    sorted for stable output."""
    extra = sorted({column for card in cards for column in card.extra} - set(ZOMBIE_COLUMNS))
    return [*ZOMBIE_COLUMNS, *extra]


# The stored card columns (``Card.to_row()`` keys), in the order of the ``cards`` table.
CARD_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Card))

# Card field -> accepted header spellings (zcards.cards.table folds headers before comparing;
# the search language accepts them as field names too).
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "cardname", "title"),
    "set_name": ("set", "setname", "expansion", "edition"),
    "image_file": ("imagefile", "image", "imagename", "img"),
    "type": ("type", "cardtype"),
    "faction": ("faction", "factions"),
    "cost": ("cost", "resourcecost", "resources"),
    "power": ("power", "strength", "str", "attack", "atk"),
    "health": ("health", "hp", "hitpoints", "life", "defense", "defence", "def"),
    "keywords": ("keywords", "keyword", "traits"),
    "requirements": ("requirements", "requirement", "requires", "reqs", "req"),
    "symbols": ("symbols", "symbol", "icons"),
    "rarity": ("rarity", "rar"),
    "text": ("text", "cardtext", "rulestext", "gametext"),
}
