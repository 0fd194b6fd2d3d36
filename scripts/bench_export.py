"""Benchmark the Lackey plugin export and the Lackey checksum.

Prints, from one run:
* the full export time of the bundled ``alpha`` set (card images included);
* the export time of a synthetic set (default 10,000 cards; images at --synthetic-dpi);
* card faces of the first --compare synthetic cards rendered in-process, then in worker
  processes (as the export renders big sets), with the speed-up and a byte-for-byte check;
* checksum throughput in MB/s against two baselines on the same bytes: ``hashlib.sha256``
  (C speed, the ceiling) and a plain Python byte-sum loop (what a naive port does).

Usage: python scripts/bench_export.py [--cards 10000] [--dpi 150] [--synthetic-dpi 30]
       [--compare 1000]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import tempfile
import time
from datetime import date
from pathlib import Path

from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.export import export_plugin
from zcards.cardface import PARALLEL_MIN, render_faces
from zcards.db import iter_cards, open_db
from zcards.importer import import_sources
from zcards.model import ZOMBIE_COLUMNS
from zcards.raster import cpu_count
from zcards.resources import BUNDLED_SET

RELEASE = date(2026, 1, 31)


def _timed(function, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def synthetic_card_file(path: Path, count: int) -> Path:
    """``count`` plausible Zombie CCG cards in one set (seeded: the same file every run)."""
    rng = random.Random(7)
    lines = ["\t".join(ZOMBIE_COLUMNS)]
    for index in range(count):
        zombie = rng.random() < 0.5
        text = " ".join(
            rng.choice(
                (
                    "Fast.",
                    "Tough.",
                    "Fierce.",
                    "Draw a card.",
                    "Gain 1 Food.",
                    "Heal a wound.",
                    "Infectious.",
                )
            )
            for _ in range(rng.randint(3, 12))
        )
        lines.append(
            "\t".join(
                [
                    f"Synthetic Card {index:05d}",
                    "synth",
                    f"synth{index:05d}",
                    "Zombie" if zombie else "Survivor",
                    rng.choice(("Rage", "Horde", "Contagion")),
                    "" if zombie else str(rng.randint(1, 4)),
                    str(rng.randint(1, 4)),
                    "" if zombie else str(rng.randint(1, 4)),
                    "",
                    "",
                    "",
                    rng.choice("CCCUUR"),
                    text,
                ]
            )
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def bench_export(work: Path, source: Path, dpi: int, decks) -> tuple[float, object]:
    db = work / f"{source.stem}.db"
    import_sources(db, [str(source)])
    return _timed(
        export_plugin,
        db,
        work / f"{source.stem}-out",
        release=RELEASE,
        dpi=dpi,
        base_url="https://example.org/zombieccg/",
        decks=decks,
    )


def bench_faces(work: Path, db: Path, count: int, dpi: int) -> None:
    cards = list(iter_cards(open_db(db)))[:count]
    serial, _ = _timed(render_faces, cards, work / "faces-serial", dpi=dpi, workers=1)
    parallel, _ = _timed(render_faces, cards, work / "faces-parallel", dpi=dpi)
    same = all(
        path.read_bytes() == (work / "faces-parallel" / path.name).read_bytes()
        for path in (work / "faces-serial").iterdir()
    )
    mode = f"{cpu_count()} worker processes" if len(cards) >= PARALLEL_MIN else "in-process"
    print(
        f"card faces: {len(cards)} cards at {dpi} dpi: in-process {serial:.1f} s, "
        f"default ({mode}) {parallel:.1f} s = {serial / parallel:.2f}x; "
        f"byte-identical: {'yes' if same else 'NO'}"
    )


def byte_sum(data: bytes) -> int:
    total = 0
    for byte in data:
        if byte not in (10, 13):
            total += byte - 256 if byte >= 128 else byte
    return total


def bench_checksum(megabytes: int) -> None:
    rng = random.Random(3)
    data = bytes(rng.getrandbits(8) for _ in range(1 << 16)) * (megabytes * 16)
    size = len(data) / 1e6
    rates = {}
    for label, function in (
        ("lackey checksum", checksum_bytes),
        ("hashlib.sha256", lambda d: hashlib.sha256(d).digest()),
        ("plain byte-sum loop", byte_sum),
    ):
        seconds, _ = _timed(function, data)
        rates[label] = size / seconds
        print(f"  {label:<20} {rates[label]:10.1f} MB/s")
    print(
        f"  checksum / sha256 = {rates['lackey checksum'] / rates['hashlib.sha256']:.2f}x; "
        f"checksum / byte-sum loop = "
        f"{rates['lackey checksum'] / rates['plain byte-sum loop']:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--synthetic-dpi", type=int, default=30)
    parser.add_argument("--compare", type=int, default=1000)
    parser.add_argument("--megabytes", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        seconds, report = bench_export(work, BUNDLED_SET, args.dpi, None)
        print(
            f"bundled set: {report.cards} cards, {report.files} files, {report.bytes / 1e6:.1f}"
            f" MB at {args.dpi} dpi in {seconds:.1f} s ({seconds / report.cards * 1000:.0f}"
            " ms/card)"
        )
        source = synthetic_card_file(work / "synthetic.txt", args.cards)
        seconds, report = bench_export(work, source, args.synthetic_dpi, [])
        card_files = len(list((report.plugin_dir / "sets").glob("*.txt")))
        print(
            f"synthetic set: {report.cards} cards ({card_files} card files under 1 MB), "
            f"{report.files} files at {args.synthetic_dpi} dpi in {seconds:.1f} s "
            f"({seconds / report.cards * 1000:.0f} ms/card)"
        )
        if args.compare:
            bench_faces(work, work / "synthetic.db", args.compare, args.synthetic_dpi)
    print(f"checksum throughput on {args.megabytes} MB:")
    bench_checksum(args.megabytes)


if __name__ == "__main__":
    main()
