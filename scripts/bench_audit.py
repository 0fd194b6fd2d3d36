"""Benchmark ``zcards audit``: lines per second on a long synthetic legal log, against
parse-only throughput measured in the same run.

The log is many simulated games (the simulator plays legal games) saved one after another,
as one Lackey log holds every game played at a table; the audit restarts at each
``starts a new game.`` line. Usage: ``python scripts/bench_audit.py [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lackey_plugin.log.parser import parse_log
from zcards.normalise import read_card_file
from zcards.resources import BUNDLED_SET
from zcards.rules import audit
from zcards.rules.cards import CardIndex
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import game_log


def best_of(repeat: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    results = list(
        iter_games(load_decks([]), args.games, seed=args.seed, strategies=("random", "greedy"))
    )
    text = "".join(game_log(r, r.players[i % 2]) for i, r in enumerate(results))
    cards = CardIndex(read_card_file(BUNDLED_SET))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long-game.txt"
        path.write_text(text, encoding="utf-8")
        lines = text.count("\n")
        events = parse_log(path).events
        report = audit(events, cards)
        assert not report.violations, report.to_text()
        parse_s = best_of(args.repeat, lambda: parse_log(path))
        audit_s = best_of(args.repeat, lambda: audit(events, cards))
        both_s = best_of(args.repeat, lambda: audit(parse_log(path).events, cards))
    print(
        f"log: {report.games} games, {lines} lines, {report.turns} turns, "
        f"{len(report.unverifiable)} unverifiable findings, 0 violations"
    )
    print(f"parse only      : {lines / parse_s:>10,.0f} lines/s ({parse_s:.3f} s)")
    print(f"audit only      : {lines / audit_s:>10,.0f} lines/s ({audit_s:.3f} s)")
    print(f"parse + audit   : {lines / both_s:>10,.0f} lines/s ({both_s:.3f} s)")
    print(f"ratio parse+audit / parse-only time: {both_s / parse_s:.2f}x")


if __name__ == "__main__":
    main()
