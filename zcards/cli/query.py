"""``zcards search``, ``zcards card`` and ``zcards stats``: asking the card database."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from zcards.cli.common import db_option, emit_json, emit_rows, format_option
from zcards.db import open_db
from zcards.errors import Finding
from zcards.model import Card
from zcards.query import count_matches, search, unknown_values

if TYPE_CHECKING:
    from zcards.stats import Stats

TABLE_COLUMNS = (
    "name", "set_name", "type", "faction", "cost", "power", "health", "keywords", "rarity",
)  # fmt: skip


def card_row(card: Card, flat: bool = False) -> dict[str, Any]:
    """A card as an output row; ``flat`` spreads other games' columns out (for CSV/TSV)."""
    row = dataclasses.asdict(card)
    if flat:
        row.update(row.pop("extra"))
    return row


def emit_cards(cards: list[Card], output_format: str) -> None:
    if output_format in ("csv", "tsv"):
        rows = [card_row(card, flat=True) for card in cards]
        columns = list(dict.fromkeys(key for row in rows for key in row))
        emit_rows(rows, columns or TABLE_COLUMNS, output_format)
    else:
        emit_rows([card_row(card) for card in cards], TABLE_COLUMNS, output_format)


# A query may start with '-' (-k:fast): unknown "options" are taken as the query itself.
QUERY_SETTINGS = {"ignore_unknown_options": True}


def _query_argument(ctx: click.Context, _param: click.Parameter, value: str | None) -> str | None:
    """'-' negates a term, but '--word' is a mistyped option, not a query (exit 2)."""
    if value and value.startswith("--"):
        raise click.NoSuchOption(value.split("=")[0], ctx=ctx)
    return value


@click.command("search", context_settings=QUERY_SETTINGS)
@click.argument("query", callback=_query_argument)
@db_option
@format_option()
@click.option("--sort", help="Field to sort by (default name); '-cost' sorts descending.")
@click.option("--limit", type=click.IntRange(min=1), help="Show at most N cards.")
@click.option("--count", "count_only", is_flag=True, help="Print only the number of matches.")
def search_command(
    query: str,
    db_path: Path | None,
    output_format: str,
    sort: str | None,
    limit: int | None,
    count_only: bool,
) -> None:
    """Find cards matching QUERY (quote it for the shell).

    \b
    Bare words and "quoted phrases" search name and text. Fields:
      name:  o:/text:  t:/type:  f:/faction:  r:/rarity:  set:  k:/kw: (keyword)
      sym: (symbol)  req: (requirement keyword)  and any other game's column by its name
    Numbers: cost, pow/power, hp/health with = != < <= > >= (cost<=2).
    ':' means "contains" for text, "is" for the rest. /regex/ searches name and text;
    field:/regex/ one field. Combine with spaces (and), 'or', '-' (not) and parentheses:
      zcards search 'f:horde (k:fast or k:tough) -cost>2'
    """
    db = open_db(db_path)
    if count_only:
        click.echo(count_matches(db, query))
        return
    cards = search(db, query, sort=sort, limit=limit)
    emit_cards(cards, output_format)
    if not cards:
        for hint in unknown_values(db, query):
            click.echo(f"Note: {hint}", err=True)


@click.command("card")
@click.argument("name", nargs=-1, required=True)
@db_option
@format_option(("text", "json"), default="text")
def card_command(name: tuple[str, ...], db_path: Path | None, output_format: str) -> None:
    """Show the card called NAME: exact, any case or accents, a prefix, or a near spelling.

    When several cards fit, lists them ("did you mean") and exits 1 instead of guessing.
    """
    from zcards.lookup import EXACT, CardIndex

    wanted = " ".join(name)
    result = CardIndex(open_db(db_path)).lookup(wanted)
    if result.card is None:
        raise Finding(result.explain())
    if result.method != EXACT:
        click.echo(f"({result.method} match for {wanted!r})", err=True)
    if output_format == "json":
        emit_json(card_row(result.card))
        return
    fields = result.card.to_lackey_fields()
    width = max(len(key) for key in fields)
    for key, value in fields.items():
        if value:
            click.echo(f"{key.ljust(width)}  {value}")


@click.command("stats", context_settings=QUERY_SETTINGS)
@click.argument("query", required=False, callback=_query_argument)
@db_option
@format_option(("text", "json"), default="text")
def stats_command(query: str | None, db_path: Path | None, output_format: str) -> None:
    """Count cards by type, faction, rarity, keyword and symbol, and show the cost curve.

    With QUERY, count only the cards it matches (same language as 'zcards search').
    """
    from zcards.stats import database_stats

    stats = database_stats(open_db(db_path), query)
    if output_format == "json":
        emit_json(stats.to_json())
    else:
        echo_stats(stats)


def echo_stats(stats: Stats) -> None:
    """Human-readable stats: the total, then one small table per category that has values."""
    from zcards.stats import CATEGORIES

    click.echo(f"cards: {stats.total}")
    for category in CATEGORIES:
        rows = [{category: value, "cards": count} for value, count in stats.table(category)]
        if rows:
            click.echo()
            emit_rows(rows, (category, "cards"), "text")


COMMANDS = [search_command, card_command, stats_command]
