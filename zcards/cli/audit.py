"""``zcards audit``: every rule violation in a recorded game, with rule number and log line."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from zcards.cli.common import EXIT_FINDING, db_option, emit_json, format_option
from zcards.rules.load import audit_log, deck_sizes, load_cards


@click.command("audit")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False, path_type=Path))
@db_option
@click.option(
    "--cards",
    "card_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A Lackey card-data file with the Zombie columns, instead of a database.",
)
@click.option(
    "--deck",
    "decks",
    multiple=True,
    metavar="PLAYER=FILE",
    help="A player's deck list (text or .dek): makes losing by an empty deck "
    "checkable. Repeatable.",
)
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="A player's name, in turn order (repeatable); needed only when the log never seats him.",
)
@click.option(
    "--pov",
    default=None,
    metavar="NAME",
    help="Whose log this is (default: guessed from the cards it names).",
)
@format_option(("text", "json"), "text")
def audit_command(
    log_file: Path,
    db_path: Path | None,
    card_file: Path | None,
    decks: tuple[str, ...],
    players: tuple[str, ...],
    pov: str | None,
    output_format: str,
) -> None:
    """Audit LOG, a saved LackeyCCG game log, against the rules (docs/rules.md).

    Exit code 0 when no violation was found, 1 when some were, 2 when an input is unusable.
    The JSON output follows docs/audit-schema.json.
    """
    cards = load_cards(db_path, card_file)
    report = audit_log(log_file, cards, players=players, pov=pov, decks=deck_sizes(decks))
    if output_format == "json":
        emit_json(report.to_json())
    else:
        click.echo(report.to_text(), nl=False)
    if report.violations:
        sys.exit(EXIT_FINDING)


COMMANDS = [audit_command]
