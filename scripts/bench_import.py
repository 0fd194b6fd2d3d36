"""Import speed on a synthetic 100,000-row card file, next to a bare sqlite3 executemany.

The baseline reads the same file, splits lines and tabs, and inserts the raw rows with one
``executemany`` into a plain 13-column table: the floor any importer pays. zcards additionally
validates and normalises every field, diffs against the database, keeps the full-text index
and writes provenance and the change log, all in one transaction.

    python scripts/bench_import.py [--rows N]
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import time
from pathlib import Path

from zcards.importer import import_sources
from zcards.model import FACTIONS, KEYWORDS, RARITIES, SYMBOLS, ZOMBIE_COLUMNS


def synthetic_rows(count: int) -> list[list[str]]:
    """Valid, varied Zombie CCG cards with unique names."""
    rows = []
    for index in range(count):
        faction = FACTIONS[index % len(FACTIONS)]
        keyword = KEYWORDS[index % len(KEYWORDS)]
        rarity = RARITIES[index % len(RARITIES)]
        if index % 3 == 0:
            fields = ["Survivor", "", str(index % 5), str(index % 4), str(1 + index % 3), "", ""]
            fields.append(SYMBOLS[index % 2] if index % 2 else "")
        else:
            requirement = f"{1 + index % 3} {KEYWORDS[(index + 1) % len(KEYWORDS)]}"
            fields = ["Zombie", faction, "", str(1 + index % 4), "", keyword, requirement, ""]
        text = f"Recoup - gain {index % 3} food. Card number {index} of the benchmark set."
        name, image = f"Bench Card {index:06d}", f"bench{index:06d}"
        rows.append([name, "bench", image, *fields, rarity, text])
    return rows


def bare_executemany(path: Path, db_path: Path) -> float:
    started = time.perf_counter()
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines[1:]]
    conn = sqlite3.connect(db_path)
    columns = ", ".join(f'"{c}"' for c in ZOMBIE_COLUMNS)
    conn.execute(f"create table cards ({columns})")
    conn.executemany(f"insert into cards values ({', '.join('?' * len(ZOMBIE_COLUMNS))})", rows)
    conn.commit()
    conn.close()
    return time.perf_counter() - started


def zcards_import(path: Path, db_path: Path) -> tuple[float, int]:
    started = time.perf_counter()
    report = import_sources(db_path, [str(path)])
    return time.perf_counter() - started, len(report.added)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    count = parser.parse_args().rows
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        source = work / "bench.txt"
        lines = ["\t".join(ZOMBIE_COLUMNS), *("\t".join(r) for r in synthetic_rows(count))]
        source.write_text("\n".join(lines) + "\n", encoding="utf-8")
        # Each side is timed twice, interleaved, and the best run counts: machine noise.
        bare = [bare_executemany(source, work / "bare1.db")]
        first, added = zcards_import(source, work / "zcards1.db")
        again, _ = zcards_import(source, work / "zcards1.db")
        bare.append(bare_executemany(source, work / "bare2.db"))
        second, _ = zcards_import(source, work / "zcards2.db")
        baseline, elapsed = min(bare), min(first, second)
        size = source.stat().st_size
    assert added == count, f"imported {added} of {count} rows"
    print(f"rows: {count:,} ({size:,} bytes)")
    print(f"bare sqlite3 executemany: {baseline:7.2f} s  {count / baseline:>10,.0f} rows/s")
    print(f"zcards import (new db):   {elapsed:7.2f} s  {count / elapsed:>10,.0f} rows/s")
    print(f"zcards re-import (same):  {again:7.2f} s  {count / again:>10,.0f} rows/s")
    ratios = f"{elapsed / baseline:.1f}x slower (re-import {again / baseline:.1f}x)"
    print(f"ratio zcards / bare: {ratios}")


if __name__ == "__main__":
    main()
