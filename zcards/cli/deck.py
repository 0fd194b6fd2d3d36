"""``zcards deck check`` and ``zcards deck convert``: deck lists against the card database."""

from __future__ import annotations

from pathlib import Path

import click

from lackey_plugin.dek import Deck, read_deck
from zcards.cli.common import FormatChoice, db_option, format_option, note_missing_bundled
from zcards.cli.output import emit_json
from zcards.cli.query import echo_stats
from zcards.errors import ProblemsFound
from zcards.query.decks import (
    ResolvedDeck,
    composition,
    convert_deck,
    resolve_deck,
    write_atomic,
)
from zcards.store.db import open_db

DECK_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.group("deck")
def deck_group() -> None:
    """Deck lists: plain text ('3 Gross Ghoul', '3<TAB>Gross Ghoul', '# Section') or Lackey .dek."""


@deck_group.command("check")
@click.argument("file", type=DECK_FILE)
@db_option
@format_option(("text", "json"), default="text")
@click.option(
    "--stats",
    "show_stats",
    is_flag=True,
    help="Also show the deck's composition: counts by type, faction, rarity, keyword, symbol "
    "and cost.",
)
def check_command(file: Path, db_path: Path | None, output_format: str, show_stats: bool) -> None:
    """Resolve every card name of FILE: the verdict first ("legal: 40 cards" or "2 problems"),
    then each problem.

    Unknown names are listed with suggestions and make the command exit 1. --format json
    always holds the composition.
    """
    deck = read_deck(file)
    _warn_decoding(deck)
    db = open_db(db_path)
    resolved = resolve_deck(deck, db)
    stats, sections = composition(resolved)
    if output_format == "json":
        unknown = [
            {"name": u.entry.name, "line": u.entry.line, "suggestions": list(u.suggestions)}
            for u in resolved.unknown
        ]
        emit_json({"deck": str(file), "sections": sections, "unknown": unknown} | stats.to_json())
    else:
        sizes = ", ".join(f"{section}: {count}" for section, count in sections.items())
        click.echo(f"{_verdict(resolved)} ({sizes})" if sizes else _verdict(resolved))
    for unknown_card in resolved.unknown:
        click.echo(unknown_card.explain(file), err=True)
    if output_format != "json" and show_stats:
        echo_stats(stats)
    note_missing_bundled(db.conn, db_path)
    if resolved.unknown:
        raise ProblemsFound(f"{len(resolved.unknown)} unknown card name(s) in {file}")


def _verdict(resolved: ResolvedDeck) -> str:
    problems = len(resolved.unknown)
    if not problems:
        return f"legal: {resolved.total} cards"
    return f"{problems} problem{'s' if problems > 1 else ''}: {resolved.total} cards known"


@deck_group.command("convert")
@click.argument("file", type=DECK_FILE)
@click.option(
    "--to", "to", type=FormatChoice(["dek", "text", "json"]), required=True, help="Output format."
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write here instead of standard output.",
)
@db_option
def convert_command(file: Path, to: str, out: Path | None, db_path: Path | None) -> None:
    """Convert the deck FILE to a Lackey .dek, a text list or JSON.

    A text list names cards only, so --to dek/json looks them up in the card database; a .dek
    already carries sets and image names and needs no database.
    """
    deck = read_deck(file)
    _warn_decoding(deck)
    db = None if deck.pinned or to == "text" else open_db(db_path)
    text = convert_deck(deck, to, db)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out, text)


def _warn_decoding(deck: Deck) -> None:
    """What reading the file had to guess (Windows-1252 lines), on stderr."""
    for note in deck.notes:
        click.echo(f"{deck.source}, line {note.line}: warning: {note.message}", err=True)


COMMANDS = [deck_group]
