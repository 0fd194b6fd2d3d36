"""Benchmark ``zcards audit``: one long log, and many logs streamed as JSON lines.

1. Lines per second on a long synthetic legal log (many simulated games saved one after
   another, as one Lackey log holds every game played at a table), against parse-only
   throughput measured in the same run.
2. ``zcards audit LOG... --format jsonl`` on 10, 100 and 1,000 one-game logs, as a child
   process (wall time, peak memory from ``wait4``), against a baseline loop in this process
   that audits the same logs with the library and ``json.dumps`` each report: ratio, the
   CLI's peak memory and the growth factor (time per log and peak memory, largest over
   smallest count).
3. ``zcards audit LOG --format json`` on logs of about 1,000, 100,000 and 400,000 lines
   (games played at one table one after another), as a child process: the peak memory of
   each and their ratios (the audit streams the lines: past its warm-up, memory should not
   grow with them; the report itself grows with the findings).

Usage: ``python scripts/bench_audit.py [--games N] [--seed S] [--logs 10,100,1000]
[--memory-lines 1000,100000,400000]``; ``--save-log PATH`` writes the long log and stops
(for an instruction count, see docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_env import run_measured

from lackey_plugin.log.parser import iter_log_file, parse_log_file
from zcards.cards.normalise import read_card_file
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules import audit
from zcards.rules.load import audit_log, load_cards
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import game_log


def best_of(repeat: int, run: Callable[[], object]) -> tuple[float, float]:
    """The shortest wall time and the shortest CPU time of ``repeat`` runs: on a shared
    machine the CPU time moves less with the other work."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--logs", default="10,100,1000")
    parser.add_argument("--memory-lines", default="1000,100000,400000")
    parser.add_argument(
        "--save-log",
        type=Path,
        metavar="PATH",
        help="write the long log to PATH and stop (a fixed input for an instruction count)",
    )
    args = parser.parse_args()
    if args.save_log is not None:
        args.save_log.write_text(long_text(args.games, args.seed), encoding="utf-8")
        return
    long_log(args)
    many_logs([int(count) for count in args.logs.split(",")], args.seed)
    memory([int(count) for count in args.memory_lines.split(",")], args.seed)


def long_text(games: int, seed: int) -> str:
    """Simulated games saved one after another, as one Lackey log holds a table's games."""
    results = list(iter_games(load_decks([]), games, seed=seed, strategies=("random", "greedy")))
    return "".join(game_log(r, r.players[i % 2]) for i, r in enumerate(results))


def long_log(args: argparse.Namespace) -> None:
    text = long_text(args.games, args.seed)
    cards = CardIndex(read_card_file(BUNDLED_SET))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long-game.txt"
        path.write_text(text, encoding="utf-8")
        lines = text.count("\n")
        events = parse_log_file(path, game=ZOMBIE_GAME).events
        report = audit(events, cards)
        assert not report.violations, report.to_text()
        parse_s = best_of(args.repeat, lambda: parse_log_file(path, game=ZOMBIE_GAME))
        audit_s = best_of(args.repeat, lambda: audit(events, cards))
        both_s = best_of(args.repeat, lambda: audit(iter_log_file(path, game=ZOMBIE_GAME), cards))
    print(
        f"log: {report.games} games, {lines} lines, {report.turns} turns, "
        f"{len(report.unverifiable)} unverifiable findings, 0 violations"
    )
    for name, (wall, cpu) in (
        ("parse only", parse_s),
        ("audit only", audit_s),
        ("parse + audit", both_s),
    ):
        print(
            f"{name:<16}: {lines / wall:>10,.0f} lines/s ({wall:.3f} s); "
            f"CPU time {lines / cpu:>10,.0f} lines/s ({cpu:.3f} s)"
        )
    print(
        f"ratio parse+audit / parse-only time: {both_s[0] / parse_s[0]:.2f}x "
        f"(CPU time {both_s[1] / parse_s[1]:.2f}x)"
    )


def many_logs(counts: list[int], seed: int) -> None:
    games = list(
        iter_games(load_decks([]), max(counts), seed=seed, strategies=("random", "greedy"))
    )
    cards = load_cards(card_file=BUNDLED_SET)
    results = []
    print(f"\n{'logs':>6} {'library':>9} {'cli jsonl':>10} {'ratio':>6} {'cli peak MiB':>13}")
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, game in enumerate(games):
            path = Path(folder) / f"game-{index:05d}.txt"
            path.write_text(game_log(game, game.players[index % 2]), encoding="utf-8")
            paths.append(path)
        for count in counts:
            chosen = paths[:count]
            started = time.perf_counter()
            with open(os.devnull, "w", encoding="utf-8") as sink:
                for path in chosen:
                    report = audit_log(path, cards)
                    sink.write(json.dumps({"log": str(path), "report": report.to_json()}) + "\n")
            library = time.perf_counter() - started
            cli, peak, lines = _cli_jsonl(chosen, Path(folder) / "out.jsonl")
            assert lines == count, (lines, count)
            results.append((count, cli, peak))
            print(f"{count:>6} {library:>8.2f}s {cli:>9.2f}s {cli / library:>5.1f}x {peak:>13.0f}")
    (small, small_s, small_peak), (large, large_s, large_peak) = results[0], results[-1]
    print(
        f"growth {small} -> {large} logs: time per log x{(large_s / large) / (small_s / small):.2f}"
        f", peak memory x{large_peak / small_peak:.2f} (CLI time includes its start-up)"
    )


def memory(sizes: list[int], seed: int) -> None:
    """Peak memory of ``zcards audit`` on logs of about ``sizes`` lines."""
    games = list(iter_games(load_decks([]), 50, seed=seed, strategies=("random", "greedy")))
    texts = [game_log(game, game.players[i % 2]) for i, game in enumerate(games)]
    print(f"\n{'lines':>8} {'cli peak MiB':>13} {'seconds':>8}")
    peaks = []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            parts: list[str] = []
            lines = 0
            while lines < size:
                text = texts[len(parts) % len(texts)]
                parts.append(text)
                lines += text.count("\n")
            path = Path(folder) / f"log-{size}.txt"
            path.write_text("".join(parts), encoding="utf-8")
            done = run_measured(
                ["audit", str(path), "--cards", str(BUNDLED_SET), "--format", "json"]
            )
            if done.exit_code not in (0, 1):
                raise SystemExit(f"zcards audit failed: {done.stderr[-500:]}")
            peaks.append(done.peak_mib)
            print(f"{lines:>8} {peaks[-1]:>13.0f} {done.seconds:>8.1f}")
    print(
        f"peak memory {sizes[0]} -> {sizes[-1]} lines: x{peaks[-1] / peaks[0]:.2f}"
        + (f"; {sizes[-2]} -> {sizes[-1]}: x{peaks[-1] / peaks[-2]:.2f}" if len(sizes) > 2 else "")
    )


def _cli_jsonl(paths: list[Path], out: Path) -> tuple[float, float, int]:
    """Wall seconds, peak resident MiB and output lines of ``zcards audit ... --format jsonl``."""
    command = [sys.executable, "-m", "zcards", "audit", *map(str, paths)]
    command += ["--cards", str(BUNDLED_SET), "--format", "jsonl"]
    started = time.perf_counter()
    with out.open("wb") as sink:
        child = subprocess.Popen(command, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"zcards audit failed: exit {os.waitstatus_to_exitcode(status)}")
    lines = sum(1 for _ in out.open(encoding="utf-8"))
    return elapsed, usage.ru_maxrss / 1024, lines


if __name__ == "__main__":
    main()
