"""``zcards search``, ``zcards card`` and ``zcards stats``: asking the card database."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from zcards.cards.model import CARD_FIELDS, Card
from zcards.cli.common import JSON_FORMATS, db_option, format_option, note_missing_bundled
from zcards.cli.output import (
    emit_delimited,
    emit_encoded,
    emit_json,
    emit_rows,
    emit_table,
)
from zcards.cli.search_table import TableColumn, table_cells, table_columns
from zcards.errors import ProblemsFound
from zcards.query.search import count_matches, extra_columns, search_rows, unknown_values
from zcards.store.db import open_connection, open_db
from zcards.store.game_columns import stored_game
from zcards.store.rows import CSV_COLUMNS, CardRow

if TYPE_CHECKING:
    from zcards.query.stats import Stats


def card_row(card: Card) -> dict[str, Any]:
    """A card as an output row (``zcards card --format json``), like a search result's."""
    return {name: getattr(card, name) for name in CARD_FIELDS} | {
        "keywords": list(card.keywords),
        "requirements": dict(card.requirements),
        "symbols": list(card.symbols),
        "extra": dict(card.extra),
    }


def emit_cards(
    rows: Iterable[CardRow],
    output_format: str,
    extra: Sequence[str],
    columns: Sequence[TableColumn],
) -> bool:
    """Write search results as they are read; whether there were any. CSV and TSV spread
    ``extra`` (other games' columns, see :func:`~zcards.query.search.extra_columns`) out;
    the text table shows ``columns``."""
    rows = iter(rows)
    first = next(rows, None)
    if first is not None:
        rows = itertools.chain([first], rows)
    if output_format in JSON_FORMATS:
        emit_encoded(map(CardRow.to_json, rows), output_format)
    elif output_format in ("csv", "tsv"):
        cells = map(CardRow.cells, rows) if not extra else (r.spread_cells(extra) for r in rows)
        emit_delimited(cells, [*CSV_COLUMNS, *extra], output_format)
    else:
        cells = (table_cells(row, columns) for row in rows)
        emit_table(cells, [column.heading for column in columns])
    return first is not None


# A query may start with '-' (-k:fast): unknown "options" are taken as the query itself.
QUERY_SETTINGS = {"ignore_unknown_options": True}


def query_words(ctx: click.Context, _param: click.Parameter, words: tuple[str, ...]) -> str | None:
    """The query's words as one query (``zcards search t:zombie pow>=3`` needs no quotes).
    '-' negates a term, but '--word' is a mistyped option, not a query (exit 2, with the
    command's nearest option)."""
    for word in words:
        if word.startswith("--"):
            options = [o for param in ctx.command.params for o in param.opts if o[:2] == "--"]
            raise click.NoSuchOption(word.split("=")[0], possibilities=options, ctx=ctx)
    return " ".join(words) or None


@click.command("search", context_settings=QUERY_SETTINGS)
@click.argument("query", nargs=-1, required=True, callback=query_words)
@db_option
@format_option()
@click.option(
    "--sort", help="Field to sort by (default name); '-cost' sorts descending. Same as order:."
)
@click.option("--limit", type=click.IntRange(min=1), help="Show at most N cards.")
@click.option(
    "--offset", type=click.IntRange(min=0), default=0, help="Skip the first N cards (paging)."
)
@click.option("--count", "count_only", is_flag=True, help="Print only the number of matches.")
@click.option(
    "--columns",
    "chosen_columns",
    help="The table's columns, comma-separated (fields or the game's columns; default: the "
    "game's columns and the text).",
)
def search_command(
    query: str,
    db_path: Path | None,
    output_format: str,
    sort: str | None,
    limit: int | None,
    offset: int,
    count_only: bool,
    chosen_columns: str | None,
) -> None:
    """Find cards matching QUERY (its words are one query; quote what the shell would read).

    \b
    Bare words and "quoted phrases" search name and text. Fields:
      name:  o:/text:  t:/type:  f:/faction:  r:/rarity:  set:  k:/kw: (keyword)
      sym: (symbol)  req: (requirement keyword)  and any other game's column by its name
    Numbers: cost, pow/power, hp/health with = != < <= > >= (cost<=2).
    ':' means "contains" for text, "is" for the rest. /regex/ searches name and text;
    field:/regex/ one field; name:/^Gross Gh/ (plain text after ^) reads the name index.
    Combine with spaces (and), 'or', '-' (not) and parentheses:
      zcards search 'f:horde (k:fast or k:tough) -cost>2'
    order:FIELD (order:-FIELD descending) sorts, like --sort: 'f:rage order:-pow'.
    Results are written as they are read (json: an array, one card per line).
    """
    db = open_connection(db_path)  # a search needs no sqlite-utils
    if count_only:
        click.echo(count_matches(db, query))
    else:
        text = output_format == "text"
        columns = table_columns(stored_game(db), chosen_columns) if text else []
        rows = search_rows(db, query, sort=sort, limit=limit, offset=offset)
        extra = extra_columns(db) if output_format in ("csv", "tsv") else []
        if not emit_cards(rows, output_format, extra, columns) and not offset:
            for hint in unknown_values(db, query):
                click.echo(f"Note: {hint}", err=True)
    note_missing_bundled(db, db_path)


@click.command("card")
@click.argument("name", nargs=-1, required=True)
@db_option
@format_option(("text", "json"), default="text")
def card_command(name: tuple[str, ...], db_path: Path | None, output_format: str) -> None:
    """Show the card called NAME: exact, any case or accents, a prefix, or a near spelling.

    When several cards fit, lists them ("did you mean") and exits 1 instead of guessing.
    """
    wanted = " ".join(name)
    from zcards.query.game_fields import game_fields
    from zcards.query.lookup import EXACT, CardLookup
    from zcards.store.printings import printings

    db = open_db(db_path)
    result = CardLookup(db).lookup(wanted)
    note_missing_bundled(db.conn, db_path)
    if result.card is None:
        raise ProblemsFound(result.explain())
    if result.method != EXACT:
        click.echo(f"({result.method} match for {wanted!r})", err=True)
    fields = game_fields(result.card, stored_game(db.conn))
    found = printings(db.conn, result.card.name)
    if output_format == "json":
        listed = [vars(printing) for printing in found]
        emit_json({**card_row(result.card), "columns": fields, "printings": listed})
        return
    width = max(len(key) for key in [*fields, "Printings"])
    for key, value in fields.items():
        if value:
            click.echo(f"{key.ljust(width)}  {value}")
    if len(found) > 1:
        click.echo(f"{'Printings'.ljust(width)}  " + "; ".join(p.describe() for p in found))


@click.command("stats", context_settings=QUERY_SETTINGS)
@click.argument("query", nargs=-1, callback=query_words)
@db_option
@format_option(("text", "json"), default="text")
def stats_command(query: str | None, db_path: Path | None, output_format: str) -> None:
    """Count cards by type, faction, rarity, keyword and symbol, and show the cost curve.

    With QUERY, count only the cards it matches (same language as 'zcards search').
    """
    from zcards.query.stats import database_stats

    db = open_db(db_path)
    stats = database_stats(db, query)
    if output_format == "json":
        emit_json(stats.to_json())
    else:
        echo_stats(stats)
    note_missing_bundled(db.conn, db_path)


def echo_stats(stats: Stats) -> None:
    """Human-readable stats: the total, then one small table per category that has values."""
    from zcards.query.stats import CATEGORIES

    click.echo(f"cards: {stats.total}")
    for category in CATEGORIES:
        rows = [{category: value, "cards": count} for value, count in stats.table(category)]
        if rows:
            click.echo()
            emit_rows(rows, (category, "cards"), "text")


COMMANDS = [search_command, card_command, stats_command]
