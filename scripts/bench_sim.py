"""Benchmark the game simulator, and measure how many injected violations the audit finds.

Prints, from one run (wall time, and CPU time of this process: the machine is shared):
* games per second for playing games, and for playing and writing one log per game to files
  (what ``zcards simulate --out`` does; target >= 250 games/s), against two baselines in the
  same run: the same logs written with a new log writer per game (templates compiled per game), and
  the bare cost of writing the same texts to files (no simulator, no writer);
* the audit of the same logs (how much faster games are made than checked);
* per violation kind and recording style: how many simulated logs had a place for it, and
  the share found by the audit at the injected line (and the share with no other finding);
* the balance report of every pairing of the starter decks.

Usage: python scripts/bench_sim.py [--games 300] [--mutated-games 20] [--report-games 1000]
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import support_path  # noqa: F401  (puts tests/support on sys.path)

from lackey_plugin.log.parser import parse_log_text
from lackey_plugin.log.writer import LogWriter
from zcards.cards.normalise import read_card_file
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.rules.engine import audit
from zcards.sim.batch import iter_games, log_pov, write_logs
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import game_log, log_text, record
from zcards.sim.report import format_report, summarise_games
from zcards.sim.styles import STYLE_NAMES, resolve_style

# isort: split
from support.faults import MUTATORS, UNVERIFIABLE, mutate

STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
DECK_SIZE = 40


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def rates(games: int, seconds: tuple[float, float]) -> str:
    wall, cpu = seconds
    return f"{games / wall:8.0f} games/s wall {games / cpu:8.0f} games/s CPU"


def speed(games: int, seed: int, cards: CardIndex) -> None:
    decks = load_decks([])
    results = list(iter_games(decks, 20, seed + 1))  # warm up: imports, caches
    play = timed(lambda: results.extend(iter_games(decks, games, seed)))
    results = results[20:]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        write = timed(lambda: write_logs(results, out / "logs"))
        texts = [game_log(r, log_pov(r, i)) for i, r in enumerate(results)]
        (out / "old").mkdir()
        (out / "bare").mkdir()

        def one_writer_per_game() -> None:  # the templates compiled again for every game
            for index, result in enumerate(results):
                events = record(result, log_pov(result, index)).events
                text = "".join(line + "\n" for line in LogWriter().lines(events))
                (out / "old" / f"game-{index + 1:04d}.txt").write_text(text, encoding="utf-8")

        def bare() -> None:
            for index, text in enumerate(texts):
                (out / "bare" / f"game-{index + 1:04d}.txt").write_text(text, encoding="utf-8")

        old, floor = timed(one_writer_per_game), timed(bare)
    lines = sum(text.count("\n") for text in texts)

    def check() -> None:
        for index, (result, text) in enumerate(zip(results, texts, strict=True)):
            sizes = dict.fromkeys(result.players, DECK_SIZE)
            audit(
                parse_log_text(text, game=ZOMBIE_GAME).events,
                cards,
                pov=log_pov(result, index),
                decks=sizes,
            )

    checking = timed(check)
    both = (play[0] + write[0], play[1] + write[1])
    before = (play[0] + old[0], play[1] + old[1])
    print(f"{games} games, one log each ({lines} lines)")
    print(f"  play:                        {rates(games, play)}")
    print(f"  write the logs:              {rates(games, write)}")
    print(f"  play + write (target 250/s): {rates(games, both)}")
    print(f"  baseline, a writer per game: {rates(games, before)} (play + write)")
    print(f"  baseline, bare file writes:  {rates(games, floor)} (texts ready)")
    print(f"  audit of the same logs:      {rates(games, checking)} (parse + audit)")
    print(
        f"  ratios (CPU): play+write is {before[1] / both[1]:.2f}x faster than with a writer"
        f" per game; writing costs {write[1] / floor[1]:.1f}x bare file writes;"
        f" games are made {checking[1] / both[1]:.1f}x faster than audited"
    )


def detection(games: int, seed: int, card_list) -> None:
    cards = {card.name: card for card in card_list}
    index = CardIndex(card_list)
    tried: Counter[tuple[str, str]] = Counter()
    found: Counter[tuple[str, str]] = Counter()
    exact: Counter[tuple[str, str]] = Counter()
    number = 0
    for pair in itertools.combinations(starter_decks(), 2):
        decks = load_decks(list(pair))
        for strategies in STRATEGIES:
            for result in iter_games(decks, games, seed, strategies=strategies):
                sizes = dict.fromkeys(result.players, DECK_SIZE)
                for name in STYLE_NAMES:
                    pov = result.players[number % 2]
                    log = record(result, pov, resolve_style(name, result.seed))
                    for kind in MUTATORS:
                        number += 1
                        mutation = mutate(kind, log.events, random.Random(number), cards, sizes)
                        if mutation is None:
                            continue
                        text = log_text(mutation.events, log.pronoun)
                        report = audit(
                            parse_log_text(text, game=ZOMBIE_GAME).events,
                            index,
                            pov=pov,
                            decks=sizes,
                        )
                        violations = {(v.kind, v.line) for v in report.violations}
                        target = (kind, mutation.line)
                        if kind in UNVERIFIABLE:  # reported unverifiable, and no violation
                            doubts = {(u.kind, u.line) for u in report.unverifiable}
                            hit, alone = target in doubts and not violations, not violations
                        else:
                            hit, alone = target in violations, violations == {target}
                        tried[(kind, name)] += 1
                        found[(kind, name)] += hit
                        exact[(kind, name)] += hit and alone
    print(f"\nfound at the injected line ({games} games per pairing and strategy mix), by style:")
    print(f"  {'kind':18}" + "".join(f"{name[:11]:>12}" for name in STYLE_NAMES))
    for kind in sorted(MUTATORS):
        cells = [_share(found[(kind, n)], tried[(kind, n)]) for n in STYLE_NAMES]
        print(f"  {kind:18}" + "".join(f"{cell:>12}" for cell in cells))
    shares = sum(exact.values()) / max(1, sum(tried.values()))
    print(f"  (share/logs; {shares:.0%} of all mutated logs had no other finding)")


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.0%}/{whole}" if whole else "-"


def balance(games: int, seed: int) -> None:
    for pair in itertools.combinations(starter_decks(), 2):
        results = list(iter_games(load_decks(list(pair)), games, seed))
        print(f"\n{pair[0].stem} vs {pair[1].stem}, greedy players")
        print(format_report(summarise_games(results)), end="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--mutated-games", type=int, default=20)
    parser.add_argument("--report-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    card_list = read_card_file(BUNDLED_SET)
    speed(args.games, args.seed, CardIndex(card_list))
    detection(args.mutated_games, args.seed, card_list)
    balance(args.report_games, args.seed)


if __name__ == "__main__":
    main()
