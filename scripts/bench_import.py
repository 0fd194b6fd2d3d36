"""Import speed and memory against baselines that share no zcards code or plan.

Each measurement runs in a fresh process (peak memory is that process's maximum RSS), the
contenders interleaved and each repeated; the median counts. On the same Zombie CCG card file
of N rows (``--cards realistic``, the default: the bundled set's cards, their texts, keywords
and requirements, repeated under varied names; ``--cards synthetic``: short generated texts):

* ``bare``: ``csv`` reader + one ``executemany`` into a plain 13-column table, as raw text:
  the floor any importer pays;
* ``hand``: the same schema as zcards (cards with its (Set, Name) key and indexes, the FTS5
  index with its triggers, provenance, one run row and an "added" change per card), written by
  hand with SQLite's usual bulk-load recipe: typed values and JSON lists in one
  ``executemany``, then the indexes, the FTS index (``rebuild``) and its triggers;
* ``zcards``: ``zcards.ingest.importer.import_sources`` into a new database (validated, normalised,
  change log, atomic placement);
* ``moved``: the same cards imported again from a new path into that database;
* ``unchanged``: the same file imported again (skipped: its SHA-256 is known);
* ``command``: the same, as the command ``zcards import FILE`` in a process of its own
  (start-up included: the figure a user sees).

    python scripts/bench_import.py [--rows 10000 100000 1000000] [--repeat 3]

Prints times, ratios, peak memory and the growth factor (time per row and memory from the
smallest to the largest size).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_env import ZCARDS, installed_env

HEADER = (
    "Name\tSet\tImageFile\tType\tFaction\tCost\tPower\tHealth\tKeywords\tRequirements\t"
    "Symbols\tRarity\tText"
)
FACTIONS = ("Rage", "Horde", "Contagion", "Weird")
KEYWORDS = ("Fast", "Tough", "Fierce", "Infectious", "Enduring", "Sentient")


BUNDLED_SET = Path(__file__).resolve().parents[1] / "zcards" / "data" / "alpha.txt"


def write_realistic_cards(path: Path, count: int) -> None:
    """The bundled set's cards over and over, each under a name of its own."""
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    cards = [line.split("\t") for line in lines[1:] if line.strip()]
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(lines[0] + "\n")
        for n in range(count):
            name, _set, _image, *fields = cards[n % len(cards)]
            out.write("\t".join([f"{name} {n:07d}", "bench", f"bench{n:07d}", *fields]) + "\n")


def write_cards(path: Path, count: int) -> None:
    """Valid, varied Zombie CCG cards with unique names and short generated texts."""
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(HEADER + "\n")
        for n in range(count):
            rarity = "CURS"[n % 4]
            if n % 3 == 0:
                fields = ["Survivor", "", str(n % 5), str(n % 4), str(1 + n % 3), "", ""]
                fields.append(("", "Medic", "Scavenger")[n % 3])
            else:
                requirement = f"{1 + n % 3} {KEYWORDS[(n + 1) % 6]}"
                fields = ["Zombie", FACTIONS[n % 4], "", str(1 + n % 4), "", KEYWORDS[n % 6]]
                fields += [requirement, ""]
            text = f"Recoup - gain {n % 3} food. Card number {n} of the benchmark set."
            row = [f"Bench Card {n:07d}", "bench", f"bench{n:07d}", *fields, rarity, text]
            out.write("\t".join(row) + "\n")


# --- contenders: each runs in its own process (``--run KIND SOURCE DB``) -------------------


def run_bare(source: Path, db: Path) -> None:
    import csv
    import sqlite3

    with source.open(encoding="utf-8", newline="") as stream:
        rows = csv.reader(stream, delimiter="\t", quoting=csv.QUOTE_NONE)
        columns = next(rows)
        conn = sqlite3.connect(db)
        conn.execute(f"create table cards ({', '.join(f'c{i}' for i in range(len(columns)))})")
        conn.executemany(f"insert into cards values ({', '.join('?' * len(columns))})", rows)
        conn.commit()
        conn.close()


HAND_SCHEMA = """
create table cards (name text not null, set_name text not null, image_file text, type text,
  faction text, cost integer, power integer, health integer, keywords text, requirements text,
  symbols text, rarity text, text text, extra text, image_url text, source_id integer);
create virtual table cards_fts using fts5 (name, text,
  tokenize='unicode61 remove_diacritics 2', content='cards', columnsize=0);
create table sources (id integer primary key, location text not null unique, sha256 text,
  row_count integer);
create table import_runs (id integer primary key, started_at text, added integer);
create table changes (id integer primary key, run_id integer, set_name text, name text,
  action text, fields text);
create index idx_changes_run_id on changes (run_id);
create index idx_cards_extra on cards (source_id) where extra not in ('', '{}');
"""
HAND_AFTER_LOAD = (
    "create unique index idx_cards_key on cards (set_name, name)",
    "create index idx_cards_name_nocase on cards (name collate nocase)",
    "create index idx_cards_source_id on cards (source_id)",
    "insert into cards_fts (cards_fts) values ('rebuild')",
    """create trigger cards_ai after insert on cards begin
  insert into cards_fts (rowid, name, text) values (new.rowid, new.name, new.text);
end""",
)


def run_hand(source: Path, db: Path) -> None:
    import csv
    import hashlib
    import json as json_module
    import sqlite3

    with source.open("rb") as raw:
        digest = hashlib.file_digest(raw, "sha256").hexdigest()
    conn = sqlite3.connect(db)
    conn.executescript(HAND_SCHEMA)

    def number(cell: str) -> int | None:
        return int(cell) if cell else None

    def items(cell: str) -> str:
        return json_module.dumps([item.strip() for item in cell.split(",") if item.strip()])

    def requirement(cell: str) -> str:
        counts = {}
        for clause in filter(None, (part.strip() for part in cell.split(","))):
            count, keyword = clause.split(" ", 1)
            counts[keyword] = int(count)
        return json_module.dumps(counts)

    with source.open(encoding="utf-8", newline="") as stream:
        rows = csv.reader(stream, delimiter="\t", quoting=csv.QUOTE_NONE)
        next(rows)
        source_id = conn.execute(
            "insert into sources (location, sha256) values (?, ?)", (str(source), digest)
        ).lastrowid
        run_id = conn.execute("insert into import_runs (started_at) values ('now')").lastrowid
        conn.executemany(
            "insert into cards values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', '', ?)",
            (
                (
                    *r[:5],
                    number(r[5]),
                    number(r[6]),
                    number(r[7]),
                    items(r[8]),
                    requirement(r[9]),
                    items(r[10]),
                    r[11],
                    r[12],
                    source_id,
                )
                for r in rows
            ),
        )
        for statement in HAND_AFTER_LOAD:
            conn.execute(statement)
        conn.execute(
            "insert into changes (run_id, set_name, name, action, fields) "
            "select ?, set_name, name, 'added', '{}' from cards",
            (run_id,),
        )
        count = conn.execute("select count(*) from cards").fetchone()[0]
        conn.execute("update sources set row_count = ? where id = ?", (count, source_id))
        conn.execute("update import_runs set added = ? where id = ?", (count, run_id))
    conn.commit()
    conn.close()


def run_zcards(source: Path, db: Path) -> None:
    from zcards.ingest.importer import import_sources

    import_sources(db, [str(source)])


RUNNERS = {"bare": run_bare, "hand": run_hand, "zcards": run_zcards}


def child(kind: str, source: Path, db: Path) -> None:
    if kind == "zcards":
        import zcards.ingest.importer  # noqa: F401 (module loading is not import work)
    started, cpu = time.perf_counter(), time.process_time()
    RUNNERS[kind](source, db)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": peak_rss()}))


def peak_rss() -> int:
    """This process's peak resident memory in bytes. Linux's VmHWM belongs to the process's
    own address space; ``ru_maxrss`` would start at the parent's peak after fork()."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --- the orchestra ------------------------------------------------------------------------


def measure(kind: str, source: Path, db: Path) -> dict[str, float]:
    command = [sys.executable, __file__, "--run", kind, str(source), str(db)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def fresh(path: Path) -> Path:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def measure_command(source: Path, db: Path) -> dict[str, float]:
    """``zcards import SOURCE --db DB`` as a user runs it: the whole process, start-up
    included (wall and CPU time; peak memory is measured by the in-process runs)."""
    command = [sys.executable, "-c", ZCARDS, "import", str(source), "--db", str(db)]
    env = installed_env()
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, cwd=db.parent, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {command}")
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "peak": 0.0}


def bench_size(rows: int, repeat: int, work: Path, realistic: bool) -> dict[str, dict[str, float]]:
    source = work / f"cards-{rows}.txt"
    (write_realistic_cards if realistic else write_cards)(source, rows)
    moved = work / f"moved-{rows}.txt"
    shutil.copyfile(source, moved)
    store = work / "store.db"  # what the re-imports find: these cards, from ``source``
    measure("zcards", source, fresh(store))
    found: dict[str, list[dict[str, float]]] = {}
    for _ in range(repeat):
        for kind in ("bare", "hand", "zcards"):
            result = measure(kind, source, fresh(work / f"{kind}.db"))
            found.setdefault(kind, []).append(result)
        found.setdefault("unchanged", []).append(measure("zcards", source, store))
        found.setdefault("command", []).append(measure_command(source, store))
        shutil.copyfile(store, fresh(work / "moved.db"))
        found.setdefault("moved", []).append(measure("zcards", moved, work / "moved.db"))
    source.unlink()
    moved.unlink()
    return {
        kind: {
            key: statistics.median(r[key] for r in results) for key in ("seconds", "cpu", "peak")
        }
        for kind, results in found.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cards", choices=("realistic", "synthetic"), default="realistic")
    parser.add_argument("--run", nargs=3, metavar=("KIND", "SOURCE", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        child(args.run[0], Path(args.run[1]), Path(args.run[2]))
        return
    results: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for rows in sorted(args.rows):
            results[rows] = bench_size(rows, args.repeat, Path(folder), args.cards == "realistic")
            report_size(rows, results[rows])
    report_growth(results)


def report_size(rows: int, result: dict[str, dict[str, float]]) -> None:
    print(f"\n{rows:,} rows (medians; cpu = the process's CPU time, steadier than wall time on")
    print("a shared machine; peak = the process's maximum resident memory)")
    for kind, label in [
        ("bare", "bare csv + executemany"),
        ("hand", "same schema by hand"),
        ("zcards", "zcards import (new db)"),
        ("moved", "zcards, same cards, new path"),
        ("unchanged", "zcards, unchanged file"),
        ("command", "zcards import, unchanged file"),
    ]:
        seconds, cpu = result[kind]["seconds"], result[kind]["cpu"]
        peak = f"{result[kind]['peak'] / 2**20:7.1f} MiB" if result[kind]["peak"] else ""
        print(f"  {label:30} {seconds:8.3f} s  cpu {cpu:7.3f} s  {peak}")
    for measure in ("seconds", "cpu"):
        bare, hand, zcards, moved = (
            result[kind][measure] for kind in ("bare", "hand", "zcards", "moved")
        )
        print(
            f"  {'wall' if measure == 'seconds' else 'cpu '} ratios: zcards / bare "
            f"{zcards / bare:.2f}x, zcards / hand {zcards / hand:.2f}x, "
            f"moved / fresh {moved / zcards:.2f}x"
        )


def report_growth(results: dict[int, dict[str, dict[str, float]]]) -> None:
    if len(results) < 2:
        return
    small, large = min(results), max(results)
    print(f"\ngrowth from {small:,} to {large:,} rows ({large / small:.0f}x the input)")
    for kind in ("bare", "hand", "zcards", "moved"):
        per_row = [results[n][kind]["cpu"] / n for n in (small, large)]
        peaks = [results[n][kind]["peak"] / 2**20 for n in (small, large)]
        print(
            f"  {kind:8} cpu time per row x{per_row[1] / per_row[0]:.2f}   "
            f"peak memory {peaks[0]:.0f} -> {peaks[1]:.0f} MiB (x{peaks[1] / peaks[0]:.2f})"
        )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
