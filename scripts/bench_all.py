"""Rerun every benchmark of ``docs/performance.md`` in one go, at the sizes the page quotes.

Each benchmark measures zcards against a baseline in the same run (see its own docstring);
this script only runs them one after another, never two at once, and keeps what each printed
with the date, the machine's load average before and after, and the wall time, so a figure on
the page can be checked against a fresh run:

    python scripts/bench_all.py [--only audit,sim] [--quick] [--out bench-results]

``--quick`` runs each at its smallest size (a smoke test of the scripts, not figures to
quote). The results go to ``OUT/<benchmark>.txt`` and a summary to ``OUT/summary.txt``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Bench:
    """One benchmark: its script and arguments (as quoted on the page, and for --quick)."""

    name: str
    script: str
    args: tuple[str, ...]
    quick: tuple[str, ...]


BENCHES = (
    Bench("startup", "bench_startup.py", (), ("--rounds", "3")),
    Bench("query", "bench_query.py", ("--sizes", "10000,100000"), ("--sizes", "10000")),
    Bench("import", "bench_import.py", ("--rows", "10000", "100000"), ("--rows", "10000")),
    Bench("log-parse", "bench_log_parse.py", ("--sizes", "10000,100000"), ("--sizes", "10000")),
    Bench(
        "audit",
        "bench_audit.py",
        (),
        ("--games", "10", "--repeat", "1", "--logs", "10", "--memory-lines", "1000,10000"),
    ),
    Bench("hostile-logs", "bench_hostile_logs.py", (), ("--sizes", "1000,2000")),
    Bench("flavour", "bench_flavour_misclicks.py", (), ("--sizes", "1000,2000")),
    Bench("unverifiable", "unverifiable_rate.py", (), ("--games", "10")),
    Bench(
        "sim", "bench_sim.py", (), ("--games", "20", "--mutated-games", "2", "--report-games", "20")
    ),
    Bench("search", "bench_search.py", (), ("--games", "2")),
    Bench(
        "balance", "bench_balance.py", (), ("--speed-games", "48", "--small", "48", "--large", "96")
    ),
    Bench(
        "export", "bench_export.py", ("--sizes", "100,1000"), ("--sizes", "100", "--rounds", "1")
    ),
    Bench("proxies", "bench_proxies.py", ("--sizes", "100,1000"), ("--sizes", "100")),
    Bench("replay", "bench_replay.py", (), ("--lines", "1000")),
    Bench("verify", "bench_verify.py", (), ("--files", "2", "--mib", "2")),
)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        help="comma-separated benchmark names: " + ", ".join(bench.name for bench in BENCHES),
    )
    parser.add_argument("--quick", action="store_true", help="the smallest sizes (smoke test)")
    parser.add_argument("--out", type=Path, default=Path("bench-results"))
    options = parser.parse_args()
    chosen = set(options.only.split(",")) if options.only else {b.name for b in BENCHES}
    unknown = chosen - {bench.name for bench in BENCHES}
    if unknown:
        parser.error(f"no benchmark called {', '.join(sorted(unknown))}")
    options.out.mkdir(parents=True, exist_ok=True)
    summary = [
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, {sys.version.split()[0]}"
    ]
    for bench in BENCHES:
        if bench.name not in chosen:
            continue
        args = bench.quick if options.quick else bench.args
        command = [sys.executable, str(SCRIPTS / bench.script), *args]
        before, started = load(), time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        line = (
            f"{bench.name}: exit {done.returncode}, {seconds:.0f} s, load {before} -> {load()}:"
            f" python scripts/{bench.script} {' '.join(args)}"
        )
        (options.out / f"{bench.name}.txt").write_text(
            f"{line}\n\n{done.stdout}\n{done.stderr}", encoding="utf-8"
        )
        summary.append(line)
        print(line, flush=True)
    (options.out / "summary.txt").write_text("\n".join(summary) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
