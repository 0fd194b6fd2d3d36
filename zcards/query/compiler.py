"""The search language compiled to parameterised SQL over the ``cards`` table (a WHERE clause).

No user text ever becomes SQL: field names resolve to fixed column expressions from
:data:`FIELDS`, values travel as parameters. Field semantics:

* text fields (``name``, ``o``/``text``): ``:`` contains, ``=``/``!=`` whole value;
* categories (``t``/``type``, ``f``/``faction``, ``r``/``rarity``, ``set``): ``:``/``=``/``!=``
  whole value; ``r:common`` also works;
* lists (``k``/``kw``, ``sym``) and ``req``: ``:``/``=`` has it, ``!=`` lacks it;
* numbers (``cost``, ``pow``/``power``, ``hp``/``health``): ``= != < <= > >=`` (``:`` is ``=``);
* any other game's column (stored in ``extra``): by its own header name, ``:`` contains,
  ``=``/``!=`` whole value, comparisons numerically;
* every field takes ``field:/regex/``. All matching ignores case.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from zcards.cards.model import FIELD_ALIASES, RARITY_NAMES
from zcards.query.parser import And, Field, Node, Not, Or, QueryError, Regex, Text, parse_query
from zcards.query.prefix import like_ranges, literal_prefix

if TYPE_CHECKING:
    import sqlite_utils

TEXT, CATEGORY, LIST, REQUIREMENT, NUMBER, EXTRA = (
    "text", "category", "list", "requirement", "number", "extra",
)  # fmt: skip


class FieldSpec(NamedTuple):
    kind: str
    column: str


# Card field -> (kind, query aliases). Import header aliases (``strength`` = power) add more.
_FIELD_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "name": (TEXT, ("name",)),
    "text": (TEXT, ("o", "text")),
    "image_file": (TEXT, ("image", "imagefile")),
    "type": (CATEGORY, ("t", "type")),
    "faction": (CATEGORY, ("f", "faction")),
    "rarity": (CATEGORY, ("r", "rarity")),
    "set_name": (CATEGORY, ("set",)),
    "keywords": (LIST, ("k", "kw", "keyword", "keywords")),
    "symbols": (LIST, ("sym", "symbol", "symbols")),
    "requirements": (REQUIREMENT, ("req", "requirement", "requirements")),
    "cost": (NUMBER, ("cost",)),
    "power": (NUMBER, ("pow", "power")),
    "health": (NUMBER, ("hp", "health")),
}


def fold_field(name: str) -> str:
    """Field names compare like import headers: case, spaces, ``_ - .`` ignored."""
    return re.sub(r"[\s_\-.]", "", name).casefold()


FIELDS: dict[str, FieldSpec] = {}
for _column, (_kind, _aliases) in _FIELD_KINDS.items():
    for _alias in (*_aliases, *FIELD_ALIASES.get(_column, ())):
        FIELDS.setdefault(fold_field(_alias), FieldSpec(_kind, f"cards.{_column}"))

RARITY_CODES = {name.casefold(): code for code, name in RARITY_NAMES.items()}
_NUMERIC = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")
_WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_QUERY_NUMBER = 10**9
"""Largest magnitude of a number in a query (no card comes near it; SQLite's integers end at
2**63 - 1)."""
_COMPARE = {":": "=", "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _regexp(pattern: str, value: object) -> bool:
    return value is not None and _compiled(pattern).search(str(value)) is not None


def register_functions(conn: sqlite3.Connection) -> None:
    """Give a connection the REGEXP operator that ``/regex/`` terms compile to."""
    conn.create_function("regexp", 2, _regexp, deterministic=True)


def _like(value: str) -> str:
    """A LIKE pattern matching ``value`` anywhere, its own % and _ taken literally."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", value) + "%"


class Compiler:
    def __init__(
        self, query: str, extra_columns: Iterable[str], real: Mapping[str, str] | None = None
    ) -> None:
        self.query = query
        self.extra = {fold_field(column): column for column in extra_columns}
        self.real = dict(real or {})
        """Header name -> column of ``cards`` for the stored game's own columns."""
        self.extra.update({fold_field(column): column for column in self.real})
        self.params: list[object] = []

    def error(self, message: str, position: int, length: int = 1) -> QueryError:
        return QueryError(message, self.query, position, length)

    def param(self, value: object) -> str:
        self.params.append(value)
        return "?"

    def node(self, node: Node) -> str:
        if isinstance(node, And):
            # Bare words side by side become one full-text lookup, as one would write by hand.
            words = [child for child in node.children if isinstance(child, Text)]
            parts = [self.text(*words)] if words else []
            parts += [self.node(child) for child in node.children if not isinstance(child, Text)]
            return "(" + " AND ".join(parts) + ")"
        if isinstance(node, Or):
            return "(" + " OR ".join(self.node(child) for child in node.children) + ")"
        if isinstance(node, Not):
            # coalesce: a card without a value (NULL cost) is "not cost=2" too.
            return f"NOT coalesce({self.node(node.child)}, 0)"
        if isinstance(node, Text):
            return self.text(node)
        if isinstance(node, Regex):
            self.check_regex(node)
            return (
                f"(cards.name REGEXP {self.param(node.pattern)}"
                f" OR cards.text REGEXP {self.param(node.pattern)})"
            )
        return self.field(node)

    def text(self, *nodes: Text) -> str:
        """One FTS5 lookup for words (prefixes) and phrases that must all occur."""
        terms = []
        for node in nodes:
            if not any(char.isalnum() for char in node.value):
                what = "phrase" if node.phrase else "word"
                raise self.error(
                    f"nothing to search for in this {what}", node.pos, len(node.value) or 1
                )
            quoted = '"' + node.value.replace('"', '""') + '"'
            terms.append(quoted if node.phrase else quoted + "*")
        match = self.param(" ".join(terms))
        return f"cards.rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH {match})"

    def check_regex(self, regex: Regex) -> None:
        try:
            _compiled(regex.pattern)
        except re.error as error:
            offset = 1 + (error.pos or 0)
            raise self.error(f"bad regular expression: {error.msg}", regex.pos + offset) from None

    def field(self, node: Field) -> str:
        own = self.extra.get(fold_field(node.name)) in self.real
        spec = None if own else FIELDS.get(fold_field(node.name))
        if spec is None and fold_field(node.name) in self.extra:
            spec = FieldSpec(EXTRA, self.extra[fold_field(node.name)])
        if spec is None:
            names = sorted(self.field_names())
            from rapidfuzz import fuzz, process  # only for mistakes: a search need not load it

            close = process.extractOne(
                node.name, names, scorer=fuzz.ratio, processor=str.casefold, score_cutoff=75
            )
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise self.error(
                f"unknown field {node.name!r} ({hint}fields: {', '.join(names)})",
                node.pos,
                len(node.name),
            )
        if isinstance(node.value, Regex):
            return self.regex_field(spec, node)
        if not node.value:
            raise self.error("empty value", node.value_pos)
        compile_kind: Callable[[FieldSpec, Field], str] = getattr(self, f"compile_{spec.kind}")
        return compile_kind(spec, node)

    def field_names(self) -> list[str]:
        short = [alias for _, aliases in _FIELD_KINDS.values() for alias in aliases]
        return short + list(self.extra.values())

    def regex_field(self, spec: FieldSpec, node: Field) -> str:
        assert isinstance(node.value, Regex)
        self.require(node, ":", "=")
        self.check_regex(node.value)
        pattern = node.value.pattern
        if spec.kind == EXTRA:
            return self.extra_value(spec, lambda v: f"{v} REGEXP {self.param(pattern)}")
        if spec.kind in (LIST, REQUIREMENT):
            part = "value" if spec.kind == LIST else "key"
            return (
                f"EXISTS (SELECT 1 FROM json_each({spec.column})"
                f" WHERE {part} REGEXP {self.param(pattern)})"
            )
        if spec.column == "cards.name":
            return self.name_regex(pattern)
        return f"{spec.column} REGEXP {self.param(pattern)}"

    def name_regex(self, pattern: str) -> str:
        """``name:/^text.../``: the names starting with the text, as ranges of the name index
        (:mod:`zcards.query.prefix`), then the regex on those unless the ranges say it all."""
        prefix, whole = literal_prefix(pattern)
        ranges, complete = like_ranges(prefix)
        likes = " OR ".join(f"cards.name LIKE {self.param(like)} ESCAPE '\\'" for like in ranges)
        if whole and complete:
            return f"({likes})"
        test = f"cards.name REGEXP {self.param(pattern)}"
        return f"(({likes}) AND {test})" if likes else test

    def extra_value(self, spec: FieldSpec, predicate: Callable[[str], str]) -> str:
        """A test on another game's value: on its own column of ``cards`` when the stored game
        gives it one (indexed), else on the ``extra`` value of that header name
        (``predicate`` is given the value's SQL expression)."""
        column = self.real.get(spec.column)
        if column is not None:
            return predicate(f'cards."{column}"')
        return (
            f"EXISTS (SELECT 1 FROM json_each(cards.extra) AS je"
            f" WHERE je.key = {self.param(spec.column)} AND {predicate('je.value')})"
        )

    def require(self, node: Field, *allowed: str) -> None:
        if node.op not in allowed:
            raise self.error(
                f"operator {node.op!r} does not apply to {node.name!r}"
                f" (use {' or '.join(allowed)})",
                node.op_pos,
                len(node.op),
            )

    def compile_text(self, spec: FieldSpec, node: Field) -> str:
        assert isinstance(node.value, str)  # field() compiled /regex/ values
        self.require(node, ":", "=", "!=")
        if node.op == ":":
            return f"{spec.column} LIKE {self.param(_like(node.value))} ESCAPE '\\'"
        return f"{spec.column} {_COMPARE[node.op]} {self.param(node.value)} COLLATE NOCASE"

    def compile_category(self, spec: FieldSpec, node: Field) -> str:
        assert isinstance(node.value, str)  # field() compiled /regex/ values
        self.require(node, ":", "=", "!=")
        value = node.value
        if spec.column == "cards.rarity":
            value = RARITY_CODES.get(value.casefold(), value)
        return f"{spec.column} {_COMPARE[node.op]} {self.param(value)} COLLATE NOCASE"

    def compile_list(self, spec: FieldSpec, node: Field) -> str:
        """Has (``:``/``=``) or lacks (``!=``) an item; a requirement matches on its keyword."""
        assert isinstance(node.value, str)  # field() compiled /regex/ values
        self.require(node, ":", "=", "!=")
        part = "key" if spec.kind == REQUIREMENT else "value"
        # The LIKE on the JSON text is a fast pre-filter; json_each makes the match exact.
        sql = (
            f"({spec.column} LIKE {self.param(_like(node.value))} ESCAPE '\\' AND EXISTS"
            f" (SELECT 1 FROM json_each({spec.column})"
            f" WHERE {part} = {self.param(node.value)} COLLATE NOCASE))"
        )
        return f"NOT {sql}" if node.op == "!=" else sql

    compile_requirement = compile_list

    def compile_number(self, spec: FieldSpec, node: Field) -> str:
        assert isinstance(node.value, str)
        if not _WHOLE.fullmatch(node.value):
            raise self.error(
                f"{node.name!r} needs a whole number, not {node.value!r}",
                node.value_pos,
                len(node.value),
            )
        number = self.bounded(node, int(node.value))
        return f"{spec.column} {_COMPARE[node.op]} {self.param(number)}"

    def bounded(self, node: Field, number: float) -> float:
        """``number`` when it is within :data:`MAX_QUERY_NUMBER`, else a caret error."""
        if abs(number) > MAX_QUERY_NUMBER:
            raise self.error(
                f"{node.value!r} is out of range (numbers go from -{MAX_QUERY_NUMBER:,} to "
                f"{MAX_QUERY_NUMBER:,})",
                node.value_pos,
                len(str(node.value)),
            )
        return number

    def compile_extra(self, spec: FieldSpec, node: Field) -> str:
        assert isinstance(node.value, str)  # field() compiled /regex/ values
        value, compare = node.value, _COMPARE[node.op]
        if node.op == ":":
            return self.extra_value(
                spec, lambda v: f"{v} LIKE {self.param(_like(value))} ESCAPE '\\'"
            )
        if node.op in ("=", "!=") and not _NUMERIC.fullmatch(value):
            return self.extra_value(
                spec, lambda v: f"{v} {compare} {self.param(value)} COLLATE NOCASE"
            )
        if not _NUMERIC.fullmatch(value):
            raise self.error(
                f"{node.op!r} compares numbers; {node.value!r} is not one",
                node.value_pos,
                len(node.value),
            )
        number = self.bounded(node, float(value))
        # Only values that are numbers take part in a numeric comparison.
        return self.extra_value(
            spec,
            lambda v: (
                f"trim({v}) GLOB '*[0-9]*' AND trim({v}) NOT GLOB '*[^0-9.+-]*'"
                f" AND CAST({v} AS REAL) {compare} {self.param(number)}"
            ),
        )

    def compile(self, tree: Node) -> tuple[str, list[object]]:
        return self.node(tree), self.params


def fields_of(node: Node) -> Iterable[Field]:
    if isinstance(node, Field):
        yield node
    elif isinstance(node, Not):
        yield from fields_of(node.child)
    elif isinstance(node, (And, Or)):
        for child in node.children:
            yield from fields_of(child)


def compile_query(text: str, *, extra_columns: Iterable[str] = ()) -> tuple[str, list[object]]:
    """``(where_sql, params)`` for ``text``; ``extra_columns`` are the other games' columns
    a query may name (see :func:`extra_columns`). Needs :func:`register_functions` for regexes.
    """
    return Compiler(text, extra_columns).compile(parse_query(text))


EXTRA_COLUMNS_SQL = (
    "SELECT DISTINCT je.key FROM cards, json_each(cards.extra) AS je"
    " WHERE cards.extra NOT IN ('', '{}') ORDER BY je.key"
)
"""The header names in ``extra``, read through ``idx_cards_extra`` (whose WHERE this repeats):
only the cards that have such columns, none in a Zombie database."""


def extra_columns(db: sqlite3.Connection | sqlite_utils.Database) -> list[str]:
    """Header names of every non-Zombie column stored in ``extra`` (searchable by name)."""
    return [key for (key,) in db.execute(EXTRA_COLUMNS_SQL)]
