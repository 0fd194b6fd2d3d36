"""Benchmark: how fast ``zcards`` starts, against Python importing what any CLI needs.

Every command runs in a fresh interpreter, as a user runs it. The baseline is
``python -c 'import sqlite3, json, click'``; the target is that ``zcards --help``
and a one-card search take at most 3x the baseline. Runs are interleaved (one of each per
round) so a busy machine slows all of them alike; the table shows medians and ratios.

    python scripts/bench_startup.py [--rounds 21]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_env import ZCARDS, installed_env

TARGET = 3.0
BASELINE = "import sqlite3, json, click"


def workloads(db: Path) -> dict[str, list[str]]:
    """Name -> command line. The zcards ones run the console entry point, as ``zcards`` does."""
    python = sys.executable
    return {
        "python -c pass": [python, "-c", "pass"],
        "baseline (sqlite3+json+click)": [python, "-c", BASELINE],
        "zcards --help": [python, "-c", ZCARDS, "--help"],
        "zcards search (one card)": [
            python,
            "-c",
            ZCARDS,
            "search",
            'name="Gross Ghoul"',
            "--db",
            str(db),
        ],  # fmt: skip
        "zcards card (one card)": [python, "-c", ZCARDS, "card", "gross ghoul", "--db", str(db)],
        "zcards search, bundled set": [python, "-c", ZCARDS, "search", 'name="Gross Ghoul"'],
    }


CHECKED = ("zcards --help", "zcards search (one card)")


def run_once(command: list[str], cwd: Path, failures: dict[str, str], name: str) -> float:
    """Seconds for one run; a failing command is noted (older versions lack some features)."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=installed_env())
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        failures[name] = f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1]}"
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21, help="Runs of each command.")
    args = parser.parse_args()

    from zcards.ingest.importer import import_sources
    from zcards.resources import BUNDLED_SET

    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        db = work / "cards.db"
        import_sources(db, [str(BUNDLED_SET)])
        empty = work / "empty"  # no cards.db here: the search falls back to the bundled set
        empty.mkdir()
        commands = workloads(db)
        failures: dict[str, str] = {}
        for name, command in commands.items():  # warm the file cache and .pyc files
            run_once(command, empty, failures, name)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.rounds):
            for name, command in commands.items():
                times[name].append(run_once(command, empty, failures, name))

    baseline = statistics.median(times["baseline (sqlite3+json+click)"])
    print(f"{'command':<32} {'median ms':>10} {'ratio':>7}   ({args.rounds} interleaved rounds)")
    failed = []
    for name, samples in times.items():
        median = statistics.median(samples)
        ratio = median / baseline
        verdict = ""
        if name in failures:
            verdict = f"FAILED ({failures[name]})"
            failed.append(name)
        elif name in CHECKED:
            verdict = "ok" if ratio <= TARGET else f"over the {TARGET:g}x target"
            if ratio > TARGET:
                failed.append(name)
        print(f"{name:<32} {median * 1000:>10.1f} {ratio:>6.2f}x   {verdict}")
    if failed:
        raise SystemExit(f"over target: {', '.join(failed)}")


if __name__ == "__main__":
    main()
