"""Searching the card database: the search language (:mod:`zcards.query.parser`, compiled
by :mod:`zcards.query.compiler`), sort order, paging, and hints when nothing matches.

Results are :class:`~zcards.store.rows.CardRow` objects read as the cursor goes
(:func:`search_rows`); :func:`search` returns full :class:`~zcards.cards.model.Card` objects.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.query.compiler import (
    CATEGORY,
    FIELDS,
    LIST,
    NUMBER,
    RARITY_CODES,
    REQUIREMENT,
    TEXT,
    Compiler,
    compile_query,
    extra_columns,
    fields_of,
    fold_field,
    register_functions,
)
from zcards.query.parser import And, Field, Node, QueryError, parse_query
from zcards.store.db import connection
from zcards.store.game_columns import game_columns
from zcards.store.rows import SELECT_COLUMNS, CardRow

if TYPE_CHECKING:
    import sqlite_utils

__all__ = [
    "all_rows",
    "compile_query",
    "count_matches",
    "extra_columns",
    "register_functions",
    "search",
    "search_rows",
    "search_sql",
    "unknown_values",
]


ORDER_FIELD = "order"
"""``order:FIELD`` / ``order:-FIELD`` in a query sorts like ``--sort`` (not a filter)."""


class SortKey(NamedTuple):
    """One sort field: ``name`` as written, descending or not, and where it stands in the
    query (None for ``--sort``, whose mistakes are usage errors without a caret)."""

    name: str
    descending: bool
    node: Field | None = None

    @classmethod
    def parse(cls, text: str, node: Field | None = None) -> SortKey:
        descending = text.startswith("-")
        return cls(text[1:] if descending else text, descending, node)


def _split_order(query: str, tree: Node) -> tuple[Node | None, list[SortKey]]:
    """The filter part of ``tree`` and its ``order:`` terms (allowed only at the top level,
    as they order the whole result)."""
    children = tree.children if isinstance(tree, And) else (tree,)
    keys = [
        _sort_key(query, child)
        for child in children
        if isinstance(child, Field) and fold_field(child.name) == ORDER_FIELD
    ]
    rest = [child for child in children if not any(key.node is child for key in keys)]
    for field in fields_of(And(tuple(rest))):
        if fold_field(field.name) == ORDER_FIELD:
            raise QueryError(
                "order: sorts the whole result: put it outside parentheses, 'or' and '-'",
                query,
                field.pos,
                len(field.name),
            )
    filter_tree = None if not rest else rest[0] if len(rest) == 1 else And(tuple(rest))
    return filter_tree, keys


def _sort_key(query: str, node: Field) -> SortKey:
    if node.op not in (":", "=") or not isinstance(node.value, str) or not node.value.strip("-"):
        raise QueryError("write order:FIELD or order:-FIELD", query, node.pos, len(node.name))
    return SortKey.parse(node.value, node)


def _caret_length(node: Field) -> int:
    return len(node.value) if isinstance(node.value, str) else 1


class _Plan:
    """The SQL of one search: filter, order, page."""

    def __init__(
        self, db: sqlite3.Connection | sqlite_utils.Database, query: str | None, sort: str | None
    ) -> None:
        self.query = query or ""
        tree = parse_query(query) if query else None
        self.filter, keys = _split_order(self.query, tree) if tree else (None, [])
        if sort and keys:
            raise UsageError("give the sort order once: --sort or order: in the query")
        self.keys = [SortKey.parse(sort)] if sort else keys
        named = [field.name for field in fields_of(self.filter)] if self.filter else []
        named += [key.name for key in self.keys]
        needs_extra = any(fold_field(name) not in FIELDS for name in named)
        self.extra = extra_columns(db) if needs_extra else []
        self.real = game_columns(connection(db))  # a game's own names win over aliases
        register_functions(connection(db))

    def where(self) -> tuple[str, list[object]]:
        if self.filter is None:
            return "1", []
        return Compiler(self.query, self.extra, self.real).compile(self.filter)

    def order(self) -> tuple[str, list[object]]:
        """ORDER BY the sort keys, cards without a value last, then by name and set.

        Every term is an expression (``+cards.name``), never a bare indexed column: walking
        the name index to avoid a sort fetches every row of a big table one by one; sorting
        the matches is linear in what the filter (and its indexes) found.
        """
        terms: list[str] = []
        params: list[object] = []
        columns = {fold_field(column): column for column in [*self.extra, *self.real]}
        for key in self.keys:
            header = columns.get(fold_field(key.name))
            spec = None if header in self.real else FIELDS.get(fold_field(key.name))
            if spec is None and header in self.real:
                expression = f'cards."{self.real[header]}"'
            elif spec is None and header is not None:
                expression = "(SELECT value FROM json_each(cards.extra) WHERE key = ?)"
                params += [header] * 2
            elif spec is not None and spec.kind in (TEXT, CATEGORY, NUMBER):
                expression = f"+{spec.column}"
            else:
                why = "no such field" if spec is None else "it is a list, not a single value"
                message = f"cannot sort by {key.name!r}: {why}"
                if key.node is None:
                    raise UsageError(message)
                raise QueryError(message, self.query, key.node.value_pos, _caret_length(key.node))
            direction = "DESC" if key.descending else "ASC"
            terms.append(f"coalesce({expression}, '') = '', {expression} {direction}")
        return ", ".join([*terms, "+cards.name", "+cards.set_name"]), params


def search_sql(
    db: sqlite3.Connection | sqlite_utils.Database,
    query: str | None,
    *,
    sort: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> tuple[str, list[object]]:
    """``(sql, params)`` selecting the :class:`~zcards.store.rows.CardRow` columns of the cards
    matching ``query`` (every card when None), sorted by ``sort`` or the query's ``order:``
    terms (``-FIELD`` descending), then by name; ``limit`` and ``offset`` page the result."""
    plan = _Plan(db, query, sort)
    where, params = plan.where()
    order, order_params = plan.order()
    sql = f"SELECT {SELECT_COLUMNS} FROM cards WHERE {where} ORDER BY {order}"
    page: list[object] = []
    if limit is not None or offset:
        sql += " LIMIT ? OFFSET ?"
        page = [-1 if limit is None else int(limit), int(offset)]
    return sql, [*params, *order_params, *page]


def search_rows(
    db: sqlite3.Connection | sqlite_utils.Database,
    query: str | None,
    *,
    sort: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> Iterator[CardRow]:
    """The matching cards as rows, fetched as they are read (see :func:`search_sql`)."""
    sql, params = search_sql(db, query, sort=sort, limit=limit, offset=offset)
    return map(CardRow, connection(db).execute(sql, params))


def all_rows(db: sqlite3.Connection | sqlite_utils.Database) -> Iterator[CardRow]:
    """Every card as a row, in storage order (for counting: no sort at all)."""
    return map(CardRow, connection(db).execute(f"SELECT {SELECT_COLUMNS} FROM cards"))


def search(
    db: sqlite3.Connection | sqlite_utils.Database,
    query: str,
    *,
    sort: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[Card]:
    """The cards matching ``query`` as full cards (:func:`search_rows` reads less)."""
    return [row.card() for row in search_rows(db, query, sort=sort, limit=limit, offset=offset)]


def count_matches(db: sqlite3.Connection | sqlite_utils.Database, query: str) -> int:
    where, params = _Plan(db, query, None).where()
    return db.execute(f"SELECT count(*) FROM cards WHERE {where}", params).fetchone()[0]


_VOCABULARY_SQL = {
    CATEGORY: "SELECT DISTINCT {column} FROM cards WHERE {column} IS NOT NULL",
    LIST: "SELECT DISTINCT je.value FROM cards, json_each({column}) AS je",
    REQUIREMENT: "SELECT DISTINCT je.key FROM cards, json_each({column}) AS je",
}


def unknown_values(db: sqlite3.Connection | sqlite_utils.Database, query: str) -> list[str]:
    """Hints for values no card has (``k:fats``): why a query may have matched nothing.

    Categories, keywords, symbols and requirements are checked against the database's own
    values, so a typo gets a "did you mean" instead of a silent empty result.
    """
    hints = []
    for node in fields_of(parse_query(query)):
        spec = FIELDS.get(fold_field(node.name))
        if spec is None or spec.kind not in _VOCABULARY_SQL or not isinstance(node.value, str):
            continue
        if node.op not in (":", "=") or not node.value:
            continue
        sql = _VOCABULARY_SQL[spec.kind].format(column=spec.column)
        known = sorted({str(value) for (value,) in db.execute(sql) if value not in (None, "")})
        value = node.value
        if spec.column == "cards.rarity":
            value = RARITY_CODES.get(value.casefold(), value)
        if value.casefold() in {item.casefold() for item in known}:
            continue
        from rapidfuzz import fuzz, process  # only after an empty result

        close = process.extractOne(value, known, scorer=fuzz.ratio, processor=str.casefold)
        hint = f" (did you mean {close[0]!r}?)" if close and close[1] >= 60 else ""
        hints.append(f"no card has {node.name} {node.value!r}{hint}")
    return hints
