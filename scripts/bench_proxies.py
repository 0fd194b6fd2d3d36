"""Benchmark proxy sheets: time and peak memory at 100, 1,000 and 10,000 cards.

Each size runs in a fresh process; so does the baseline, a trivial WeasyPrint page to PDF
(the smallest unit of work a sheet costs), measured in the same run. Prints per size the wall
and CPU seconds (CPU includes the worker processes, and hardly moves when other work shares
the cores), each per sheet as a ratio to the baseline page, the peak memory of the process and
of its largest child process (the render workers, if any), and checks that the PDF has every
page; then the growth factors from the smallest to the largest size (x1.00: CPU per card and
memory do not grow).

With ``--baseline-tree DIR`` (another checkout, say of main) every size is also measured with
that checkout's zcards, interleaved, ``--rounds`` times each (medians), so before and after
meet the same load.

    python scripts/bench_proxies.py [--sizes 100,1000,10000] [--work DIR]
        [--baseline-tree DIR] [--rounds 1]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from render_bench_support import (
    Measured,
    baseline_child,
    cpu_seconds,
    growth,
    measure,
    report_child,
    start_child,
    synthetic_db,
)


def proxies_child(db: str, count: int) -> None:
    import pypdfium2

    from zcards.publish.proxies import write_proxies
    from zcards.store.db import iter_cards, open_db

    start_child()
    cards = list(iter_cards(open_db(db)))[:count]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "proxies.pdf"
        start, cpu = time.perf_counter(), cpu_seconds()
        report = write_proxies(cards, out)
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        pages = len(pypdfium2.PdfDocument(out))
    if pages != report.pages:
        raise SystemExit(f"the PDF has {pages} pages, the report says {report.pages}")
    report_child({"seconds": seconds, "cpu": cpu, "pages": pages})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--work", type=Path, help="keep the synthetic databases here")
    parser.add_argument("--baseline-tree", type=Path, help="also measure this checkout's zcards")
    parser.add_argument("--rounds", type=int, default=1, help="runs per size and checkout")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child[0] == "baseline":
            baseline_child()
        else:
            proxies_child(args.child[1], int(args.child[2]))
        return
    sizes = [int(size) for size in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as temp:
        work = args.work or Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        db = synthetic_db(work, max(sizes))
        baseline = measure(__file__, "baseline")
        page, page_cpu = baseline.result["seconds"], baseline.result["cpu"]
        print(
            f"baseline: trivial WeasyPrint page to PDF {page * 1000:.1f} ms "
            f"({page_cpu * 1000:.1f} ms CPU), process peak {baseline.peak_mib:.0f} MiB"
        )
        trees = {
            "": None,
            **({" (baseline tree)": args.baseline_tree} if args.baseline_tree else {}),
        }
        runs = {}
        for size in sizes:
            measured: dict[str, list[Measured]] = {label: [] for label in trees}
            for _ in range(args.rounds):  # interleaved: before and after meet the same load
                for label, tree in trees.items():
                    measured[label].append(
                        measure(__file__, "proxies", str(db), str(size), tree=tree)
                    )
            runs[size] = measured[""][0]
            for label, found in measured.items():
                seconds = statistics.median(run.result["seconds"] for run in found)
                cpu = statistics.median(run.result["cpu"] for run in found)
                sheets = found[0].result["pages"]
                print(
                    f"{size:>6} cards{label}, {sheets:>5} sheets: {seconds:7.1f} s ({cpu:7.1f} s "
                    f"CPU); per sheet {seconds / sheets / page:4.1f}x baseline page "
                    f"({cpu / sheets / page_cpu:4.1f}x CPU); peak {found[0].peak_mib:4.0f} MiB, "
                    f"largest child {found[0].workers_peak_mib:4.0f} MiB"
                    + (f" (medians of {len(found)})" if len(found) > 1 else "")
                )
    small, large = runs[min(sizes)], runs[max(sizes)]
    per_card = [
        run.result["cpu"] / size for size, run in ((min(sizes), small), (max(sizes), large))
    ]
    print(
        f"growth {min(sizes)} -> {max(sizes)} cards: CPU per card {growth(*per_card)}, "
        f"peak memory {growth(small.peak_mib, large.peak_mib)}, "
        f"largest process {growth(small.largest_mib, large.largest_mib)}"
    )


if __name__ == "__main__":
    main()
