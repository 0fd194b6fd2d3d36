"""Benchmark ``zcards balance``: games per second on one and two processes, and memory as the
number of games grows.

Prints, from one run (wall time, and CPU time of this process and its children: the machine
is shared):
* games per second of the lab (every pair of starter decks in both seats, both setups, the
  per-card figures counted) with --jobs 1 and --jobs 2, against a baseline measured in the
  same run: as many games of the same pairs played bare by the simulator (``iter_games``,
  what ``zcards simulate`` plays, a card index built per game), on one process;
* ``zcards balance --format json --html`` as a user runs it, on ``--small`` and ``--large``
  games (default 1,000 and 10,000; 2 processes): wall time, and the peak resident memory of
  the command's own process (VmHWM) and of its largest worker (the same ratio means memory
  flat in the number of games).

Usage: python scripts/bench_balance.py [--speed-games 480] [--small 1000] [--large 10000]
"""

from __future__ import annotations

import argparse
import itertools
import math
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_env import run_measured

from zcards.resources import starter_decks
from zcards.sim.balance_report import plan_balance
from zcards.sim.batch import iter_games
from zcards.sim.decklists import read_decks

PAIRS_AND_SETUPS = 12  # three starter decks: 6 ordered pairs, 2 setups


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU of this process and its finished children) seconds of one run."""

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    wall, used = time.perf_counter(), cpu()
    run()
    return time.perf_counter() - wall, cpu() - used


def speed(games: int) -> None:
    decks = read_decks(starter_decks())
    per_pair = math.ceil(games / PAIRS_AND_SETUPS)
    lab = plan_balance(decks, games=per_pair)
    total = lab.plan.total()
    list(iter_games(decks[:2], 10, 99))  # warm up: imports, caches

    def bare_games() -> None:  # the same pairs, as many games, each seat equally often
        for pair in itertools.combinations(decks, 2):
            for _ in iter_games(pair, total // 3, 1):
                pass

    bare = timed(bare_games)
    print(f"{total} games, each figure from one run:")
    print(f"  bare simulator, 1 process : {_rates(total, bare)}")
    one = timed(lambda: lab.run(1))
    print(f"  balance lab, --jobs 1     : {_rates(total, one)}  {_ratio(one, bare)} bare")
    two = timed(lambda: lab.run(2))
    print(
        f"  balance lab, --jobs 2     : {_rates(total, two)}  {_ratio(two, bare)} bare,"
        f" {_ratio(two, one)} --jobs 1"
    )


def _ratio(run: tuple[float, float], baseline: tuple[float, float]) -> str:
    """How many times faster ``run`` was than ``baseline``, in wall and in CPU time."""
    return f"x{baseline[0] / run[0]:.2f} wall x{baseline[1] / run[1]:.2f} CPU"


def _rates(games: int, seconds: tuple[float, float]) -> str:
    wall, cpu = seconds
    return f"{games / wall:6.0f} games/s wall {games / cpu:6.0f} games/s CPU"


def memory(sizes: list[int]) -> None:
    print(f"\n{'games':>7} {'seconds':>8} {'command MiB':>12} {'worker MiB':>11}")
    peaks: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            per_pair = str(math.ceil(size / PAIRS_AND_SETUPS))
            page = Path(folder) / "report.html"
            done = run_measured(
                ["balance", "-n", per_pair, "-j", "2", "--format", "json", "--html", str(page)]
            )
            if done.exit_code != 0:
                raise SystemExit(f"zcards balance failed: {done.stderr[-500:]}")
            peaks.append((done.peak_mib, done.children_peak_mib))
            games = int(per_pair) * PAIRS_AND_SETUPS
            print(f"{games:>7} {done.seconds:>8.1f} {peaks[-1][0]:>12.0f} {peaks[-1][1]:>11.0f}")
    (small_own, small_worker), (large_own, large_worker) = peaks[0], peaks[-1]
    print(
        f"peak memory {sizes[0]} -> {sizes[-1]} games: command x{large_own / small_own:.2f},"
        f" worker x{large_worker / small_worker:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--speed-games", type=int, default=480)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--large", type=int, default=10000)
    args = parser.parse_args()
    speed(args.speed_games)
    memory([args.small, args.large])


if __name__ == "__main__":
    main()
