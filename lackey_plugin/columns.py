"""A card data column as a game definition names it (see :mod:`lackey_plugin.gamefile`), and
the built-in card fields an application stores some columns in.

Lackey itself knows only Name, Set and ImageFile; an application (zcards) has fields of its
own (a type, a cost, rules text). It hands them in as :class:`CardFields`, so a definition's
``field =`` is checked against them and ``plugin init`` maps a header to one by its spelling.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


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


@dataclass(frozen=True)
class CardFields:
    """The built-in card fields of the application reading a definition.

    ``names``: every field a column may be stored in. ``text_headers`` and ``number_headers``
    map a header, folded and without spaces, dashes, dots or underscores, to the field
    ``plugin init`` stores it in (a number field only when every value is a whole number)."""

    names: tuple[str, ...]
    text_headers: Mapping[str, str] = field(default_factory=dict)
    number_headers: Mapping[str, str] = field(default_factory=dict)


# What Lackey itself requires of every card data file: the three first columns.
LACKEY_FIELDS = CardFields(
    ("name", "set_name", "image_file"),
    {"name": "name", "set": "set_name", "imagefile": "image_file"},
)
