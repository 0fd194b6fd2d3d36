"""``zcards db``: the card database itself, for other tools (Datasette)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from zcards.cli.common import db_option


@click.group("db")
def db_group() -> None:
    """The card database, for other tools: Datasette's metadata.json."""


@db_group.command("metadata")
@db_option
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write it to this file (replaced atomically; default: standard output).",
)
def metadata_command(db_path: Path | None, out_file: Path | None) -> None:
    """Datasette's metadata.json for the database: column descriptions, zcards' own tables
    hidden, facets on the game's columns, canned queries (cards by set, cards in a deck list).

    \b
    zcards db metadata --db lorcana.db --out metadata.json
    datasette lorcana.db --metadata metadata.json
    """
    from lackey_plugin.files import atomic_write
    from zcards.store.datasette import datasette_metadata
    from zcards.store.db import find_db, open_connection

    conn = open_connection(db_path)
    found = find_db(db_path)
    text = json.dumps(datasette_metadata(conn, found.stem if found else "cards"), indent=2)
    if out_file is None:
        click.echo(text)
    else:
        atomic_write(out_file, (text + "\n").encode("utf-8"))
        click.echo(f"{out_file}: Datasette metadata of {found or 'the bundled set'}")


COMMANDS = [db_group]
