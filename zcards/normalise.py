"""Turn a Lackey card-data file (bytes from anywhere) into normalised :class:`Card` objects.

Real card lists are messy: any encoding, any line ending, headers in any case, extra
columns, typos. The normaliser accepts what LackeyCCG accepts, cleans what it can, and
names file, line and column for everything it cannot. A file whose header has a
``Faction`` column is Zombie CCG data and is validated strictly (types, factions, keywords,
symbols, rarities, numbers); any other game's data is imported leniently, so card data of
any published Lackey plugin loads with every row.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

from zcards.convert import STORED_DEFAULTS, Column, convert_column, converter
from zcards.errors import Location, ZcardsError
from zcards.model import CARD_FIELDS, FIELD_ALIASES, Card, json_text

_ALIAS_TO_FIELD = {alias: name for name, aliases in FIELD_ALIASES.items() for alias in aliases}
_REQUIRED_FIRST = ("name", "set_name", "image_file")
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, and where."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class CardDataError(ZcardsError):
    """Card data with bad rows; ``problems`` lists every one (file, line, column)."""

    def __init__(self, problems: Sequence[Problem], hint: str = "") -> None:
        self.problems = list(problems)
        shown = "\n".join(f"  {problem}" for problem in self.problems[:50])
        more = len(self.problems) - 50
        if more > 0:
            shown += f"\n  ... and {more} more"
        count = len(self.problems)
        summary = f"{count} bad row{'s' if count != 1 else ''} in card data{hint}:\n{shown}"
        super().__init__(summary)


@dataclass(frozen=True)
class CardRow:
    line: int
    card: Card


@dataclass
class CardFile:
    """The outcome of reading one card-data document.

    Good rows are kept as ``cards`` table values (``stored``, in
    :data:`~zcards.model.CARD_FIELDS` order, with their ``lines``): an import writes them
    as they are, and :class:`Card` objects are only built when ``rows`` or ``cards`` is read.
    """

    origin: str
    columns: list[str]
    zombie: bool
    lines: list[int] = field(default_factory=list)
    stored: list[tuple[Any, ...]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @functools.cached_property
    def rows(self) -> list[CardRow]:
        pairs = zip(self.lines, self.stored, strict=True)
        return [CardRow(line, Card.from_values(values)) for line, values in pairs]

    @property
    def cards(self) -> list[Card]:
        return [row.card for row in self.rows]


def read_card_file(path: str | Path, *, skip_bad_rows: bool = False) -> list[Card]:
    """Read a card-data file; raises :class:`CardDataError` naming every bad row."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ZcardsError(f"cannot read card data: {error.strerror}", Location(str(path))) from None
    parsed = parse_card_data(data, str(path))
    if parsed.problems and not skip_bad_rows:
        raise CardDataError(parsed.problems)
    return parsed.cards


def decode_text(data: bytes, origin: str) -> tuple[str, list[Problem]]:
    """UTF-8 (BOM or not) first; old plugins are Windows-1252, which we accept with a warning."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + data.count(b"\r", 0, error.start) + 1
        line -= data.count(b"\r\n", 0, error.start)
        where = Location(origin, line)
        try:
            text = data.decode("cp1252")
            encoding = "Windows-1252"
        except UnicodeDecodeError:
            text = data.decode("latin-1")
            encoding = "Latin-1"
        note = f"not valid UTF-8 (byte 0x{data[error.start]:02x}); read as {encoding}"
        return text, [Problem(where, note)]


def split_lines(text: str) -> list[str]:
    """LF, CRLF and CR-only endings all occur in working plugins."""
    lines = _LINE_SPLIT.split(text) if "\r" in text else text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def looks_like_card_data(text: str) -> bool:
    """A card-data header starts with a Name column."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].split("\t", 1)[0]
    return _header_key(first) in FIELD_ALIASES["name"]


def parse_card_data(data: bytes | str, origin: str, *, zombie: bool | None = None) -> CardFile:
    """Parse card data; ``zombie`` forces strict Zombie CCG validation on or off (default: auto)."""
    if isinstance(data, bytes):
        text, warnings = decode_text(data, origin)
    else:
        text, warnings = data.lstrip("\ufeff"), []
    lines = split_lines(text)
    if not lines or not lines[0].strip():
        raise ZcardsError("card data is empty (no header row)", Location(origin, 1))
    fit = functools.partial(_fit_lines, lines[1:])
    return _normalise(lines[0].split("\t"), fit, origin, zombie, warnings, True)


def normalise_table(
    header: list[str],
    rows: Sequence[tuple[int, list[str]]],
    origin: str,
    *,
    zombie: bool | None = None,
    warnings: list[Problem] | None = None,
    positional: bool = True,
) -> CardFile:
    """Normalise a header and raw rows (from a TSV file or an HTML table).

    Lackey reads Name, Set, ImageFile as the first three columns (``positional``); a web
    page's table only needs Name and Set columns somewhere.
    """
    numbers, cells = [number for number, _ in rows], [fields for _, fields in rows]
    fit = functools.partial(_fit, numbers, cells)
    return _normalise(header, fit, origin, zombie, warnings, positional)


def _normalise(
    header: list[str],
    fit: Callable[[int, bool, CardFile], _Table],
    origin: str,
    zombie: bool | None,
    warnings: list[Problem] | None,
    positional: bool,
) -> CardFile:
    mapping = _HeaderMap(header, origin, positional)
    strict = ("faction" in mapping.fields) if zombie is None else zombie
    result = CardFile(origin, mapping.columns, strict, warnings=list(warnings or []))
    result.warnings.extend(mapping.warnings)
    _convert(mapping, fit(mapping.width, strict, result), strict, result)
    return result


@dataclass
class _Table:
    """Non-blank rows as stripped columns, ``width`` of them; ``overflow`` holds the cells
    beyond the header of a lenient file's rows, by row position."""

    numbers: list[int]
    columns: list[list[str]]
    overflow: dict[int, list[str]]


def _fit_lines(lines: list[str], width: int, strict: bool, result: CardFile) -> _Table:
    """The tab-separated lines after the header as a table. A typical file is split a column
    at a time: its lines all have the header's width and a Name, so none can be blank."""
    if lines and set(map(str.count, lines, repeat("\t"))) == {width - 1}:
        cells = "\t".join(lines).split("\t")
        columns = [list(map(str.strip, cells[index::width])) for index in range(width)]
        if "" not in columns[0]:
            return _Table(list(range(2, len(lines) + 2)), columns, {})
    rows = list(map(str.split, lines, repeat("\t")))
    return _fit(range(2, len(lines) + 2), rows, width, strict, result)


def _fit(
    numbers: Sequence[int], rows: Sequence[list[str]], width: int, strict: bool, result: CardFile
) -> _Table:
    """Row by row: drop blank rows; a row of another length than the header is a problem
    (strict data) or padded with a warning. Cells are stripped a column at a time."""
    kept_numbers: list[int] = []
    kept: list[list[str]] = []
    overflow: dict[int, list[str]] = {}
    for number, fields in zip(numbers, rows, strict=True):
        if len(fields) == width and fields[0].strip():
            kept_numbers.append(number)
            kept.append(fields)
            continue
        cells = [cell.strip() for cell in fields]
        if not any(cells):
            continue
        while len(cells) > width and not cells[-1]:
            cells.pop()
        if len(cells) != width and (strict or len(cells) < width):
            message = f"row has {len(cells)} fields, the header has {width}"
            where = Location(result.origin, number, min(len(cells), width) + 1)
            if strict:
                result.problems.append(Problem(where, message))
                continue
            result.warnings.append(Problem(where, message))
            cells += [""] * (width - len(cells))
        if len(cells) > width:
            overflow[len(kept)] = cells[width:]
        kept_numbers.append(number)
        kept.append(cells)
    columns = [list(map(str.strip, column)) for column in zip(*kept, strict=False)]  # not overflow
    return _Table(kept_numbers, columns or [[] for _ in range(width)], overflow)


def _convert(mapping: _HeaderMap, table: _Table, strict: bool, result: CardFile) -> None:
    """Convert the table column by column; keep each good row in stored form, report the rest
    (one problem per bad cell, in row order)."""
    values: dict[str, Sequence[Any]] = {}
    checked: list[tuple[int, Column]] = []
    for name, index in mapping.fields.items():
        convert = converter(name, mapping.header(index), strict)
        if convert is None:
            values[name] = table.columns[index]
            continue
        column = convert_column(convert, table.columns[index])
        if column.errors and not strict:
            # Other games' columns that do not fit a field's type (FoW's Cost ``[L][1]``) are
            # kept as text in ``extra`` rather than rejected.
            mapping.extra[index] = mapping.header(index)
            continue
        values[name] = column.values
        if column.errors:
            checked.append((index, column))
    columns = [
        values[name] if name in values else repeat(STORED_DEFAULTS.get(name, ""))
        for name in CARD_FIELDS[:-1]
    ]
    columns.append(_stored_extra(mapping, table))
    stored = list(zip(*columns, strict=False))  # defaults repeat
    bad = _bad_rows(mapping, table, checked)
    keys = list(zip(values["set_name"], values["name"], strict=True))
    if not bad and not (strict and len(set(keys)) != len(keys)):
        result.lines, result.stored = table.numbers, stored
        return
    seen: dict[tuple[str, str], int] = {}
    for position, number in enumerate(table.numbers):
        if position in bad:
            result.problems += _row_problems(mapping, table, checked, position, result.origin)
            continue
        first = seen.setdefault(keys[position], number)
        if strict and first != number:
            set_name, name = keys[position]
            message = f"duplicate card {name!r} in set {set_name!r} (first at line {first})"
            result.problems.append(Problem(Location(result.origin, number, "Name"), message))
            continue
        result.lines.append(number)
        result.stored.append(stored[position])


def _stored_extra(mapping: _HeaderMap, table: _Table) -> Sequence[str] | repeat[str]:
    """The ``extra`` JSON of every row: columns without a field, then unnamed overflow."""
    labels = sorted(mapping.extra.items())
    if not labels and not table.overflow:
        return repeat("{}")
    stored = []
    for position in range(len(table.numbers)):
        extra = {label: table.columns[index][position] for index, label in labels}
        for offset, cell in enumerate(table.overflow.get(position, ()), mapping.width + 1):
            extra[f"Column{offset}"] = cell
        stored.append(json_text(extra))
    return stored


def _bad_rows(mapping: _HeaderMap, table: _Table, checked: list[tuple[int, Column]]) -> set[int]:
    """Positions of rows with a bad cell or an empty Name or Set."""
    bad: set[int] = set()
    for index, column in checked:
        bad.update(p for p, cell in enumerate(table.columns[index]) if cell in column.errors)
    for name in ("name", "set_name"):
        cells = table.columns[mapping.fields[name]]
        if "" in cells:
            bad.update(p for p, cell in enumerate(cells) if not cell)
    return bad


def _row_problems(
    mapping: _HeaderMap,
    table: _Table,
    checked: list[tuple[int, Column]],
    position: int,
    origin: str,
) -> list[Problem]:
    """One problem per bad cell of a row (file, line and column header)."""
    number = table.numbers[position]
    problems = []
    for index, column in checked:
        message = column.errors.get(table.columns[index][position])
        if message is not None:
            problems.append(Problem(Location(origin, number, mapping.header(index)), message))
    for name, label in (("name", "Name"), ("set_name", "Set")):
        index = mapping.fields[name]
        if not table.columns[index][position]:
            where = Location(origin, number, mapping.header(index))
            problems.append(Problem(where, f"{label} is empty"))
    return problems


class _HeaderMap:
    """Header columns -> Card fields, with unknown columns kept for ``extra``."""

    def __init__(self, header: list[str], origin: str, positional: bool = True) -> None:
        names = [cell.strip().lstrip("\ufeff") for cell in header]
        while names and not names[-1]:
            names.pop()
        self.width = len(names)
        self.fields: dict[str, int] = {}
        self.extra: dict[int, str] = {}
        self.columns: list[str] = []
        self.warnings: list[Problem] = []
        for index, name in enumerate(names):
            target = _ALIAS_TO_FIELD.get(_header_key(name))
            if target and target not in self.fields:
                self.fields[target] = index
            else:
                label = name or f"Column{index + 1}"
                while label in self.extra.values():
                    label += "_"
                if target:
                    note = f"second {target} column {name!r} kept as an extra column"
                    self.warnings.append(Problem(Location(origin, 1, index + 1), note))
                self.extra[index] = label
            self.columns.append(name)
        for position, needed in enumerate(_REQUIRED_FIRST):
            if not positional and (needed in self.fields or needed == "image_file"):
                continue
            if self.fields.get(needed) != position:
                got = names[position] if position < len(names) else "nothing"
                expected = ("Name", "Set", "ImageFile")[position]
                raise ZcardsError(
                    f"card data header must start with Name, Set, ImageFile; "
                    f"column {position + 1} is {got!r}, expected {expected!r}",
                    Location(origin, 1, position + 1),
                )

    def header(self, index: int) -> str:
        return self.columns[index] if index < len(self.columns) else f"Column{index + 1}"


def _header_key(name: str) -> str:
    return re.sub(r"[\s_\-.]", "", name.lstrip("\ufeff")).casefold()
