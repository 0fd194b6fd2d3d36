"""``zcards proxies``: printable proxy sheets (PDF or HTML) for a query, a deck, or every card."""

from __future__ import annotations

from pathlib import Path

import click

from zcards.cli.common import art_option, db_option, format_option, progress_counter
from zcards.cli.output import emit_json
from zcards.cli.query import QUERY_SETTINGS, query_words
from zcards.errors import UsageError
from zcards.publish.layout import CARD_SIZES, GUTTER_MM, MAX_GUTTER_MM, PAPERS
from zcards.publish.proxies import ProxyReport, select_cards, write_proxies
from zcards.store.db import open_db


@click.command("proxies", context_settings=QUERY_SETTINGS)
@click.argument("query", nargs=-1, callback=query_words)
@db_option
@click.option(
    "--deck",
    "deck_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Print this deck (text list or Lackey .dek), each card as often as listed.",
)
@click.option(
    "--copies",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Copies of every card (multiplies deck counts).",
)
@click.option("--paper", type=click.Choice(list(PAPERS)), default="letter", show_default=True)
@click.option(
    "--card-size",
    type=click.Choice(list(CARD_SIZES)),
    default="poker",
    show_default=True,
    help="poker 63x88 mm, bridge 57x89 mm, mini 41x63 mm.",
)
@click.option(
    "--bleed",
    "bleed_mm",
    type=click.FloatRange(0, 10),
    default=0.0,
    show_default=True,
    help="Millimetres of each card's background printed past its cut lines (3 is usual).",
)
@click.option(
    "--gutter",
    "gutter_mm",
    type=click.FloatRange(0, MAX_GUTTER_MM),
    default=GUTTER_MM,
    show_default=True,
    help="Millimetres of blank paper between neighbouring cards (beyond their bleed).",
)
@click.option(
    "--backs",
    is_flag=True,
    help="Add a back page after each front page, mirrored for long-edge duplex.",
)
@art_option
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("proxies.pdf"),
    show_default=True,
    help="FILE.pdf or FILE.html.",
)
@format_option(("text", "json"), default="text")
def proxies_command(
    query: str | None,
    db_path: Path | None,
    deck_path: Path | None,
    copies: int,
    paper: str,
    card_size: str,
    bleed_mm: float,
    gutter_mm: float,
    backs: bool,
    art_dir: Path | None,
    out_path: Path,
    output_format: str,
) -> None:
    """Write proxy sheets for the cards matching QUERY and/or in --deck (default: every card).

    \b
    Cards keep their exact size: print at 100% / actual size, never "fit to page".
    Cut marks in the margins continue the cut lines of the cards printed; with --backs print
    double-sided, flipping on the long edge.
      zcards proxies 'f:rage' --out rage.pdf
      zcards proxies --deck decks/horde.txt --backs --paper a4 --bleed 3 --art art/
    """
    cards = select_cards(open_db(db_path), query, deck_path)
    if not cards:
        raise UsageError("no cards match: nothing to print")
    with progress_counter("Rendering proxies", len(cards) * copies) as advance:
        report = write_proxies(
            cards,
            out_path,
            paper=paper,
            card_size=card_size,
            bleed_mm=bleed_mm,
            gutter_mm=gutter_mm,
            copies=copies,
            backs=backs,
            art_dir=art_dir,
            progress=advance,
        )
    _emit(report, output_format)


def _emit(report: ProxyReport, output_format: str) -> None:
    if output_format == "json":
        emit_json(
            {
                "path": str(report.path),
                "pages": report.pages,
                "cards": report.cards,
                "per_page": report.per_page,
                "overflow": report.overflow,
                "art_problems": report.art_problems,
                "rendered": report.rendered,
                "reused": report.reused,
            }
        )
        return
    for problem in report.art_problems:
        click.echo(f"Warning: {problem}", err=True)
    for name in report.overflow:
        click.echo(f"Warning: the text of {name!r} does not fit on the card, even shrunk", err=True)
    click.echo(
        f"Wrote {report.path}: {report.pages} pages, {report.cards} cards "
        f"({report.per_page} per page). Print at 100% / actual size."
    )


COMMANDS = [proxies_command]
