"""Benchmark the game simulator and measure how many injected violations the audit finds.

Prints, from one run:
* games per second for playing games, and for playing and writing both players' logs, against
  the audit of the same logs as the baseline (how much faster games are made than checked);
* per violation kind: how many simulated logs had a place for it, and the share found by the
  audit at the injected line (and the share with no other finding: "exact");
* the balance report of every pairing of the starter decks.

Usage: python scripts/bench_sim.py [--games 300] [--mutated-games 60] [--report-games 1000]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from pathlib import Path

from lackey_plugin.log.parser import parse_log
from lackey_plugin.log.writer import format_log
from zcards.normalise import read_card_file
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.rules.engine import audit
from zcards.rules.violations import Kind as Violation
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import game_log, pov_events
from zcards.sim.report import format_report, summarise

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.mutators import mutate  # noqa: E402  (test-only code, never in the product)

STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
DECK_SIZE = 40


def timed(run):
    start = time.perf_counter()
    value = run()
    return value, time.perf_counter() - start


def speed(games: int, seed: int, card_list) -> None:
    decks = load_decks([])
    results, play = timed(lambda: list(iter_games(decks, games, seed)))
    logs, write = timed(lambda: [(r, pov, game_log(r, pov)) for r in results for pov in r.players])
    lines = sum(text.count("\n") for _, _, text in logs)

    def check() -> None:
        for result, pov, text in logs:
            audit(
                parse_log(text).events,
                card_list,
                pov=pov,
                decks=dict.fromkeys(result.players, DECK_SIZE),
            )

    _, checking = timed(check)
    print(f"{games} games, {len(logs)} logs, {lines} lines")
    print(f"  play:             {games / play:8.0f} games/s")
    print(f"  play + 2 logs:    {games / (play + write):8.0f} games/s")
    print(f"  audit (baseline): {games / checking:8.0f} games/s (parse + audit both logs)")
    print(
        f"  ratio: the simulator makes games {checking / (play + write):.1f}x faster "
        "than the audit checks them"
    )


def detection(games: int, seed: int, card_list) -> None:
    cards = {card.name: card for card in card_list}
    tried, found, exact = Counter(), Counter(), Counter()
    number = 0
    for pair in itertools.combinations(starter_decks(), 2):
        decks = load_decks(list(pair))
        for strategies in STRATEGIES:
            for result in iter_games(decks, games, seed, strategies=strategies):
                sizes = dict.fromkeys(result.players, DECK_SIZE)
                for pov in result.players:
                    events = pov_events(result, pov)
                    for kind in Violation:
                        number += 1
                        mutation = mutate(kind, events, random.Random(number), cards, sizes)
                        if mutation is None:
                            continue
                        report = audit(
                            parse_log(format_log(mutation.events)).events,
                            card_list,
                            pov=pov,
                            decks=sizes,
                        )
                        findings = {(v.kind, v.line) for v in report.violations}
                        tried[kind] += 1
                        found[kind] += (kind, mutation.line) in findings
                        exact[kind] += findings == {(kind, mutation.line)}
    print(f"\ndetection at the injected line ({games} games per pairing and strategy mix):")
    print(f"  {'kind':<20} {'logs':>6} {'found':>7} {'exact':>7}")
    for kind in Violation:
        share = found[kind] / tried[kind] if tried[kind] else 0.0
        clean = exact[kind] / tried[kind] if tried[kind] else 0.0
        print(f"  {kind:<20} {tried[kind]:>6} {share:>7.1%} {clean:>7.1%}")


def balance(games: int, seed: int) -> None:
    for pair in itertools.combinations(starter_decks(), 2):
        results = list(iter_games(load_decks(list(pair)), games, seed))
        print(f"\n{pair[0].stem} vs {pair[1].stem}, greedy players")
        print(format_report(summarise(results)), end="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--mutated-games", type=int, default=60)
    parser.add_argument("--report-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    card_list = read_card_file(BUNDLED_SET)
    speed(args.games, args.seed, card_list)
    detection(args.mutated_games, args.seed, card_list)
    balance(args.report_games, args.seed)


if __name__ == "__main__":
    main()
