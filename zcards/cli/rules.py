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
    """List, per card, each sentence of its text that no effect row reads in full.

    Rows are the bundled ones (zcards/game/effects.toml), those the grammar of common
    phrasings reads, and a designer's (--effects, or kept in the database by import). A row
    covers a sentence only when nothing of it is left: a sentence a row reads only a part of
    is listed as partly read. Such a sentence may do what it speaks of: the audit's findings
    it could touch are unverifiable, naming the card and the sentence. Exit code 1 when some
    card is not covered.
    """
    index = CardIndex(load_cards(db_path, card_file, effect_rows(effects_file)))
    missing = index.uncovered()
    if output_format == "json":
        emit_json(
            {
                "cards": len(index),
                "covered": len(index) - len(missing),
                "uncovered": [
                    {
                        "name": info.name,
                        "text": info.card.text,
                        "unread": list(info.text.uncovered),
                        "partly_read": [u.sentence for u in info.text.unread if u.partly],
                    }
                    for info in missing
                ],
            }
        )
    else:
        click.echo(f"{len(index)} cards, {len(index) - len(missing)} covered by the effect rows.")
        for info in missing:
            for unread in info.text.unread:
                how = "partly read" if unread.partly else "not read"
                click.echo(f"{info.name}: {how}: {unread.sentence}")
    if missing:
        sys.exit(EXIT_FINDING)


@rules_group.command("suggest")
@db_option
@card_file_option
@effects_option
def suggest_command(
    db_path: Path | None, card_file: Path | None, effects_file: Path | None
) -> None:
    """Propose effect rows (an effects file, on stdout) for the sentences no row reads that
    are common phrasings with a qualifier or in another order ("Once per turn, during your
    Recoup phase, you may spend X to add 1 food."). Each proposal says what its rows leave
    out: check it, then give the file with --effects (docs/effects.md).
    """
    from zcards.game.suggest import as_toml, propose

    index = CardIndex(load_cards(db_path, card_file, effect_rows(effects_file)))
    click.echo(as_toml(propose(index.uncovered())), nl=False)


COMMANDS = [rules_group]
