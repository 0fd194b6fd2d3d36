"""Search speed at 10k, 100k and 1M cards against hand-written SQL that shares no zcards plan.

For each size a synthetic database is built (the zcards schema and indexes) and each query
runs three ways in the same process, timed alternately (median of ``--repeat``):

* ``rows``: ``zcards.query.search.search_rows`` (parse, compile, execute, lazy ``CardRow`` objects);
* ``cards``: ``zcards.query.search.search`` (the same, every row decoded into a ``Card``);
* ``hand``: the baseline, a hand-written ``SELECT ... WHERE`` with the same meaning and no
  ORDER BY (no planner tricks at all), its rows built into the same ``CardRow`` objects and
  sorted by (name, set) in Python, then cut to the same page.

Both must return the same rows. Printed: milliseconds, the ratios rows/hand and cards/hand,
and per query the growth factor: time at the largest size over the smallest, divided by the
growth in cards (1.0 = linear). Every size and way of one query is timed in one rotation, so
machine load falls on all of them alike.

    python scripts/bench_query.py [--sizes 10000,100000,1000000] [--repeat 5] [--db-dir DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from operator import itemgetter
from pathlib import Path

import sqlite_utils

from zcards.cards.model import FACTIONS, KEYWORDS, RARITIES, SYMBOLS, Card
from zcards.query.search import register_functions, search, search_rows
from zcards.store.rows import SELECT_COLUMNS, CardRow
from zcards.store.schema import CARD_COLUMNS, ensure_schema

ADJECTIVES = ["Gross", "Rotting", "Hungry", "Glowing", "Frenzied", "Silent", "Bloated", "Grim"]
NOUNS = ["Ghoul", "Shambler", "Walker", "Corpse", "Medic", "Trucker", "Axe", "Bandage", "Crawler"]
PHRASES = [
    "Put a wound on a survivor.",
    "When it moves to the combat zone, ready it.",
    "Gain 1 Food when you Recoup.",
    "It gets +1 power while fighting a wounded survivor.",
    "Spend it: heal one wound.",
    "Look at the top card of your deck.",
    "Graveyard shift never ends.",
]
SETS = ["alpha", "beta", "gamma", "delta"]


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


def synthetic_card(number: int, rng: random.Random) -> Card:
    kind = rng.choice(["Zombie", "Survivor", "Item"])
    return Card(
        name=synthetic_name(number),
        set_name=SETS[number % len(SETS)],
        image_file=f"card{number}",
        type=kind,
        faction=rng.choice(FACTIONS) if kind == "Zombie" else "",
        cost=None if kind == "Zombie" else rng.randint(0, 5),
        power=rng.randint(0, 5),
        health=rng.randint(1, 4) if kind == "Survivor" else None,
        keywords=tuple(rng.sample(KEYWORDS, rng.randint(0, 2))) if kind == "Zombie" else (),
        requirements={rng.choice(KEYWORDS): rng.randint(1, 3)} if rng.random() < 0.2 else {},
        symbols=tuple(rng.sample(SYMBOLS, rng.randint(0, 1))) if kind == "Survivor" else (),
        rarity=rng.choice(RARITIES),
        text=" ".join(rng.sample(PHRASES, 2)),
    )


def build_database(path: Path, count: int) -> sqlite_utils.Database:
    """The database at ``path``, built unless it already holds ``count`` cards."""
    db = sqlite_utils.Database(path)
    ensure_schema(db)
    if db["cards"].count == count:
        return db
    rng = random.Random(20260101)
    insert = (
        f"insert into cards ({', '.join(CARD_COLUMNS)}) "
        f"values ({', '.join('?' * len(CARD_COLUMNS))})"
    )
    with db.conn:  # the full-text index is filled by the schema's insert trigger
        for start in range(0, count, 50_000):
            rows = []
            for number in range(start, min(count, start + 50_000)):
                row = synthetic_card(number, rng).to_row()
                rows.append([row.get(column) for column in CARD_COLUMNS])
            db.conn.executemany(insert, rows)
    db.execute("ANALYZE")
    return db


def paired_medians(runs: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median ms of each callable, run in rotating order so machine load hits all alike."""
    for run in runs:
        run()  # warm the page cache and the statement cache
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


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="10000,100000,1000000")
    options.add_argument("--repeat", type=int, default=5)
    options.add_argument("--db-dir", type=Path, help="Keep (and reuse) the databases here.")
    args = options.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.db_dir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        databases = []
        for size in sizes:
            started = time.perf_counter()
            databases.append(build_database(folder / f"bench-{size}.db", size))
            register_functions(databases[-1].conn)
            print(f"{size:,} cards: database ready in {time.perf_counter() - started:.1f} s")
        # query -> size -> (rows, rows ms, cards ms, hand ms); every size and way of one query
        # is timed in one rotation, so machine load hits them alike.
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
            medians = paired_medians(runs, args.repeat)
            results[query] = [
                (count, *medians[3 * index : 3 * index + 3])  # type: ignore[misc]
                for index, count in enumerate(counts)
            ]
    for index, size in enumerate(sizes):
        print(f"\n{size:,} cards")
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


if __name__ == "__main__":
    main()
