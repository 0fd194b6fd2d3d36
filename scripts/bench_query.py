"""Benchmark: zcards's compiled search SQL against the same queries written by hand.

Builds a 100,000-card synthetic database, runs 20 representative queries both ways in the
same process (zcards: parse + compile + execute; baseline: execute hand-written SQL with the
same meaning), checks both return the same cards, and prints median latencies and ratios.

    python scripts/bench_query.py [--cards 100000] [--repeat 9]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import sqlite_utils

from zcards.db import ensure_schema
from zcards.model import FACTIONS, KEYWORDS, RARITIES, SYMBOLS, Card
from zcards.query import order_by, prepare, register_functions

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


FTS = "rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH {})"
# zcards query -> hand-written WHERE clause with the same meaning (all matching ignores case).
QUERIES: list[tuple[str, str]] = [
    ("ghoul", "rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH 'ghoul*')"),
    ('"combat zone"', FTS.format("'\"combat zone\"'")),
    ("name:ghoul", "name LIKE '%ghoul%'"),
    (f'name="{synthetic_name(4242)}"', f"name = '{synthetic_name(4242)}' COLLATE NOCASE"),
    ("o:wound", "text LIKE '%wound%'"),
    ("t:zombie", "type = 'Zombie' COLLATE NOCASE"),
    ("f:horde pow<=2", "faction = 'Horde' COLLATE NOCASE AND power <= 2"),
    ("k:fast", "EXISTS (SELECT 1 FROM json_each(keywords) WHERE value = 'Fast' COLLATE NOCASE)"),
    ("k:fast k:tough",
     "EXISTS (SELECT 1 FROM json_each(keywords) WHERE value = 'Fast' COLLATE NOCASE)"
     " AND EXISTS (SELECT 1 FROM json_each(keywords) WHERE value = 'Tough' COLLATE NOCASE)"),
    ("t:zombie -k:fast",
     "type = 'Zombie' COLLATE NOCASE"
     " AND NOT EXISTS (SELECT 1 FROM json_each(keywords) WHERE value = 'Fast' COLLATE NOCASE)"),
    ("(f:rage or f:horde) pow>=3",
     "(faction = 'Rage' COLLATE NOCASE OR faction = 'Horde' COLLATE NOCASE) AND power >= 3"),
    ("r:rare", "rarity = 'R' COLLATE NOCASE"),
    ("sym:medic hp>=3",
     "EXISTS (SELECT 1 FROM json_each(symbols) WHERE value = 'Medic' COLLATE NOCASE)"
     " AND health >= 3"),
    ("req:fast",
     "EXISTS (SELECT 1 FROM json_each(requirements) WHERE key = 'Fast' COLLATE NOCASE)"),
    ("/^gr/", "(name REGEXP '^gr' OR text REGEXP '^gr')"),
    ("name:/ghoul \\d+7$/", "name REGEXP 'ghoul \\d+7$'"),
    ("t:survivor -sym:medic hp<=2",
     "type = 'Survivor' COLLATE NOCASE AND health <= 2"
     " AND NOT EXISTS (SELECT 1 FROM json_each(symbols) WHERE value = 'Medic' COLLATE NOCASE)"),
    ("set:beta t:item cost=1",
     "set_name = 'beta' COLLATE NOCASE AND type = 'Item' COLLATE NOCASE AND cost = 1"),
    ("wounded survivor cost>=2", FTS.format("'wounded* survivor*'") + " AND cost >= 2"),
    ("ghoul or shambler -f:weird",
     "rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH 'ghoul*')"
     " OR (rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH 'shambler*')"
     " AND faction <> 'Weird' COLLATE NOCASE)"),
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
    rng = random.Random(20260101)
    db = sqlite_utils.Database(path)
    ensure_schema(db)
    db["cards"].insert_all(
        (synthetic_card(n, rng).to_row() for n in range(count)), batch_size=10000
    )
    db.execute("ANALYZE")
    return db


def paired_medians(first, second, repeat: int) -> tuple[float, float]:
    """Median ms of two callables, timed alternately so machine load hits both alike."""
    first(), second()  # warm the page cache and the statement cache
    timings: tuple[list[float], list[float]] = ([], [])
    for round_number in range(repeat):
        order = (0, 1) if round_number % 2 == 0 else (1, 0)
        for which in order:
            start = time.perf_counter()
            (first, second)[which]()
            timings[which].append((time.perf_counter() - start) * 1000)
    return statistics.median(timings[0]), statistics.median(timings[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        db = build_database(Path(folder) / "bench.db", args.cards)
        print(f"built {args.cards:,} cards in {time.perf_counter() - started:.1f} s")
        register_functions(db.conn)
        order, _ = order_by(db, None)

        def zcards_run(query: str) -> list:
            where, params = prepare(db, query)
            sql = f"SELECT cards.* FROM cards WHERE {where} ORDER BY {order}"
            return db.execute(sql, params).fetchall()

        def hand_run(where: str) -> list:
            return db.execute(
                f"SELECT * FROM cards WHERE {where} ORDER BY name, set_name"
            ).fetchall()

        print(f"{'query':34} {'rows':>7} {'zcards ms':>10} {'hand ms':>9} {'ratio':>6}")
        ratios, totals = [], [0.0, 0.0]
        for query, where in QUERIES:
            ours, theirs = zcards_run(query), hand_run(where)
            if ours != theirs:
                raise SystemExit(f"{query!r}: {len(ours)} rows, hand-written SQL {len(theirs)}")
            z, h = paired_medians(
                lambda q=query: zcards_run(q), lambda w=where: hand_run(w), args.repeat
            )
            ratios.append(z / h)
            totals[0] += z
            totals[1] += h
            print(f"{query:34} {len(ours):>7} {z:>10.2f} {h:>9.2f} {z / h:>6.2f}")
        print(
            f"median ratio {statistics.median(ratios):.2f}x, worst {max(ratios):.2f}x, "
            f"total {totals[0]:.1f} ms vs {totals[1]:.1f} ms = {totals[0] / totals[1]:.2f}x "
            "(target <= 1.5x)"
        )


if __name__ == "__main__":
    main()
