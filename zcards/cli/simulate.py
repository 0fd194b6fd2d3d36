"""``zcards simulate``: play seeded games between two decks, write their logs, report balance."""

from __future__ import annotations

from pathlib import Path

import click

from zcards.cli.common import db_option, format_option, progress
from zcards.cli.output import emit_json
from zcards.cli.sim_options import decks_option, games_option, max_turns_option, seed_option
from zcards.errors import UsageError
from zcards.sim.batch import iter_games, write_logs
from zcards.sim.decklists import load_decks
from zcards.sim.report import format_report, summarise_games
from zcards.sim.search import STRATEGIES
from zcards.sim.styles import MIXED, STYLE_NAMES


@click.command("simulate")
@games_option("How many games to play.")
@seed_option("Seed of the batch: the same seed plays the same games.")
@decks_option("A deck file (text list or .dek); give it twice. Default: two starter decks.")
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(list(STRATEGIES)),
    help="Player strategy, once for both players or once per deck (default greedy): "
    "'random' takes any legal choice, 'greedy' the strongest one.",
)
@max_turns_option("Stop a game at this turn and report it as a turn cap.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write one Lackey log per game (game-0001.txt …) here.",
)
@click.option(
    "--timestamps/--no-timestamps",
    default=False,
    help="Start each log line with a [H:MM:SS] stamp.",
)
@click.option(
    "--style",
    type=click.Choice(STYLE_NAMES),
    default="protocol",
    show_default=True,
    help="How the logs are recorded: the strict protocol, one way real players record games"
    f" (see docs/log-protocol.md), or {MIXED!r}: every choice at random per game.",
)
@db_option
@format_option(("text", "json"), default="text")
def simulate_command(
    games: int,
    seed: int,
    decks: tuple[Path, ...],
    strategies: tuple[str, ...],
    max_turns: int,
    out_dir: Path | None,
    timestamps: bool,
    style: str,
    db_path: Path | None,
    output_format: str,
) -> None:
    """Play seeded games of Zombie CCG between two decks and report how they went.

    \b
    The players play through the rules model: each choice is one the model offers as legal,
    and both use card text, as printed in the card data:
    - they bid, put out opening survivors, draw and discard, play a resource each turn,
      pay for survivors and items, upgrade zombies whose requirements they meet, move
      zombies to combat, pay upkeep and take starvation wounds;
    - items: they attach weapons and armour to a survivor, put up barricades, play one-shot
      items (heals, cures, food, extra draws) when they help;
    - abilities: Medic heals, Scavenger rolls (and the zombie players' penalty cards on a
      1), survivors' and zombies' own abilities, triggers of fights (a Kamikaze Corpse's
      extra wounds, an infection), deaths (an infected survivor taken over);
    - 'greedy' plays the strongest survivors and arms them, defends with the weakest
      survivor that still wins and sends its zombies where they hurt; 'random' picks any
      legal choice, to reach corners the greedy player avoids.

    Each deck plays each seat equally often. The report gives the average length, how games
    ended (no survivors, empty deck, turn cap) and win rates by deck and by turn order with
    95% confidence intervals.
    """
    if len(strategies) > 2:
        raise UsageError("give --strategy at most twice")
    pair = (strategies * 2)[:2] if strategies else ("greedy", "greedy")
    deck_lists = load_decks(decks, db_path)
    with progress(
        iter_games(deck_lists, games, seed, strategies=pair, max_turns=max_turns),
        "Simulating",
        length=games,
    ) as played:
        results = list(played)
    if out_dir is not None:
        write_logs(results, out_dir, timestamps=timestamps, style=style)
    report = summarise_games(results)
    if output_format == "json":
        logs = str(out_dir) if out_dir else None
        emit_json(report.to_json() | {"seed": seed, "logs": logs, "style": style})
    else:
        click.echo(format_report(report), nl=False)


COMMANDS = [simulate_command]
