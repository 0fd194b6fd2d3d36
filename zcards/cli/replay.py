"""``zcards replay``: a page to step through an audited game in a browser."""

from __future__ import annotations

from pathlib import Path

import click

from lackey_plugin.errors import LackeyError
from lackey_plugin.inputs import open_regular
from zcards.cli.common import effect_rows, game_inputs, out_option, progress_counter


@click.command("replay")
@click.argument("log_file", metavar="LOG", type=click.Path(dir_okay=False, path_type=Path))
@out_option(
    "The HTML file to write (one self-contained file: it opens from disk, offline).",
    required=True,
)
@click.option(
    "--plugin",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="A Lackey plugin folder (zcards plugin export) whose card images the page shows; "
    "without it, cards are shown as text.",
)
@game_inputs
def replay_command(
    log_file: Path,
    out: Path,
    plugin: Path | None,
    db_path: Path | None,
    card_file: Path | None,
    effects_file: Path | None,
    decks: tuple[str, ...],
    players: tuple[str, ...],
    pov: str | None,
) -> None:
    """Write a replay page of LOG: the log on one side, the board after the chosen line on
    the other.

    Above them, a timeline of the turns with the findings on it.

    The board, every player side by side: food, hands, decks, survivors with wounds, zombies
    ready or spent, discard piles. Step with the arrow keys, the slider or the timeline; n
    and p jump to the next and previous violation, unverifiable finding or unreadable line,
    shown on its line with its rule quoted and the cards it names highlighted. PAGE#L190
    opens at line 190. The page is written as the log is audited (memory stays flat).

    Exit code 0 when the page is written (whatever the audit found), 2 when an input is
    unusable.
    """
    from zcards.rules.load import deck_sizes, load_cards
    from zcards.rules.page import write_replay
    from zcards.rules.report import plural

    cards = load_cards(db_path, card_file, effect_rows(effects_file))
    sizes = deck_sizes(decks)
    with progress_counter("Replaying", _line_count(log_file)) as advance:
        report = write_replay(
            log_file,
            out,
            cards,
            plugin=plugin,
            players=players,
            pov=pov,
            decks=sizes,
            progress=advance,
        )
    click.echo(
        f"{out}: {plural(report.lines, 'line')}, {plural(len(report.violations), 'violation')}, "
        f"{plural(len(report.unverifiable), 'unverifiable finding')}",
        err=True,
    )


def _line_count(path: Path) -> int:
    """The bar's length: the file's lines (0 when it cannot be read: the audit says why)."""
    try:
        with open_regular(path, "log") as file:
            return sum(block.count(b"\n") for block in iter(lambda: file.read(1 << 16), b""))
    except LackeyError:  # a FIFO, a folder, no such file: never opened in a way that blocks
        return 0


COMMANDS = [replay_command]
