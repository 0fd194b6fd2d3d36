"""Card data files (``sets/*.txt``, reference §3): safe names, writing, and lenient reading.

Card data is untrusted. A Set or ImageFile becomes a folder or file name in the plugin, so it is
made safe by :mod:`zcards.safe_names` before anything is written, and the card data then carries
the safe value: the renderer, applying the same rule, writes the image under exactly that name,
so Lackey finds it. Every rename is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from lackey_plugin.text import decode_bytes
from zcards.model import ZOMBIE_COLUMNS, Card
from zcards.safe_names import UniqueNames

MAX_FILE_BYTES = 1_000_000
_FIELD_BREAKS = re.compile(r"[\t\r\n]+")


@dataclass(frozen=True)
class SafeCards:
    cards: list[Card]
    messages: list[str]


def sanitize_cards(cards: Iterable[Card]) -> SafeCards:
    """Cards with safe Set and ImageFile values and fields free of TAB/CR/LF, plus what changed."""
    messages: list[str] = []
    set_names = UniqueNames()
    image_names: dict[str, UniqueNames] = {}
    safe: list[Card] = []
    for card in cards:
        set_name = set_names.name(card.set_name, "set")
        if set_name != card.set_name:
            _note(messages, f"set {card.set_name!r} renamed to {set_name!r} (unsafe file name)")
        placed = replace(card, set_name=set_name)
        image = image_names.setdefault(set_name, UniqueNames()).image(placed, messages)
        cleaned = replace(placed, image_file=image)
        fields = cleaned.to_lackey_fields()
        if any(_FIELD_BREAKS.search(value) for value in fields.values()):
            messages.append(f"{card.name!r} ({set_name}): TAB/line break in a field -> space")
            cleaned = _without_breaks(cleaned)
        safe.append(cleaned)
    return SafeCards(safe, messages)


def _note(messages: list[str], message: str) -> None:
    if message not in messages:
        messages.append(message)


def _without_breaks(card: Card) -> Card:
    def clean(text: str) -> str:
        return _FIELD_BREAKS.sub(" ", text).strip()

    return replace(
        card,
        name=clean(card.name),
        type=clean(card.type),
        faction=clean(card.faction),
        keywords=tuple(clean(k) for k in card.keywords),
        symbols=tuple(clean(s) for s in card.symbols),
        rarity=clean(card.rarity),
        text=clean(card.text),
        extra={clean(k): clean(v) for k, v in card.extra.items()},
    )


def columns_for(cards: Sequence[Card]) -> list[str]:
    """The Zombie columns, then any extra column these cards use, sorted for stable output."""
    extra = sorted({column for card in cards for column in card.extra} - set(ZOMBIE_COLUMNS))
    return [*ZOMBIE_COLUMNS, *extra]


def render_card_files(set_name: str, cards: Sequence[Card]) -> list[tuple[str, str]]:
    """``[(file name, text)]`` for one set: ``<set>.txt``, then ``<set>-2.txt`` … past 1 MB."""
    columns = columns_for(cards)
    header = "\t".join(columns) + "\n"
    files: list[tuple[str, str]] = []
    rows: list[str] = []
    size = len(header.encode())
    for card in cards:
        fields = card.to_lackey_fields()
        row = "\t".join(fields.get(column, "") for column in columns) + "\n"
        row_size = len(row.encode())
        if rows and size + row_size >= MAX_FILE_BYTES:
            files.append((_part_name(set_name, len(files)), header + "".join(rows)))
            rows, size = [], len(header.encode())
        rows.append(row)
        size += row_size
    files.append((_part_name(set_name, len(files)), header + "".join(rows)))
    return files


def _part_name(set_name: str, index: int) -> str:
    return f"{set_name}.txt" if index == 0 else f"{set_name}-{index + 1}.txt"


@dataclass(frozen=True)
class CardRow:
    line: int
    fields: dict[str, str]
    extra_fields: int
    """How many fields the row has beyond the header (VTES ships such rows)."""


@dataclass(frozen=True)
class CardFile:
    """A card data file as Lackey reads it: split on raw tabs, any line ending."""

    header: list[str]
    rows: list[CardRow]
    has_bom: bool
    utf8: bool
    line_endings: frozenset[str]


def read_card_file(data: bytes) -> CardFile:
    """Parse card data bytes without ever failing; the linter judges what it finds."""
    has_bom = data.startswith(b"\xef\xbb\xbf")
    try:
        data.decode("utf-8")
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    endings = frozenset(ending.decode() for ending in re.findall(rb"\r\n|\r|\n", data))
    lines = re.split(r"\r\n|\r|\n", decode_bytes(data))  # as Lackey splits: CR and LF only
    header = lines[0].split("\t") if lines else []
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        values = line.split("\t")
        fields = {column: value for column, value in zip(header, values, strict=False)}
        rows.append(CardRow(number, fields, max(0, len(values) - len(header))))
    return CardFile(header, rows, has_bom, utf8, endings)
