"""Card-data tables -> ``cards`` rows: the header map and the column-wise normaliser.

A chunk of rows is split into columns, cleaned (control characters out, cells stripped) and
converted a column at a time (:mod:`zcards.cards.convert`); each good row comes out in its stored
form. Everything here is linear in the size of the chunk and of the header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from lackey_plugin.columns import Column as GameColumn
from zcards.cards.convert import STORED_DEFAULTS, ColumnConverter, converter
from zcards.cards.model import CARD_FIELDS, FIELD_ALIASES, json_text
from zcards.errors import Location, ZcardsError

_ALIAS_TO_FIELD = {alias: name for name, aliases in FIELD_ALIASES.items() for alias in aliases}
_REQUIRED_FIRST = ("name", "set_name", "image_file")
_HEADER_FOLD = re.compile(r"[\s_\-.]")
# Characters that could drive a terminal or hide text: C0/C1 controls (TAB separates
# fields, CR/LF end lines), DEL, bidirectional overrides and isolates, line separators.
CONTROL_CHARACTERS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)
_LATIN1_CONTROLS = bytes([*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])
_NOT_LATIN1_CONTROLS = bytes(set(range(256)) - set(_LATIN1_CONTROLS))
UNICODE_SPACES = (
    "\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
"""The white space ``str.strip`` removes beyond ASCII and the control characters."""
MAX_PROBLEMS = 1000


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, and where."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class ProblemLog(list[Problem]):
    """Problems in the order found; past ``limit`` only counted (memory stays bounded)."""

    def __init__(self, limit: int | None = MAX_PROBLEMS) -> None:
        super().__init__()
        self.limit = limit
        self.total = 0

    def append(self, problem: Problem) -> None:
        self.total += 1
        if self.limit is None or len(self) < self.limit:
            super().append(problem)

    def extend(self, problems: Any) -> None:
        for problem in problems:
            self.append(problem)


def header_key(name: str) -> str:
    return _HEADER_FOLD.sub("", name.lstrip("\ufeff")).casefold()


class HeaderMap:
    """Header columns -> card fields; every other column keeps its name (unique) for ``extra``.

    ``game``: the columns of a game definition. A header cell is then one of its columns (by
    name or alias, any case, spelled as the definition spells it from then on), stored in the
    column's card field or, without one, in ``extra`` under the column's name; a cell the
    game does not name is kept in ``extra`` too, with a warning, and so is the exact text of
    a cell padded with spaces (``exact``), so an export writes the row back byte for byte.
    Without ``game`` the Zombie fields are found by their usual spellings
    (:data:`FIELD_ALIASES`)."""

    def __init__(
        self,
        header: list[str],
        origin: str,
        positional: bool = True,
        game: Sequence[GameColumn] | None = None,
    ) -> None:
        cleaned = [CONTROL_CHARACTERS.sub("", cell).strip().lstrip("\ufeff") for cell in header]
        self.warnings: list[Problem] = []
        if any(CONTROL_CHARACTERS.search(cell) for cell in header):
            message = "control characters removed from the header"
            self.warnings.append(Problem(Location(origin, 1), message))
        while cleaned and not cleaned[-1]:
            cleaned.pop()
        self.width = len(cleaned)
        self.fields: dict[str, int] = {}
        self.extra: dict[int, str] = {}
        self.columns = cleaned
        self.exact = game is not None
        used: set[str] = set()
        suffixes: dict[str, int] = {}
        known = _game_columns(game) if game is not None else None
        for index, name in enumerate(cleaned):
            if known is not None:
                column = known.get(header_key(name))
                if column is None:
                    note = f"column {name!r} is not in the game definition; kept, not exported"
                    self.warnings.append(Problem(Location(origin, 1, index + 1), note))
                else:
                    name = cleaned[index] = column.name
                target = column.field if column is not None else None
            else:
                target = _ALIAS_TO_FIELD.get(header_key(name))
            if target and target not in self.fields:
                self.fields[target] = index
                continue
            if target:
                note = f"second {target} column {name!r} kept as an extra column"
                self.warnings.append(Problem(Location(origin, 1, index + 1), note))
            label = name or f"Column{index + 1}"
            if label in used:
                number = suffixes.get(label, 2)
                while f"{label}_{number}" in used:
                    number += 1
                suffixes[label] = number + 1
                label = f"{label}_{number}"
            used.add(label)
            self.extra[index] = label
        for position, needed in enumerate(_REQUIRED_FIRST):
            if not positional and (needed in self.fields or needed == "image_file"):
                continue
            if not positional:
                label = ("Name", "Set")[position]
                raise ZcardsError(
                    f"the header has no {label} column (columns: {', '.join(cleaned)[:200]})",
                    Location(origin, 1),
                )
            if self.fields.get(needed) != position:
                got = cleaned[position] if position < len(cleaned) else "nothing"
                expected = ("Name", "Set", "ImageFile")[position]
                message = (
                    f"card data header must start with Name, Set, ImageFile; "
                    f"column {position + 1} is {got[:40]!r}, expected {expected!r}"
                )
                if header_key(got) in FIELD_ALIASES[needed]:  # the game maps it to no field
                    message = (
                        f"column {position + 1} is {got[:40]!r}, but the game definition's "
                        f'column of that name has no field = "{needed}": add it to that '
                        "[[columns]] entry"
                    )
                raise ZcardsError(message, Location(origin, 1, position + 1))

    def header(self, index: int) -> str:
        return self.columns[index] if index < len(self.columns) else f"Column{index + 1}"


def _game_columns(columns: Sequence[GameColumn]) -> dict[str, GameColumn]:
    """Folded header spelling -> column, for every name and alias of a game's columns."""
    found: dict[str, GameColumn] = {}
    for column in columns:
        for spelling in (column.name, *column.aliases):
            found.setdefault(header_key(spelling), column)
    return found


@dataclass
class Chunk:
    """Good rows of a chunk: their line numbers and the stored columns (CARD_FIELDS order)."""

    lines: list[int]
    columns: list[Sequence[Any]]

    def rows(self) -> Iterator[tuple[Any, ...]]:
        return zip(*self.columns, strict=True)


@dataclass
class _Table:
    """Non-blank rows as cleaned columns, ``width`` of them; ``overflow`` holds the cells
    beyond the header of a lenient file's rows, by row position."""

    numbers: list[int]
    columns: list[list[str]]
    overflow: dict[int, list[str]]
    controls: bool = True
    padded: dict[tuple[int, int], str] = field(default_factory=dict)
    """(column, row position) -> a field's cell as the source spelled it, spaces and all."""


class TableNormaliser:
    """Normalises the rows of one document, a chunk at a time, with its header's converters."""

    def __init__(
        self, header: HeaderMap, origin: str, zombie: bool | None, problems: ProblemLog | None
    ) -> None:
        self.header = header
        self.origin = origin
        self.strict = ("faction" in header.fields) if zombie is None else zombie
        self.problems = problems if problems is not None else ProblemLog()
        self.warnings = ProblemLog()
        self.warnings.extend(header.warnings)
        self.converters: dict[str, ColumnConverter] = {}
        for name, index in header.fields.items():
            convert = converter(name, header.header(index), self.strict)
            if convert is not None:
                self.converters[name] = ColumnConverter(convert)

    def chunk(self, numbers: Sequence[int], lines: Sequence[Any], split: bool = True) -> Chunk:
        """Normalise raw lines (``split``: TAB-separated text, else lists of cells)."""
        table = self._fit(numbers, lines, split)
        self._clean(table)
        return self._convert(table)

    def _fit(self, numbers: Sequence[int], lines: Sequence[Any], split: bool) -> _Table:
        """Rows as columns. A typical chunk is split a column at a time: its lines all have
        the header's width and a Name, so none can be blank."""
        width = self.header.width
        if split and lines and set(map(str.count, lines, repeat("\t"))) == {width - 1}:
            joined = "\t".join(lines)
            cells = joined.split("\t")
            columns = [cells[index::width] for index in range(width)]
            padded: dict[tuple[int, int], str] = {}
            if _needs_strip(joined):
                padded = self._padded(columns)
                columns = [list(map(str.strip, column)) for column in columns]
            if "" not in columns[0]:
                return _Table(list(numbers), columns, {}, has_controls(joined), padded)
        rows = list(map(str.split, lines, repeat("\t"))) if split else lines
        return self._fit_rows(numbers, rows)

    def _fit_rows(self, numbers: Sequence[int], rows: Sequence[list[str]]) -> _Table:
        """Row by row: drop blank rows; a row of another length than the header is a problem
        (strict data) or padded with a warning."""
        width = self.header.width
        kept_numbers: list[int] = []
        kept: list[list[str]] = []
        overflow: dict[int, list[str]] = {}
        raw: list[list[str]] = []
        for number, fields in zip(numbers, rows, strict=True):
            cells = [cell.strip() for cell in fields]
            if not any(cells):
                continue
            while len(cells) > width and not cells[-1]:
                cells.pop()
            if len(cells) != width and (self.strict or len(cells) < width):
                message = f"row has {len(cells)} fields, the header has {width}"
                where = Location(self.origin, number, min(len(cells), width) + 1)
                if self.strict:
                    self.problems.append(Problem(where, message))
                    continue
                self.warnings.append(Problem(where, message))
                cells += [""] * (width - len(cells))
            if len(cells) > width:
                overflow[len(kept)] = cells[width:]
                del cells[width:]
            kept_numbers.append(number)
            kept.append(cells)
            if self.header.exact:
                raw.append([*fields[:width], *[""] * (width - len(fields))])
        columns = [list(column) for column in zip(*kept, strict=True)]
        padded = self._padded([list(column) for column in zip(*raw, strict=True)]) if raw else {}
        return _Table(kept_numbers, columns or [[] for _ in range(width)], overflow, True, padded)

    def _padded(self, columns: list[list[str]]) -> dict[tuple[int, int], str]:
        """The cells that white space pads (another game's data only)."""
        if not self.header.exact:
            return {}
        return {
            (index, position): cell
            for index, column in enumerate(columns[: self.header.width])
            for position, cell in enumerate(column)
            if cell != cell.strip() and cell.strip() and not has_controls(cell)
        }

    def _clean(self, table: _Table) -> None:
        """Control characters are removed from every cell, with a warning naming the cell."""
        if not table.controls:
            return
        labels = [self.header.header(index) for index in range(self.header.width)]
        for index, column in enumerate(table.columns):
            if not has_controls("\t".join(column)):
                continue
            for position, cell in enumerate(column):
                if CONTROL_CHARACTERS.search(cell):
                    column[position] = CONTROL_CHARACTERS.sub("", cell).strip()
                    where = Location(self.origin, table.numbers[position], labels[index])
                    self.warnings.append(Problem(where, _control_note(cell)))
        for position, cells in table.overflow.items():
            table.overflow[position] = [CONTROL_CHARACTERS.sub("", cell) for cell in cells]

    def _convert(self, table: _Table) -> Chunk:
        """Convert column by column; keep each good row, report the rest (one problem per bad
        cell). A lenient file keeps a cell that does not fit its field as text in ``extra``."""
        header, count = self.header, len(table.numbers)
        values: dict[str, Sequence[Any]] = {}
        bad: dict[int, list[tuple[int, str]]] = {}  # position -> [(column, message)]
        kept_text: dict[int, list[int]] = {}  # position -> lenient columns kept as text
        for name, index in header.fields.items():
            cells = table.columns[index]
            convert = self.converters.get(name)
            if convert is None:
                values[name] = cells
                continue
            column = convert(cells)
            values[name] = column.values
            if not column.errors:
                continue
            for position, cell in enumerate(cells):
                message = column.errors.get(cell)
                if message is None:
                    continue
                if self.strict:
                    bad.setdefault(position, []).append((index, message))
                else:
                    kept_text.setdefault(position, []).append(index)
            if not self.strict and STORED_DEFAULTS.get(name) is not None:
                default = STORED_DEFAULTS[name]
                values[name] = [default if value is None else value for value in column.values]
        for name, label in (("name", "Name"), ("set_name", "Set")):
            index = header.fields[name]
            if "" in table.columns[index]:
                for position, cell in enumerate(table.columns[index]):
                    if not cell:
                        bad.setdefault(position, []).append((index, f"{label} is empty"))
        columns: list[Sequence[Any]] = [
            values[name] if name in values else [STORED_DEFAULTS.get(name, "")] * count
            for name in CARD_FIELDS[:-1]
        ]
        columns.append(self._extra(table, kept_text))
        if not bad:
            return Chunk(table.numbers, columns)
        for position in sorted(bad):
            for index, message in sorted(bad[position]):
                where = Location(self.origin, table.numbers[position], header.header(index))
                self.problems.append(Problem(where, message))
        keep = [position for position in range(count) if position not in bad]
        return Chunk(
            [table.numbers[p] for p in keep], [[column[p] for p in keep] for column in columns]
        )

    def _extra(self, table: _Table, kept_text: dict[int, list[int]]) -> list[str]:
        """The ``extra`` JSON of every row: columns without a field (and cells a lenient file
        could not convert), then unnamed overflow cells."""
        count = len(table.numbers)
        labels = sorted(self.header.extra.items())
        if not labels and not table.overflow and not kept_text and not table.padded:
            return ["{}"] * count
        padded: dict[int, list[int]] = {}
        for index, position in table.padded:
            padded.setdefault(position, []).append(index)
        stored = []
        for position in range(count):
            indexes = [(index, label) for index, label in labels]
            if position in kept_text:
                more = [(index, self.header.header(index)) for index in kept_text[position]]
                indexes = sorted(indexes + more)
            extra = {label: table.columns[index][position] for index, label in indexes}
            for index in padded.get(position, ()):
                extra[self.header.header(index)] = table.padded[index, position]
            for offset, cell in enumerate(table.overflow.get(position, ()), self.header.width + 1):
                extra[f"Column{offset}"] = cell
            stored.append(json_text(extra))
        return stored


def has_controls(text: str) -> bool:
    """Whether ``text`` holds a character of :data:`CONTROL_CHARACTERS`. Text of code points
    below 256 (ASCII, Western accents) is checked a byte at a time in C, several times faster
    than the regular expression; its other controls are all above 255."""
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError:
        return CONTROL_CHARACTERS.search(text) is not None
    return bool(data.translate(None, _NOT_LATIN1_CONTROLS))


def _needs_strip(text: str) -> bool:
    """Whether some cell of TAB-joined ``text`` may start or end with white space (control
    characters are stripped where they are removed, see ``_clean``)."""
    if not text.isascii() and any(space in text for space in UNICODE_SPACES):
        return True
    return " \t" in text or "\t " in text or text[:1].isspace() or text[-1:].isspace()


def _control_note(cell: str) -> str:
    found = sorted(set(CONTROL_CHARACTERS.findall(cell)))
    shown = ", ".join(f"U+{ord(char):04X}" for char in found[:5])
    return f"control character{'s' if len(found) > 1 else ''} {shown} removed"
