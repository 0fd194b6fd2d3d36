"""``zcards rules``: what the rules model makes of the card data."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from zcards.cli.common import (
    EXIT_FINDING,
    card_file_option,
    db_option,
    effect_rows,
    effects_option,
    format_option,
)
from zcards.cli.output import emit_json
from zcards.game.cards import CardIndex
from zcards.rules.load import load_cards


@click.group("rules")
def rules_group() -> None:
    """The rules model: which card texts its effect rows cover."""


@rules_group.command("coverage")
@db_option
@card_file_option
@effects_option
@format_option(("text", "json"), "text")
def coverage_command(
    db_path: Path | None, card_file: Path | None, effects_file: Path | None, output_format: str
) -> None:
    """List the cards whose text the effect rows (zcards/game/effects.toml) do not cover.

    Such a card is treated as able to do anything its text says: the audit's findings it could
    touch are unverifiable, naming it. Exit code 1 when some card is not covered.
    """
    index = CardIndex(load_cards(db_path, card_file, effect_rows(effects_file)))
    missing = index.uncovered()
    if output_format == "json":
        emit_json(
            {
                "cards": len(index),
                "covered": len(index) - len(missing),
                "uncovered": [
                    {"name": info.name, "text": info.card.text, "unread": list(info.text.uncovered)}
                    for info in missing
                ],
            }
        )
    else:
        click.echo(f"{len(index)} cards, {len(index) - len(missing)} covered by the effect rows.")
        for info in missing:
            click.echo(f"{info.name}: not covered: {' '.join(info.text.uncovered)}")
    if missing:
        sys.exit(EXIT_FINDING)


COMMANDS = [rules_group]
