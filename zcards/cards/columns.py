"""A card data column as a game definition names it (see :mod:`zcards.game.gamefile`).

It lives with the card model because reading card data needs it: the header map
(:mod:`zcards.cards.table`) finds each column of a game by its name or aliases.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One card data column: its header name (kept as the source spells it), its type, the
    built-in card field it is stored in (None: a column of its own in the database), the other
    header spellings an import accepts, and whether searches use it (it gets an index)."""

    name: str
    type: str = "text"
    field: str | None = None
    aliases: tuple[str, ...] = ()
    searched: bool = False
