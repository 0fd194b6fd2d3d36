"""Search speed at 10k, 100k and 1M cards, against baselines that share no zcards code.

The databases hold synthetic cards made from the bundled set's own cards (their types,
factions, numbers, keywords, requirements, symbols and texts) under varied names. They are
built once and kept (default: a folder under the system's temporary folder) for later runs.

Three parts, each timed in rotation so that machine load falls on every contender alike
(median of ``--repeat``):

* ``output``: ``zcards search QUERY --format FORMAT`` as a user runs it (a fresh process,
  wall and CPU time) against ``scripts/bench_query_hand.py``, a standalone script that writes
  the same bytes from the same database with a hand-written query, at the largest size; both
  outputs are compared first. Both run as installed: buffered output, bytecode cached.
* ``memory``: the peak resident memory of every ``--format`` for one query at each size
  (flat: the same at every result size).
* ``library``: in-process, ``zcards.query.search.search_rows`` (lazy rows) and ``search``
  (full cards) against a hand-written ``SELECT ... WHERE`` with no ORDER BY whose rows are
  sorted in Python; per query the growth from the smallest size to the largest.

    python scripts/bench_query.py [--sizes 10000,100000,1000000] [--repeat 5] [--db-dir DIR]
        [--part output|memory|library|all] [--zcards-path CHECKOUT]

``--zcards-path`` runs the ``zcards`` of another checkout (say, the code before a change) in
the output and memory parts, for before/after tables measured on the same databases.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from pathlib import Path

import sqlite_utils
from bench_env import ZCARDS, installed_env

from zcards.cards.model import Card
from zcards.cards.normalise import read_card_file
from zcards.query.search import register_functions, search, search_rows
from zcards.resources import BUNDLED_SET
from zcards.store.rows import SELECT_COLUMNS, CardRow
from zcards.store.schema import CARD_COLUMNS, ensure_schema

DATA_VERSION = 2
"""Part of each database's file name: a changed generator builds new databases."""
ADJECTIVES = [
    "Gross", "Rotting", "Hungry", "Glowing", "Frenzied", "Silent", "Bloated", "Grim",
    "Rusty", "Pale", "Howling", "Lurching", "Feral", "Blind", "Creeping", "Sullen",
]  # fmt: skip
NOUNS = [
    "Ghoul", "Shambler", "Walker", "Corpse", "Medic", "Trucker", "Axe", "Bandage",
    "Crawler", "Crow", "Runner", "Nurse", "Hound", "Drifter", "Lantern", "Mechanic",
]  # fmt: skip
SETS = ["alpha", "beta", "gamma", "delta"]
HERE = Path(__file__).resolve().parent
HAND_SCRIPT = HERE / "bench_query_hand.py"
FORMATS = ("csv", "tsv", "json", "jsonl")
OUTPUT_QUERIES = [
    ("name:/^Rusty Crow/", "prefix"),
    ("t:zombie f:horde", "zombie-horde"),
    ("ghoul", "ghoul"),
    ("pow>=3 pow<=4", "power"),
]
"""The output table's queries and their keys in ``bench_query_hand.WHERE``."""
MEMORY_QUERY = "t:zombie f:horde"


def synthetic_name(number: int) -> str:
    adjective = ADJECTIVES[number % len(ADJECTIVES)]
    return f"{adjective} {NOUNS[number // len(ADJECTIVES) % len(NOUNS)]} {number}"


FTS = "rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH '{}')"
KEYWORD = "EXISTS (SELECT 1 FROM json_each(keywords) WHERE value = '{}' COLLATE NOCASE)"
SYMBOL = "EXISTS (SELECT 1 FROM json_each(symbols) WHERE value = '{}' COLLATE NOCASE)"
# zcards query -> hand-written WHERE clause with the same meaning (matching ignores case),
# and the page (limit) and sort key (None: name, set) the hand-written side applies itself.
QUERIES: list[tuple[str, str, int | None, Callable[[CardRow], tuple] | None]] = [
    ("t:zombie f:horde", "type = 'Zombie' COLLATE NOCASE AND faction = 'Horde' COLLATE NOCASE",
     None, None),
    ("f:horde pow<=2", "faction = 'Horde' COLLATE NOCASE AND power <= 2", None, None),
    ("k:fast", KEYWORD.format("Fast"), None, None),
    (f'name="{synthetic_name(4242)}"', f"name = '{synthetic_name(4242)}' COLLATE NOCASE",
     None, None),
    ("name:/^Rusty Crow/", "name LIKE 'Rusty Crow%'", None, None),
    ("ghoul", FTS.format("ghoul*"), None, None),
    ("o:wound", "text LIKE '%wound%'", None, None),
    ("t:survivor -sym:medic hp<=2",
     "type = 'Survivor' COLLATE NOCASE AND health <= 2 AND NOT " + SYMBOL.format("Medic"),
     None, None),
    ("set:beta t:item cost=1",
     "set_name = 'beta' COLLATE NOCASE AND type = 'Item' COLLATE NOCASE AND cost = 1",
     None, None),
    ("t:zombie order:-pow", "type = 'Zombie' COLLATE NOCASE", 20,
     lambda row: (-(row.power or 0), row.name, row.set_name)),
]  # fmt: skip


def synthetic_card(number: int, template: Card) -> Card:
    return dataclasses.replace(
        template,
        name=synthetic_name(number),
        set_name=SETS[number % len(SETS)],
        image_file=f"card{number}",
    )


def database(folder: Path, count: int) -> Path:
    """The database of ``count`` cards in ``folder``, built unless a finished one is there."""
    path = folder / f"bench-v{DATA_VERSION}-{count}.db"
    started = time.perf_counter()
    if path.exists():
        print(f"{count:,} cards: {path} (kept from an earlier run)")
        return path
    partial_path = path.with_suffix(".partial")
    partial_path.unlink(missing_ok=True)
    db = sqlite_utils.Database(partial_path)
    ensure_schema(db)
    rng = random.Random(20260101)
    templates = list(read_card_file(BUNDLED_SET))
    insert = (
        f"insert into cards ({', '.join(CARD_COLUMNS)}) "
        f"values ({', '.join('?' * len(CARD_COLUMNS))})"
    )
    with db.conn:  # the full-text index is filled by the schema's insert trigger
        for start in range(0, count, 50_000):
            rows = []
            for number in range(start, min(count, start + 50_000)):
                row = synthetic_card(number, rng.choice(templates)).to_row()
                rows.append([row.get(column) for column in CARD_COLUMNS])
            db.conn.executemany(insert, rows)
    db.execute("ANALYZE")
    db.execute("pragma journal_mode = delete")
    db.close()
    partial_path.rename(path)
    print(f"{count:,} cards: built {path} in {time.perf_counter() - started:.1f} s")
    return path


# --- output: the command line against the hand-written script ------------------------------


@dataclasses.dataclass
class Run:
    """One child process: wall and CPU seconds."""

    seconds: float
    cpu: float


def run(command: list[str], env: dict[str, str]) -> Run:
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {command}")
    return Run(seconds, usage.ru_utime + usage.ru_stime)


class Contenders:
    """The command lines of both sides for one database, query and format."""

    def __init__(self, zcards_path: Path | None) -> None:
        self.hand_env = installed_env()
        where = {} if zcards_path is None else {"PYTHONPATH": str(zcards_path)}
        self.env = installed_env(**where)

    def zcards(self, db: Path, query: str, output_format: str) -> list[str]:
        return [sys.executable, "-c", ZCARDS, "search", query, "--db", str(db),
                "--format", output_format]  # fmt: skip

    @staticmethod
    def hand(db: Path, key: str, output_format: str) -> list[str]:
        return [sys.executable, str(HAND_SCRIPT), output_format, key, str(db)]

    def same_output(self, db: Path, query: str, key: str, output_format: str) -> int:
        """Check both sides write the same bytes; the number of result rows."""
        ours = subprocess.run(
            self.zcards(db, query, output_format), env=self.env, capture_output=True, check=True
        ).stdout
        theirs = subprocess.run(
            self.hand(db, key, output_format), env=self.hand_env, capture_output=True, check=True
        ).stdout
        if ours != theirs:
            for number, (mine, hand) in enumerate(
                zip(ours.splitlines(), theirs.splitlines(), strict=False)
            ):
                if mine != hand:
                    raise SystemExit(f"{query!r} {output_format} line {number + 1}: "
                                     f"zcards {mine[:200]!r}, hand {hand[:200]!r}")  # fmt: skip
            raise SystemExit(f"{query!r} {output_format}: outputs differ in length")
        lines = ours.count(b"\n")
        return lines - 2 if output_format == "json" else lines - (output_format != "jsonl")


def bench_output(db: Path, contenders: Contenders, repeat: int) -> None:
    cases = [(query, key, fmt) for query, key in OUTPUT_QUERIES for fmt in FORMATS]
    rows = {case: contenders.same_output(db, *case) for case in cases}
    runs: dict[tuple[str, str, str], tuple[list[Run], list[Run]]] = {
        case: ([], []) for case in cases
    }
    for round_number in range(repeat):
        for case in cases:
            query, key, fmt = case
            ours, theirs = runs[case]
            if round_number % 2:  # who goes first alternates
                theirs.append(run(contenders.hand(db, key, fmt), contenders.hand_env))
            ours.append(run(contenders.zcards(db, query, fmt), contenders.env))
            if not round_number % 2:
                theirs.append(run(contenders.hand(db, key, fmt), contenders.hand_env))
    print(f"\nzcards search QUERY --format F against the hand-written script, {db.name}")
    print(f"(wall time, median of {repeat}; cpu = the same ratio in CPU time, steadier under load)")
    print("| query | format | rows | zcards | hand Python | zcards / hand | cpu |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for case in cases:
        wall = [statistics.median(r.seconds for r in found) for found in runs[case]]
        cpu = [statistics.median(r.cpu for r in found) for found in runs[case]]
        worst = max(worst, wall[0] / wall[1])
        print(f"| `{case[0]}` | {case[2]} | {rows[case]:,} | {wall[0]:.3f} s | {wall[1]:.3f} s"
              f" | {wall[0] / wall[1]:.2f}x | {cpu[0] / cpu[1]:.2f}x |")  # fmt: skip
    print(f"worst zcards / hand: {worst:.2f}x")


# A child's peak memory as Linux counts it starts at its parent's peak (fork copies the
# parent, exec keeps the larger count): a small Python process in between runs the command.
PEAK_PROBE = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss / 1024 if os.waitstatus_to_exitcode(status) == 0 else -1)
"""


def peak_memory(command: list[str], env: dict[str, str]) -> float:
    """The peak resident memory of ``command`` in MiB, measured by a small go-between."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_PROBE, *command], env=env, capture_output=True, check=True
    )
    peak = float(done.stdout)
    if peak < 0:
        raise SystemExit(f"failed: {command}")
    return peak


def bench_memory(dbs: dict[int, Path], contenders: Contenders) -> None:
    """Peak memory of every format for one query at each size (one run each)."""
    formats = ("text", *FORMATS)
    peaks = {
        (size, fmt): peak_memory(contenders.zcards(db, MEMORY_QUERY, fmt), contenders.env)
        for size, db in dbs.items()
        for fmt in formats
    }
    counts = {
        size: len(list(search_rows(sqlite_utils.Database(db), MEMORY_QUERY)))
        for size, db in dbs.items()
    }
    print(f"\npeak memory of zcards search '{MEMORY_QUERY}' (MiB)")
    print("| cards | rows | " + " | ".join(formats) + " |")
    print("| ---: | ---: |" + " ---: |" * len(formats))
    for size in dbs:
        cells = " | ".join(f"{peaks[(size, fmt)]:.0f}" for fmt in formats)
        print(f"| {size:,} | {counts[size]:,} | {cells} |")
    if len(dbs) > 1:
        small, large = min(dbs), max(dbs)
        growth = " ".join(
            f"{fmt} x{peaks[(large, fmt)] / peaks[(small, fmt)]:.2f}" for fmt in formats
        )
        print(f"growth {small:,} -> {large:,} cards: {growth}")


# --- library: in-process, against hand-written SQL -------------------------------------------


def paired_medians(runs: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median ms of each callable, run in rotating order so machine load hits all alike."""
    for job in runs:
        job()  # warm the page cache and the statement cache
    timings: list[list[float]] = [[] for _ in runs]
    for round_number in range(repeat):
        for offset in range(len(runs)):
            which = (round_number + offset) % len(runs)
            start = time.perf_counter()
            runs[which]()
            timings[which].append((time.perf_counter() - start) * 1000)
    return [statistics.median(times) for times in timings]


def hand_rows(
    db: sqlite_utils.Database, where: str, limit: int | None, key: Callable[[CardRow], tuple] | None
) -> list[CardRow]:
    rows = [
        CardRow(row) for row in db.conn.execute(f"SELECT {SELECT_COLUMNS} FROM cards WHERE {where}")
    ]
    rows.sort(key=key or itemgetter(0, 1))
    return rows[:limit] if limit is not None else rows


def _all_rows(db: sqlite_utils.Database, query: str, limit: int | None) -> list[CardRow]:
    return list(search_rows(db, query, limit=limit))


def bench_library(paths: dict[int, Path], repeat: int) -> None:
    sizes = list(paths)
    databases = [sqlite_utils.Database(path) for path in paths.values()]
    for db in databases:
        register_functions(db.conn)
    # query -> size -> (rows, rows ms, cards ms, hand ms)
    results: dict[str, list[tuple[int, float, float, float]]] = {}
    for query, where, limit, key in QUERIES:
        runs: list[Callable[[], object]] = []
        counts = []
        for db in databases:
            ours = list(search_rows(db, query, limit=limit))
            if ours != hand_rows(db, where, limit, key):
                raise SystemExit(f"{query!r}: the hand-written SQL disagrees")
            counts.append(len(ours))
            runs += [
                partial(_all_rows, db, query, limit),
                partial(search, db, query, limit=limit),
                partial(hand_rows, db, where, limit, key),
            ]
        medians = paired_medians(runs, repeat)
        results[query] = [
            (count, *medians[3 * index : 3 * index + 3])  # type: ignore[misc]
            for index, count in enumerate(counts)
        ]
    for index, size in enumerate(sizes):
        print(f"\nlibrary, {size:,} cards")
        print(f"{'query':30} {'rows':>7} {'rows ms':>9} {'cards ms':>9} {'hand ms':>9}"
              f" {'rows/hand':>9} {'cards/hand':>10}")  # fmt: skip
        ratios = []
        for query, per_size in results.items():
            count, rows_ms, cards_ms, hand_ms = per_size[index]
            ratios.append(rows_ms / hand_ms)
            print(f"{query:30} {count:>7} {rows_ms:>9.2f} {cards_ms:>9.2f} {hand_ms:>9.2f}"
                  f" {rows_ms / hand_ms:>9.2f} {cards_ms / hand_ms:>10.2f}")  # fmt: skip
        print(f"median rows/hand {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x")
    if len(sizes) > 1:
        growth = sizes[-1] / sizes[0]
        print(f"\ngrowth {sizes[0]:,} -> {sizes[-1]:,} cards: time ratio / {growth:.0f}"
              " (1 = linear), for zcards rows and for the hand-written baseline")  # fmt: skip
        for query, per_size in results.items():
            zcards_growth = per_size[-1][1] / per_size[0][1] / growth
            hand_growth = per_size[-1][3] / per_size[0][3] / growth
            print(f"{query:30} {zcards_growth:>6.2f} {hand_growth:>6.2f}")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="10000,100000,1000000")
    options.add_argument("--repeat", type=int, default=5)
    options.add_argument(
        "--db-dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "zcards-bench-query",
        help="Where the databases are kept between runs.",
    )
    options.add_argument("--part", choices=("output", "memory", "library", "all"), default="all")
    options.add_argument("--zcards-path", type=Path, help="Run this checkout's zcards instead.")
    args = options.parse_args()
    args.db_dir = args.db_dir.resolve()
    args.db_dir.mkdir(parents=True, exist_ok=True)
    # `python -c` puts the current folder first on sys.path: run away from any checkout, so
    # that the children's zcards is the installed one (or --zcards-path).
    os.chdir(args.db_dir)
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    sizes = sorted(int(size) for size in args.sizes.split(","))
    paths = {size: database(args.db_dir, size) for size in sizes}
    contenders = Contenders(args.zcards_path)
    if args.part in ("output", "all"):
        started = time.perf_counter()
        bench_output(paths[sizes[-1]], contenders, args.repeat)
        print(f"(output part: {time.perf_counter() - started:.0f} s)")
    if args.part in ("memory", "all"):
        bench_memory(paths, contenders)
    if args.part in ("library", "all"):
        started = time.perf_counter()
        bench_library(paths, args.repeat)
        print(f"(library part: {time.perf_counter() - started:.0f} s)")
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
