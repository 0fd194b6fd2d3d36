"""Benchmark: proxy sheets (seconds per page) and card images (seconds per card).

Both are compared with a baseline measured in the same run on the same machine: WeasyPrint
rendering a trivial one-page HTML document to PDF, the smallest unit of work either path does.

    python scripts/bench_proxies.py [--repeat N] [--dpi 150]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import weasyprint

from zcards.cardface import render_card_images
from zcards.normalise import read_card_file
from zcards.proxies import write_proxies
from zcards.resources import BUNDLED_SET

TRIVIAL_PAGE = "<!DOCTYPE html><html><body><p>Hello, zombie.</p></body></html>"


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """Median wall time of ``repeat`` runs (after one warm-up run)."""
    work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args()

    cards = read_card_file(BUNDLED_SET)
    baseline = best_of(args.repeat * 5, lambda: weasyprint.HTML(string=TRIVIAL_PAGE).write_pdf())
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp)
        report = write_proxies(cards, out / "proxies.pdf")
        sheets = best_of(args.repeat, lambda: write_proxies(cards, out / "proxies.pdf"))
        with_backs = best_of(
            args.repeat, lambda: write_proxies(cards, out / "backs.pdf", backs=True)
        )
        images = best_of(
            args.repeat, lambda: render_card_images(cards, out / "images", dpi=args.dpi)
        )

    per_page = sheets / report.pages
    per_back_page = with_backs / (2 * report.pages)
    per_card = images / len(cards)
    print(f"bundled set: {len(cards)} cards, {report.pages} pages (Letter, poker, 9 per page)")
    print(f"baseline: WeasyPrint trivial page to PDF     {baseline * 1000:8.1f} ms")
    print(
        f"proxy sheets:      {per_page:6.3f} s/page  ({sheets:5.2f} s total) "
        f"= {per_page / baseline:5.1f} x baseline"
    )
    print(
        f"sheets with backs: {per_back_page:6.3f} s/page  ({with_backs:5.2f} s total) "
        f"= {per_back_page / baseline:5.1f} x baseline"
    )
    print(
        f"card images @{args.dpi}: {per_card * 1000:6.1f} ms/card ({images:5.2f} s total) "
        f"= {per_card / baseline:5.1f} x baseline"
    )


if __name__ == "__main__":
    main()
