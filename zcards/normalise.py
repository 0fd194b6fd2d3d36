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
from pathlib import Path

from rapidfuzz import fuzz, process

from zcards.errors import Location, ZcardsError
from zcards.model import (
    CARD_TYPES,
    FACTIONS,
    KEYWORDS,
    RARITIES,
    RARITY_NAMES,
    SYMBOLS,
    Card,
    RequirementSyntaxError,
    parse_requirements,
)

# Card field -> accepted header spellings, compared after _header_key() folding.
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
_ALIAS_TO_FIELD = {alias: name for name, aliases in FIELD_ALIASES.items() for alias in aliases}
_REQUIRED_FIRST = ("name", "set_name", "image_file")
_INT_FIELDS = ("cost", "power", "health")
_LIST_SPLIT = re.compile(r"\s*[,;]\s*")
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_VOCABULARIES: dict[str, tuple[str, ...]] = {
    "type": CARD_TYPES,
    "faction": FACTIONS,
    "rarity": RARITIES,
    "keyword": KEYWORDS,
    "symbol": SYMBOLS,
}
# Case-insensitive spelling -> canonical value; rarities are also accepted by name ("Common").
_CANONICAL = {what: {v.casefold(): v for v in values} for what, values in _VOCABULARIES.items()}
_CANONICAL["rarity"].update({name.casefold(): code for code, name in RARITY_NAMES.items()})


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
    """The outcome of reading one card-data document."""

    origin: str
    columns: list[str]
    zombie: bool
    rows: list[CardRow] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

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
    lines = _LINE_SPLIT.split(text)
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
    table = [(number, line.split("\t")) for number, line in enumerate(lines[1:], start=2)]
    return normalise_table(lines[0].split("\t"), table, origin, zombie=zombie, warnings=warnings)


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
    mapping = _HeaderMap(header, origin, positional)
    strict = ("faction" in mapping.fields) if zombie is None else zombie
    result = CardFile(origin, mapping.columns, strict, warnings=list(warnings or []))
    result.warnings.extend(mapping.warnings)
    raw: list[tuple[int, list[str]]] = []
    for number, fields in rows:
        cells = [cell.strip() for cell in fields]
        if not any(cells):
            continue
        while len(cells) > mapping.width and not cells[-1]:
            cells.pop()
        if len(cells) != mapping.width and (strict or len(cells) < mapping.width):
            message = f"row has {len(cells)} fields, the header has {mapping.width}"
            column = min(len(cells), mapping.width) + 1
            if strict:
                result.problems.append(Problem(Location(origin, number, column), message))
                continue
            result.warnings.append(Problem(Location(origin, number, column), message))
            cells += [""] * (mapping.width - len(cells))
        raw.append((number, cells))
    plan = _plan(mapping, raw, strict)
    seen: dict[tuple[str, str], int] = {}
    for number, cells in raw:
        card = _make_card(mapping, plan, cells, origin, number)
        if isinstance(card, list):
            result.problems.extend(card)
            continue
        first = seen.setdefault(card.key, number)
        if strict and first != number:
            message = (
                f"duplicate card {card.name!r} in set {card.set_name!r} (first at line {first})"
            )
            result.problems.append(Problem(Location(origin, number, "Name"), message))
            continue
        result.rows.append(CardRow(number, card))
    return result


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


class _BadValue(ValueError):
    """A cell that does not convert; the message is shown to the user as is."""


Converter = Callable[[str], object]


@dataclass
class _Plan:
    """How to turn a row's cells into a card, decided once per file."""

    fields: list[tuple[str, int, Converter | None]]
    extra: list[tuple[str, int]]
    width: int


def _plan(mapping: _HeaderMap, raw: list[tuple[int, list[str]]], strict: bool) -> _Plan:
    """Other games' columns that do not fit a field's type (FoW's Cost ``[L][1]``) are kept
    as text in ``extra`` rather than rejected."""
    fields: list[tuple[str, int, Converter | None]] = []
    for name, index in mapping.fields.items():
        header = mapping.header(index)
        convert = _converter(name, header, strict)
        if not strict and name in (*_INT_FIELDS, "requirements"):
            try:
                for _, cells in raw:
                    convert(cells[index])  # type: ignore[misc]
            except ValueError:
                mapping.extra[index] = header
                continue
        fields.append((name, index, convert))
    extra = [(label, index) for index, label in sorted(mapping.extra.items())]
    return _Plan(fields, extra, mapping.width)


def _converter(name: str, header: str, strict: bool) -> Converter | None:
    if name in _INT_FIELDS:
        return functools.partial(_int_value, header=header, strict=strict)
    if name == "requirements":
        return functools.partial(_requirements, strict=strict)
    if name in ("keywords", "symbols"):
        return functools.partial(_list_value, what=name[:-1] if strict else None)
    if strict and name in ("type", "faction", "rarity"):
        return functools.partial(_enum_value, what=name)
    return None


def _make_card(
    mapping: _HeaderMap, plan: _Plan, cells: list[str], origin: str, line: int
) -> Card | list[Problem]:
    """A card, or the problems of its row (one per bad cell). ``cells`` fill the header."""
    problems: list[Problem] = []
    values: dict[str, object] = {}
    for name, index, convert in plan.fields:
        if convert is None:
            values[name] = cells[index]
            continue
        try:
            values[name] = convert(cells[index])
        except _BadValue as error:
            where = Location(origin, line, mapping.header(index))
            problems.append(Problem(where, str(error)))
    for field_name, label in (("name", "Name"), ("set_name", "Set")):
        if not values.get(field_name):
            where = Location(origin, line, mapping.header(mapping.fields[field_name]))
            problems.append(Problem(where, f"{label} is empty"))
    if problems:
        return problems
    extra = {label: cells[index] for label, index in plan.extra}
    for index in range(plan.width, len(cells)):
        extra[f"Column{index + 1}"] = cells[index]
    return Card(extra=extra, **values)  # type: ignore[arg-type]


def _int_value(value: str, *, header: str, strict: bool) -> int | None:
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        raise _BadValue(f"{header} {value!r} is not a whole number") from None
    if strict and number < 0:
        raise _BadValue(f"{header} {number} is negative")
    return number


def _requirements(value: str, *, strict: bool) -> dict[str, int]:
    try:
        counts = parse_requirements(value)
    except RequirementSyntaxError as error:
        raise _BadValue(str(error)) from None
    if not strict:
        return counts
    return {_enum_value(keyword, what="keyword"): n for keyword, n in counts.items()}


def _list_value(value: str, *, what: str | None) -> tuple[str, ...]:
    """Comma-separated items; ``what`` names the vocabulary to check them against."""
    items = [item for item in _LIST_SPLIT.split(value) if item]
    if what is not None:
        items = [_enum_value(item, what=what) for item in items]
    return tuple(items)


def _enum_value(value: str, *, what: str) -> str:
    """The canonical spelling of ``value``; a typo gets a "did you mean" suggestion."""
    if not value:
        return value
    canonical = _CANONICAL[what].get(value.casefold())
    if canonical is None:
        vocabulary = _VOCABULARIES[what]
        raise _BadValue(f"unknown {what} {value!r}{did_you_mean(value, vocabulary)}")
    return canonical


def did_you_mean(value: str, vocabulary: Sequence[str]) -> str:
    """``"; did you mean 'Horde'?"`` for a close match, else the list of valid values."""
    match = process.extractOne(
        value, vocabulary, scorer=fuzz.WRatio, processor=str.casefold, score_cutoff=70
    )
    if match:
        return f"; did you mean {match[0]!r}?"
    return f" (expected one of {', '.join(vocabulary)})"
