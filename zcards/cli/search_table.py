"""The columns of ``zcards search``'s text table: the game's own, or those ``--columns`` names.

A database holding another game shows that game's columns, spelled as its definition spells
them (Lorcana: Name, Set, type, Rarity, Color, Cost, Inkwell, Classifications, Strength,
Willpower, Lore, Text), so a search sorted by ``order:-Strength`` shows what it sorted by; the
Zombie game shows its built-in fields. Either way the rules text comes last, cut to fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zcards.cards.model import FIELD_ALIASES
from zcards.cli.output import cell
from zcards.errors import UsageError

if TYPE_CHECKING:
    from lackey_plugin.gamefile import GameFile
    from zcards.store.rows import CardRow

ZOMBIE_COLUMNS = (
    "name", "set_name", "type", "faction", "cost", "power", "health", "keywords", "rarity",
    "text",
)  # fmt: skip
TEXT_WIDTH = 60
"""A text cell longer than this is cut (with "…"): the table stays readable."""
_HIDDEN_FIELDS = ("image_file",)


@dataclass(frozen=True)
class TableColumn:
    """One column of the table: its heading, and the built-in field it shows (None: the
    game's own column of that name, kept in ``extra``)."""

    heading: str
    field: str | None

    def value(self, data: dict[str, Any]) -> str:
        raw = data[self.field] if self.field else data["extra"].get(self.heading, "")
        text = cell(raw)
        if len(text) > TEXT_WIDTH:
            return text[: TEXT_WIDTH - 1].rstrip() + "…"
        return text


def table_columns(game: GameFile | None, chosen: str | None = None) -> list[TableColumn]:
    """The default columns of ``game`` (None: Zombie CCG), or the comma-separated ``chosen``
    ones, each a built-in field or a column of the game (any case); an unknown name is a
    usage error listing the known ones."""
    known = _known(game)
    if chosen is None:
        defaults = [c for c in known if c.field not in _HIDDEN_FIELDS]
        if game is None:
            return [c for name in ZOMBIE_COLUMNS for c in known if c.heading == name]
        text = [c for c in defaults if c.field == "text"]
        return [c for c in defaults if c.field != "text"] + text
    by_name = {c.heading.casefold(): c for c in known}
    for field, aliases in FIELD_ALIASES.items():
        for alias in (field, *aliases):
            match = next((c for c in known if c.field == field), None)
            if match is not None:
                by_name.setdefault(alias, match)
    picked = []
    for name in (part.strip() for part in chosen.split(",")):
        column = by_name.get(name.casefold())
        if column is None:
            listed = ", ".join(c.heading for c in known)
            raise UsageError(f"--columns: no column {name!r} (known: {listed})")
        picked.append(column)
    return picked


def _known(game: GameFile | None) -> list[TableColumn]:
    if game is None:
        return [TableColumn(field, field) for field in FIELD_ALIASES]
    return [TableColumn(column.name, column.field) for column in game.columns]


def table_cells(row: CardRow, columns: Sequence[TableColumn]) -> list[str]:
    data = row.to_dict()
    return [column.value(data) for column in columns]
