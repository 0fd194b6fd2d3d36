"""``zcards balance``: the balance lab's report (``simulate`` stays the writer of logs)."""

from __future__ import annotations

from pathlib import Path

import click

from lackey_plugin.files import atomic_write
from zcards.cli.common import (
    db_option,
    effect_rows,
    effects_option,
    format_option,
    progress_counter,
)
from zcards.cli.output import emit_json
from zcards.cli.sim_options import decks_option, games_option, max_turns_option, seed_option
from zcards.errors import UsageError
from zcards.resources import starter_decks
from zcards.sim.ablation import KINDS
from zcards.sim.balance_report import plan_balance
from zcards.sim.balance_text import format_balance
from zcards.sim.changes import other_cards, swap_cards
from zcards.sim.decklists import read_decks
from zcards.sim.search import STRATEGIES


@click.command("balance")
@decks_option("A deck file (text list or .dek); give two or more. Default: every starter deck.")
@games_option("Games per pair of decks, seat order and setup.")
@click.option(
    "--change",
    "changes",
    multiple=True,
    metavar="'CARD.FIELD=VALUE'",
    help="A card change to try, as 'Gross Ghoul.power=3' (fields: cost, power, health,"
    " keywords, symbols, requirements, text, faction, type); repeat it for several.",
)
@click.option(
    "--against",
    "against",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A second card database or Lackey card-data file: the same games with its version"
    " of each card the decks play (compared like a change).",
)
@click.option(
    "--ablate",
    type=click.Choice(KINDS),
    default=None,
    help="Weigh every card (each replaced by a vanilla card of its cost and stats), keyword"
    " (removed from every card and requirement) or ability (a card's text removed): the same"
    " games for each, ranked by how far they move a deck's win rate.",
)
@seed_option("Seed of the run: the same seed plays the same games, whatever --jobs.")
@click.option(
    "--strategy",
    type=click.Choice(list(STRATEGIES)),
    default="greedy",
    show_default=True,
    help="What both players do (the report says what that is).",
)
@click.option(
    "--compare-strategy",
    "compare",
    type=click.Choice(list(STRATEGIES)),
    default=None,
    help="Also play the cards as printed under this strategy and report what it moves (how"
    " much of a figure is the players, not the cards).",
)
@max_turns_option("Stop a game at this turn: a win for neither player.")
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Processes to play the games in (default: every core; at most twice the cores).",
)
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the report as one self-contained HTML page with charts.",
)
@click.option("--all-cards", is_flag=True, help="List every card in the text report.")
@db_option
@effects_option
@format_option(("text", "json"), default="text")
def balance_command(
    decks: tuple[Path, ...],
    games: int,
    changes: tuple[str, ...],
    against: tuple[Path, ...],
    ablate: str | None,
    seed: int,
    strategy: str,
    compare: str | None,
    max_turns: int,
    jobs: int | None,
    html_path: Path | None,
    all_cards: bool,
    db_path: Path | None,
    effects_file: Path | None,
    output_format: str,
) -> None:
    """Measure the balance of decks and cards over seeded simulated games.

    \b
    Every pair of decks plays in both seats, --games games each, twice: under the rules as
    written (players bid for their opening food; the lowest bid goes first or chooses who
    does) and with the opening food held equal (both keep 10, the first seat goes first),
    which measures the turn order alone. The report gives:
    - what the players do (bidding, attacking, blocking, card use);
    - the matchup grid: each deck's win rate against each other, with 95% Wilson intervals;
    - the first player's win rate with equal food, and under bidding;
    - per card of each deck (its games as written): win rates when drawn, not drawn, in the
      opening hand and played, how often its text was used, cards never played; outliers
      first (the gap between drawn and not drawn furthest from chance);
    - with --change: the same games with each change alone and all together (with
      --against: with another database's or card file's cards), and which matchups, decks,
      turn-order figures and cards (how often played, win rate when drawn) moved, with
      intervals and significance, and in how many paired games (same seeds) the winner
      changed ("no game changed" for a change that does nothing);
    - with --ablate: every card, keyword or ability taken out in turn, ranked.
    See docs/balance.md.
    """
    from zcards.sim.lab import max_jobs

    if jobs is not None and jobs > max_jobs():
        raise UsageError(f"--jobs {jobs} is more than twice the cores here: at most {max_jobs()}")
    if html_path is not None and not html_path.resolve().parent.is_dir():
        raise UsageError(f"cannot write {html_path}: its folder does not exist")
    deck_lists = read_decks(list(decks) or starter_decks(), db_path, effect_rows(effects_file))
    lab = plan_balance(
        deck_lists,
        changes,
        games=games,
        seed=seed,
        strategy=strategy,
        max_turns=max_turns,
        others=[
            (f"cards of {path}", swap_cards(deck_lists, other_cards(path), str(path)))
            for path in against
        ],
        ablate=ablate,
        compare=compare,
    )
    for note in lab.notes:
        click.echo(f"note: {note}", err=True)
    with progress_counter("Playing", lab.plan.total()) as advance:
        report = lab.run(jobs, advance)
    if html_path is not None:
        from zcards.sim.balance_html import render_balance

        atomic_write(html_path, render_balance(report).encode("utf-8"))
    if output_format == "json":
        emit_json(report.to_json())
    else:
        click.echo(format_balance(report, all_cards), nl=False)


COMMANDS = [balance_command]
