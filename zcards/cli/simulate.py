"""``zcards simulate``: play seeded games of two to four decks, write their logs, report balance."""

from __future__ import annotations

from pathlib import Path

import click

from zcards.cli.common import db_option, effect_rows, effects_option, format_option, progress
from zcards.cli.output import emit_json
from zcards.cli.sim_options import decks_option, games_option, max_turns_option, seed_option
from zcards.errors import UsageError
from zcards.game.effects import Row
from zcards.resources import starter_decks
from zcards.sim.batch import iter_games, write_log
from zcards.sim.decklists import load_decks, read_decks
from zcards.sim.game import MAX_PLAYERS, MIN_PLAYERS, DeckList
from zcards.sim.report import Summary, format_report, with_abilities
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
@click.option(
    "--players",
    type=click.IntRange(MIN_PLAYERS, MAX_PLAYERS),
    default=MIN_PLAYERS,
    show_default=True,
    help="Players per game: every zombie player attacks the active player, a player who"
    " lost leaves. Give --deck once per player (default: the starter decks in turn).",
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
@effects_option
@format_option(("text", "json"), default="text")
def simulate_command(
    games: int,
    seed: int,
    decks: tuple[Path, ...],
    strategies: tuple[str, ...],
    players: int,
    max_turns: int,
    out_dir: Path | None,
    timestamps: bool,
    style: str,
    db_path: Path | None,
    effects_file: Path | None,
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

    With --players 3 or 4, three or four decks play (every zombie player attacks the active
    player; a player who lost leaves). Each deck plays each seat equally often. The report
    gives the average length, how games ended (no survivors, empty deck, turn cap) and win
    rates by deck and by turn order with 95% confidence intervals.
    """
    if len(strategies) not in (0, 1, players):
        raise UsageError(f"give --strategy once, or once per player ({players})")
    chosen = (strategies * players)[:players] if strategies else ("greedy",) * players
    deck_lists = _decks(decks, players, db_path, effect_rows(effects_file))
    with progress(
        iter_games(deck_lists, games, seed, strategies=chosen, max_turns=max_turns),
        "Simulating",
        length=games,
    ) as played:
        summary = Summary(with_abilities(deck_lists))  # games stream through: memory stays flat
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
        for index, result in enumerate(played):
            summary.add(result)
            if out_dir is not None:
                write_log(result, index, out_dir, timestamps=timestamps, style=style)
    report = summary.report()
    if output_format == "json":
        logs = str(out_dir) if out_dir else None
        emit_json(report.to_json() | {"seed": seed, "logs": logs, "style": style})
    else:
        click.echo(format_report(report), nl=False)


def _decks(
    paths: tuple[Path, ...], players: int, db_path: Path | None, rows: tuple[Row, ...]
) -> list[DeckList]:
    """Two decks as ``load_decks`` reads them; for more players, one deck file per player
    (the starter decks in turn by default)."""
    if players == MIN_PLAYERS:
        return load_decks(paths, db_path, rows)
    if paths and len(paths) != players:
        raise UsageError(f"give --deck once per player ({players}), or not at all")
    starters = starter_decks()
    chosen = list(paths) or [starters[i % len(starters)] for i in range(players)]
    return read_decks(chosen, db_path, rows)


COMMANDS = [simulate_command]
