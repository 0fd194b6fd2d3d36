"""Benchmark: how much stronger the searching player is than the greedy one, and what it costs.

Mirror matches of every starter deck (the same deck on both sides, so only the players
differ): the searching player against the greedy one in both seats, ``--games`` games per deck
and seat, then the greedy player against itself on the same seeds as the baseline (its win
rate is 50 % by symmetry, its CPU time is the cost to compare with). Games stopped at the
turn cap count for neither. Prints each deck's win rate with its 95 % Wilson interval, and the
CPU time per game of each pairing.

    python scripts/bench_search.py [--games 200] [--seed 7]
"""

from __future__ import annotations

import argparse
import time

from zcards.game.cards import CardIndex
from zcards.resources import starter_decks
from zcards.sim.batch import game_seed
from zcards.sim.decklists import read_decks
from zcards.sim.game import DeckList, play_game
from zcards.sim.report import Rate, rate


def mirror(deck: DeckList, player: str, games: int, seed: int) -> tuple[Rate, float]:
    """``player`` against greedy with ``deck`` on both sides, in both seats: its win rate,
    and the CPU seconds per game."""
    cards = CardIndex(deck.cards)
    wins = decided = 0
    started = time.process_time()
    for index in range(games):
        for seat in (0, 1):
            strategies = (player, "greedy") if seat == 0 else ("greedy", player)
            result = play_game(
                (deck, deck),
                game_seed(seed, index, "mirror", deck.name, str(seat)),
                strategies=strategies,
                cards=cards,
            )
            if result.survivor is not None:
                decided += 1
                wins += result.survivor == result.players[seat]
    return rate(wins, decided), (time.process_time() - started) / (2 * games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per deck and seat")
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    total_wins = total_games = 0
    costs: dict[str, float] = {"search": 0.0, "greedy": 0.0}
    for deck in read_decks(starter_decks()):
        found, cost = mirror(deck, "search", options.games, options.seed)
        _, baseline = mirror(deck, "greedy", options.games, options.seed)
        costs["search"] += cost
        costs["greedy"] += baseline
        total_wins, total_games = total_wins + found.wins, total_games + found.games
        print(
            f"{deck.name}: search beat greedy in {found.wins} of {found.games} decided games,"
            f" {100 * found.rate:.1f}% [{100 * found.low:.1f}, {100 * found.high:.1f}];"
            f" CPU {1000 * cost:.0f} ms a game (greedy mirror {1000 * baseline:.0f} ms,"
            f" {cost / baseline:.1f}x)"
        )
    overall = rate(total_wins, total_games)
    print(
        f"all decks: {100 * overall.rate:.1f}% [{100 * overall.low:.1f}, {100 * overall.high:.1f}]"
        f" of {overall.games}; search costs {costs['search'] / costs['greedy']:.1f}x greedy's CPU"
    )


if __name__ == "__main__":
    main()
