"""The shape of a game definition file, and a checker that names file and line of a mistake.

:data:`SCHEMA` works like a small JSON schema: each top-level table or array of tables lists
its keys with their type, whether they are required and, for some, the values allowed.
:func:`check_document` walks a parsed document against it and reports the first mistake at the
line of the TOML text where it stands (tomllib keeps no positions, so the line is found again
in the text: the table header, then the key under it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.text import control_characters


@dataclass(frozen=True)
class Key:
    """One key: its Python type, whether it must be there, and the values allowed (if listed)."""

    kind: type | tuple[type, ...]
    required: bool = False
    choices: tuple[str, ...] = ()
    items: type | None = None
    """For a list: the type of each item."""


@dataclass(frozen=True)
class Table:
    keys: dict[str, Key]
    array: bool = False
    required: bool = False


_LABEL = Key(str, True)
_FUNCTION = {
    "label": _LABEL,
    "kind": Key(str, True),
    "meaning": Key(str),
    "description": Key(str),
    "button": Key(bool),
}
SCHEMA: dict[str, Table] = {
    "game": Table(
        {
            "name": Key(str, True),
            "title": Key(str),
            "face": Key(str),
            "back": Key(str),
            "layout": Key(str, choices=("by-set", "by-source")),
            "plugin_version": Key(str),
            "name_tag": Key(bool),
            "folder": Key(str),
        },
        required=True,
    ),
    "stats": Table({"label": _LABEL, "initial": Key(int), "meaning": Key(str)}, array=True),
    "global_stats": Table({"label": _LABEL, "initial": Key(int), "meaning": Key(str)}, array=True),
    "phases": Table({"labels": Key(list, True, items=str)}),
    "zones": Table(
        {
            "label": _LABEL,
            "visible_to_owner": Key(bool),
            "visible_to_others": Key(bool),
            "shared": Key(bool),
        },
        array=True,
    ),
    "deck_zones": Table(
        {"label": _LABEL, "load_to": Key(str), "shuffle": Key(bool), "legacy_tag": Key(bool)},
        array=True,
    ),
    "counters": Table(
        {"colour": Key(str, True), "x": Key(str), "y": Key(str), "meaning": Key(str)}, array=True
    ),
    "card_functions": Table(
        {**_FUNCTION, "colour": Key(str), "x": Key(str), "y": Key(str)}, array=True
    ),
    "general_functions": Table({**_FUNCTION, "options": Key(dict, items=str)}, array=True),
    "definitions": Table({"kind": Key(str, True), "value": Key(str)}, array=True),
    "columns": Table(
        {
            "name": Key(str, True),
            "type": Key(str, choices=("text", "integer", "list")),
            "field": Key(str),
            "aliases": Key(list, items=str),
            "searched": Key(bool),
        },
        array=True,
        required=True,
    ),
    "images": Table({"general_urls": Key(list, items=str), "url_files": Key(list, items=str)}),
    "release": Table(
        {"chat": Key(list, items=str), "phase_images": Key(bool), "base_url": Key(str)}
    ),
    "files": Table(
        {
            "root": Key(str),
            "packs": Key(list, items=str),
            "decks": Key(list, items=str),
            "formats": Key(str),
            "sounds": Key(list, items=str),
            "start": Key(str),
            "other": Key(list, items=str),
            "urls": Key(dict, items=str),
        }
    ),
}
_NAMES = {"bool": "true or false", "int": "a whole number", "str": "a string", "list": "a list"}


def check_document(data: dict[str, Any], text: str, origin: str, fields: tuple[str, ...]) -> None:
    """Raise a :class:`LackeyError` at the first place ``data`` does not fit :data:`SCHEMA`,
    or where the columns break a rule no type can say (Name, Set, ImageFile first; unique;
    each ``field`` one of the application's ``fields``)."""
    finder = _LineFinder(text, origin)
    for name in data:
        if name not in SCHEMA:
            raise LackeyError(
                f"unknown table [{name}] (known: {', '.join(SCHEMA)})", finder.at(name)
            )
    for name, table in SCHEMA.items():
        value = data.get(name)
        if value is None:
            if table.required:
                raise LackeyError(f"the [{name}] table is missing", Location(origin, 1))
            continue
        entries = value if table.array else [value]
        if table.array != isinstance(value, list):
            shape = f"[[{name}]]" if table.array else f"[{name}]"
            raise LackeyError(f"{name} must be written {shape}", finder.at(name))
        for index, entry in enumerate(entries):
            _check_entry(name, index if table.array else None, entry, table, finder)
    _check_columns(data["columns"], finder, fields)


def _check_entry(
    name: str, index: int | None, entry: Any, table: Table, finder: _LineFinder
) -> None:
    where = f"[[{name}]] number {index + 1}" if index is not None else f"[{name}]"
    if not isinstance(entry, dict):
        raise LackeyError(f"{where} must be a table", finder.at(name, index))
    for key, value in entry.items():
        spec = table.keys.get(key)
        if spec is None:
            known = ", ".join(table.keys)
            raise LackeyError(
                f"unknown key {key!r} in {where} (known: {known})", finder.at(name, index, key)
            )
        problem = _type_problem(value, spec)
        if problem:
            raise LackeyError(f"{key} in {where} {problem}", finder.at(name, index, key))
    for key, spec in table.keys.items():
        if spec.required and key not in entry:
            raise LackeyError(f"{where} needs {key!r}", finder.at(name, index))


def _type_problem(value: Any, spec: Key) -> str | None:
    kinds = spec.kind if isinstance(spec.kind, tuple) else (spec.kind,)
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        return f"must be {_NAMES.get(kinds[0].__name__, kinds[0].__name__)}"
    if spec.choices and value not in spec.choices:
        return f"must be one of {', '.join(spec.choices)}; got {value!r}"
    if spec.items is not None:
        items: Iterable[Any] = value.values() if isinstance(value, dict) else value  # type: ignore[assignment]
        if not all(isinstance(item, spec.items) for item in items):
            return f"must hold only {_NAMES.get(spec.items.__name__, spec.items.__name__)}s"
    return None


def _check_columns(
    columns: list[dict[str, Any]], finder: _LineFinder, known: tuple[str, ...]
) -> None:
    first = [column.get("name", "") for column in columns[:3]]
    expected = ["Name", "Set", "ImageFile"]
    if first != expected:
        wrong = next(i for i, name in enumerate(expected) if i >= len(first) or first[i] != name)
        message = f"the first three columns must be Name, Set, ImageFile; got {first}"
        raise LackeyError(message, finder.at("columns", min(wrong, len(columns) - 1)))
    seen: dict[str, int] = {}
    fields: dict[str, int] = {}
    for index, column in enumerate(columns):
        folded = column["name"].casefold()
        strange = '"' in column["name"] or control_characters(column["name"])
        if folded in seen or strange or not column["name"].strip():
            message = (
                f"column {column['name']!r} is empty, repeated or holds a double quote or "
                "a control character"
            )
            raise LackeyError(message, finder.at("columns", index, "name"))
        seen[folded] = index
        field = column.get("field")
        if field is not None and field not in known:
            where = f"[[columns]] number {index + 1}"
            message = f"field in {where} must be one of {', '.join(known)}; got {field!r}"
            raise LackeyError(message, finder.at("columns", index, "field"))
        if field is not None and field in fields:
            message = f"two columns are stored in the field {field!r}"
            raise LackeyError(message, finder.at("columns", index, "field"))
        if field is not None:
            fields[field] = index


class _LineFinder:
    """The line of a table (the n-th ``[[name]]``) or of a key under it, in the TOML text."""

    def __init__(self, text: str, origin: str) -> None:
        self.lines = text.splitlines()
        self.origin = origin

    def at(self, table: str, index: int | None = None, key: str | None = None) -> Location:
        header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*(#.*)?$")
        starts = [number for number, line in enumerate(self.lines) if header.match(line)]
        if not starts:
            assignment = re.compile(r"^\s*" + re.escape(table) + r"\s*=")
            starts = [n for n, line in enumerate(self.lines) if assignment.match(line)]
        if not starts:
            return Location(self.origin)
        start = starts[min(index or 0, len(starts) - 1)]
        if key is None:
            return Location(self.origin, start + 1)
        pattern = re.compile(r"^\s*\"?" + re.escape(key) + r"\"?\s*=")
        for number in range(start + 1, len(self.lines)):
            line = self.lines[number]
            if line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return Location(self.origin, number + 1, line.index(key) + 1)
        return Location(self.origin, start + 1)
