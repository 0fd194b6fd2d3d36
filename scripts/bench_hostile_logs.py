"""Benchmark the audit on hostile logs: every kind of line an attacker (or a broken client)
can repeat without end must cost the same per line however long the log, in flat memory.

Kinds (each a legal two-player setup, then the hostile part repeated to the size asked):

* ``clears``: ``clears the table.`` again and again (each looks ahead for deck loads);
* ``seats``: 200 seated players and no turn-1 line (one reading per player who may have
  taken turn 1, capped);
* ``wounds``: 50 survivors of one name wounded line after line in one Attack phase (which
  copy a Wound line means is a reading, and the fights are a search);
* ``copies``: 20 identical survivors and Wound lines whose counts leave open which copy was
  hit (identical copies are one class: a reading counts how many got what); measure it at
  the sizes of a short log with ``--kinds copies --sizes 60,300``;
* ``misclicks``: Wound/Heal pairs undone at once (each pair is two readings, capped);
* ``late-fixes``: a wound and a spend, each undone two lines later in the same phase (each
  pair is two readings too, capped);
* ``saves``: ``saves the game as …`` with a new name each time (each keeps a snapshot,
  capped);
* ``plain``: ordinary turns, one after another.

For each kind and size, ``zcards audit LOG --format json`` runs in a child process that
reports the audit's own seconds and its peak resident memory (VmHWM); the script prints
lines/s, peak MiB, and the ratios of the largest size to the smallest (time per line and
peak memory: 1.0 is linear time and flat memory).

Usage: ``python scripts/bench_hostile_logs.py [--sizes 10000,20000] [--kinds clears,...]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import support_path  # noqa: F401  (puts tests/support on sys.path)
from bench_env import installed_env

from zcards.resources import BUNDLED_SET

# isort: split
from support.faults.hostile import KINDS

# The audit in a child that reports its own seconds and peak resident memory (VmHWM).
_CHILD = """
import sys, time
from zcards.cards.normalise import read_card_file
from zcards.rules.load import audit_log
cards = read_card_file(sys.argv[2])
started = time.perf_counter()
report = audit_log(sys.argv[1], cards)
report.to_json()
elapsed = time.perf_counter() - started
status = open("/proc/self/status").read()
peak = status.split("VmHWM:")[1].split()[0]
print(elapsed, peak, len(report.violations), len(report.unverifiable))
"""


def measure(path: Path, cards: Path = BUNDLED_SET) -> tuple[float, float, int, int]:
    """Seconds, peak MiB, violations and unverifiable findings of auditing ``path`` with the
    card data of ``cards``."""
    command = [sys.executable, "-c", _CHILD, str(path), str(cards)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=installed_env())
    if done.returncode != 0:
        raise SystemExit(f"the audit failed on {path.name}: {done.stderr[-500:]}")
    seconds, peak, violations, unverifiable = done.stdout.split()
    return float(seconds), int(peak) / 1024, int(violations), int(unverifiable)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,20000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'kind':<10} {'lines':>7} {'seconds':>8} {'lines/s':>9} {'peak MiB':>9} viol. unverif.")
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.kinds.split(","):
            results = []
            for size in sizes:
                path = Path(folder) / f"{kind}-{size}.txt"
                lines = KINDS[kind](size)
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                seconds, peak, violations, unverifiable = measure(path)
                results.append((len(lines), seconds, peak))
                print(
                    f"{kind:<10} {len(lines):>7} {seconds:>8.2f} {len(lines) / seconds:>9.0f}"
                    f" {peak:>9.0f} {violations:>5} {unverifiable:>8}"
                )
            (small, small_s, small_peak), (large, large_s, large_peak) = results[0], results[-1]
            print(
                f"{kind:<10} {small} -> {large} lines: time per line "
                f"x{(large_s / large) / (small_s / small):.2f}, peak memory "
                f"x{large_peak / small_peak:.2f}"
            )


if __name__ == "__main__":
    main()
