"""Benchmark the Lackey plugin export: card faces at 100, 1,000 and 10,000 cards, the whole
export of the bundled set, ``zcards build`` of it with art, and the Lackey checksum.

* Card faces (the export's slow part) of the first N synthetic cards, each size in a fresh
  process: wall and CPU seconds (CPU includes the worker processes, and hardly moves when
  other work shares the cores), each per face as a ratio to the baseline (a trivial WeasyPrint
  page to PDF, measured in the same run), the peak memory of the process and of its largest
  worker, then the growth factors from the smallest to the largest size (x1.00: CPU per face
  and memory do not grow);
* the full export of the bundled ``alpha`` set (card images included);
* ``zcards build`` of the bundled set with an art folder (100 seeded pictures, 1200 x 900):
  CPU and wall seconds of a first build (empty render cache) and of a rebuild (nothing
  changed), medians of ``--rounds`` rounds;
* checksum throughput in MB/s against two baselines on the same bytes: ``hashlib.sha256``
  (C speed, the ceiling) and a plain Python byte-sum loop (what a naive port does).

With ``--baseline-tree DIR`` (another checkout, say of main: ``git worktree add ../base
main``) the card faces and the build are also measured with that checkout's zcards, in the
same run; a baseline without ``--art`` builds without art.

Usage: python scripts/bench_export.py [--sizes 100,1000,10000] [--dpi 150] [--work DIR]
           [--baseline-tree DIR] [--rounds 3] [--only faces,export,build,checksum]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import random
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from render_bench_support import (
    baseline_child,
    cpu_seconds,
    growth,
    measure,
    report_child,
    start_child,
    synthetic_art,
    synthetic_db,
)

RELEASE = date(2026, 1, 31)


def faces_child(db: str, count: int, dpi: int) -> None:
    from zcards.publish.cardface import render_faces
    from zcards.store.db import iter_cards, open_db

    start_child()
    cards = list(iter_cards(open_db(db)))[:count]
    with tempfile.TemporaryDirectory() as folder:
        start, cpu = time.perf_counter(), cpu_seconds()
        render_faces(cards, folder, dpi=dpi)
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        written = len(list(Path(folder).glob("*.jpg")))
    if written != count:
        raise SystemExit(f"{written} card images for {count} cards")
    report_child({"seconds": seconds, "cpu": cpu})


def build_child(out: str, art: str) -> None:
    """A first build into ``out`` (the render cache is empty), then a rebuild."""
    from zcards.publish.build import build

    start_child()
    with_art = "art_dir" in inspect.signature(build).parameters  # a baseline may predate it
    options: dict[str, Any] = {"art_dir": art} if with_art else {}
    result: dict[str, object] = {"art": with_art}
    for name in ("first", "again"):
        start, cpu = time.perf_counter(), cpu_seconds()
        build(out, **options)
        result[name] = {"seconds": time.perf_counter() - start, "cpu": cpu_seconds() - cpu}
    report_child(result)


def bench_build(work: Path, rounds: int, baseline: Path | None) -> None:
    from zcards.cards.normalise import read_card_file
    from zcards.resources import BUNDLED_SET

    art = synthetic_art(work / "art", [card.image_file for card in read_card_file(BUNDLED_SET)])
    trees = {"this checkout": None, **({f"baseline {baseline}": baseline} if baseline else {})}
    runs: dict[str, list[dict]] = {label: [] for label in trees}
    for round_ in range(rounds):  # interleaved: before and after meet the same load
        for label, tree in trees.items():
            out = work / f"build-{round_}-{len(runs[label])}-{hash(label) & 0xFFFF}"
            runs[label].append(measure(__file__, "build", str(out), str(art), tree=tree).result)
    for label, results in runs.items():
        art_note = "with art" if results[0]["art"] else "without art (no --art there)"
        parts = []
        for name in ("first", "again"):
            cpu = statistics.median(r[name]["cpu"] for r in results)
            wall = statistics.median(r[name]["seconds"] for r in results)
            parts.append(f"{name} build {cpu:5.2f} s CPU ({wall:5.2f} s wall)")
        print(f"zcards build, bundled set {art_note}, {label}: " + "; ".join(parts))


def bench_faces(work: Path, sizes: list[int], dpi: int, baseline: Path | None) -> None:
    db = synthetic_db(work, max(sizes))
    reference = measure(__file__, "baseline")
    page, page_cpu = reference.result["seconds"], reference.result["cpu"]
    print(
        f"baseline: trivial WeasyPrint page to PDF {page * 1000:.1f} ms "
        f"({page_cpu * 1000:.1f} ms CPU), process peak {reference.peak_mib:.0f} MiB"
    )
    runs = {}
    trees = {"": None, **({" (baseline tree)": baseline} if baseline else {})}
    for size in sizes:
        for label, tree in trees.items():
            run = measure(__file__, "faces", str(db), str(size), str(dpi), tree=tree)
            if tree is None:
                runs[size] = run
            seconds, cpu = run.result["seconds"], run.result["cpu"]
            print(
                f"card faces @{dpi} dpi {size:>6}{label}: {seconds:7.1f} s ({cpu:7.1f} s CPU); "
                f"per face {seconds / size / page:4.1f}x baseline page "
                f"({cpu / size / page_cpu:4.1f}x CPU); peak {run.peak_mib:4.0f} MiB, "
                f"largest worker {run.workers_peak_mib:4.0f} MiB"
            )
    small, large = runs[min(sizes)], runs[max(sizes)]
    per_face = [runs[size].result["cpu"] / size for size in (min(sizes), max(sizes))]
    print(
        f"growth {min(sizes)} -> {max(sizes)} faces: CPU per face {growth(*per_face)}, "
        f"peak memory {growth(small.peak_mib, large.peak_mib)}, "
        f"largest process {growth(small.largest_mib, large.largest_mib)}"
    )


def bench_bundled_export(work: Path, dpi: int) -> None:
    from zcards.ingest.importer import import_sources
    from zcards.publish.plugin_export import export_plugin
    from zcards.resources import BUNDLED_SET

    db = work / "alpha.db"
    import_sources(db, [str(BUNDLED_SET)])
    start = time.perf_counter()
    report = export_plugin(
        db, work / "alpha-out", release=RELEASE, dpi=dpi, base_url="https://example.org/zombieccg/"
    )
    seconds = time.perf_counter() - start
    print(
        f"bundled set export: {report.cards} cards, {report.files} files, "
        f"{report.bytes / 1e6:.1f} MB at {dpi} dpi in {seconds:.1f} s "
        f"({seconds / report.cards * 1000:.0f} ms/card)"
    )


def byte_sum(data: bytes) -> int:
    total = 0
    for byte in data:
        if byte not in (10, 13):
            total += byte - 256 if byte >= 128 else byte
    return total


def bench_checksum(megabytes: int) -> None:
    from lackey_plugin.checksum import checksum_bytes

    rng = random.Random(3)
    data = bytes(rng.getrandbits(8) for _ in range(1 << 16)) * (megabytes * 16)
    size = len(data) / 1e6
    rates = {}
    print(f"checksum throughput on {megabytes} MB:")
    for label, function in (
        ("lackey checksum", checksum_bytes),
        ("hashlib.sha256", lambda d: hashlib.sha256(d).digest()),
        ("plain byte-sum loop", byte_sum),
    ):
        start = time.perf_counter()
        function(data)
        rates[label] = size / (time.perf_counter() - start)
        print(f"  {label:<20} {rates[label]:10.1f} MB/s")
    print(
        f"  checksum / sha256 = {rates['lackey checksum'] / rates['hashlib.sha256']:.2f}x; "
        f"checksum / byte-sum loop = "
        f"{rates['lackey checksum'] / rates['plain byte-sum loop']:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--megabytes", type=int, default=32)
    parser.add_argument("--work", type=Path, help="keep the synthetic databases here")
    parser.add_argument("--baseline-tree", type=Path, help="also measure this checkout's zcards")
    parser.add_argument("--rounds", type=int, default=3, help="builds per checkout (median)")
    parser.add_argument("--only", default="faces,export,build,checksum")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child[0] == "baseline":
            baseline_child()
        elif args.child[0] == "build":
            build_child(args.child[1], args.child[2])
        else:
            faces_child(args.child[1], int(args.child[2]), int(args.child[3]))
        return
    parts = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as temp:
        work = args.work or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        if "faces" in parts:
            sizes = [int(size) for size in args.sizes.split(",")]
            bench_faces(work, sizes, args.dpi, args.baseline_tree)
        if "export" in parts:
            with tempfile.TemporaryDirectory() as export_work:
                bench_bundled_export(Path(export_work), args.dpi)
        if "build" in parts:
            bench_build(work, args.rounds, args.baseline_tree)
    if "checksum" in parts:
        bench_checksum(args.megabytes)


if __name__ == "__main__":
    main()
