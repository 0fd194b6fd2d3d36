"""Benchmark: a misclick log with a flavour-only card audits in linear time.

The log is ``bench_hostile_logs``' ``misclicks`` kind (Wound/Heal pairs undone at once on
Kyle Bjorn, each pair two readings) audited twice at each size: with the bundled set, and with
a copy in which Kyle Bjorn's text is flavour full of game words ("A steady hand with a
shotgun. Big, loud and hard to kill."). Flavour does nothing in the game, so it must add no
doubt and no cost: the script prints, per card set, seconds, lines/s and unverifiable findings,
then the ratio of time per line at the largest size to the smallest (1.0 is linear), and the
flavour set's time against the bundled set's at each size (the baseline of the same run).

Usage: ``python scripts/bench_flavour_misclicks.py [--sizes 5000,20000]``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import support_path  # noqa: F401  (puts tests/support on sys.path)
from bench_hostile_logs import measure

from zcards.resources import BUNDLED_SET

# isort: split
from support.faults.hostile import KINDS

FLAVOUR = "A steady hand with a shotgun. Big, loud and hard to kill."


def flavour_set(folder: Path) -> Path:
    """The bundled card data with Kyle Bjorn's text replaced by flavour."""
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    text, name = header.index("Text"), header.index("Name")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split("\t")
        if cells[name] == "Kyle Bjorn":
            cells[text] = FLAVOUR
        out.append("\t".join(cells))
    path = folder / "flavour.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,20000")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        sets = {"bundled": BUNDLED_SET, "flavour": flavour_set(folder)}
        seconds: dict[tuple[str, int], float] = {}
        print(f"{'cards':<8} {'lines':>7} {'seconds':>8} {'lines/s':>9} unverif.")
        for size in sizes:
            lines = KINDS["misclicks"](size)
            log = folder / f"misclicks-{size}.txt"
            log.write_text("\n".join(lines) + "\n", encoding="utf-8")
            for label, cards in sets.items():
                spent, _, _, unverifiable = measure(log, cards)
                seconds[label, len(lines)] = spent
                print(
                    f"{label:<8} {len(lines):>7} {spent:>8.2f} {len(lines) / spent:>9.0f}"
                    f" {unverifiable:>8}"
                )
        counts = sorted({n for _, n in seconds})
        small, large = counts[0], counts[-1]
        for label in sets:
            ratio = (seconds[label, large] / large) / (seconds[label, small] / small)
            print(f"{label}: time per line at {large} lines / at {small}: x{ratio:.2f}")
        for n in counts:
            print(
                f"{n} lines: flavour / bundled x{seconds['flavour', n] / seconds['bundled', n]:.2f}"
            )


if __name__ == "__main__":
    main()
