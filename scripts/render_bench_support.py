"""What the rendering benchmarks (bench_export.py, bench_proxies.py) share.

Every measurement runs in a fresh child process, so its peak memory is its own: the parent
reads it with ``wait4``, and the child reports the peak of its own worker processes
(``RUSAGE_CHILDREN``). The baseline is a trivial WeasyPrint page, measured the same way in the
same run, so ratios compare like with like on a loaded machine.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from zcards.model import ZOMBIE_COLUMNS

TRIVIAL_PAGE = "<!DOCTYPE html><html><body><p>Hello, zombie.</p></body></html>"
_KIB = 1 << 20 if sys.platform == "darwin" else 1 << 10  # ru_maxrss unit: bytes on macOS


@dataclass(frozen=True)
class Measured:
    result: dict
    peak_mib: float  # the child process itself
    workers_peak_mib: float  # its largest child: a render worker, else WeasyPrint's gcc/ld

    @property
    def largest_mib(self) -> float:
        """The peak of the largest single process: what one renderer needs."""
        return max(self.peak_mib, self.workers_peak_mib)


def synthetic_card_file(path: Path, count: int) -> Path:
    """``count`` plausible Zombie CCG cards in one set (seeded: the same file every run)."""
    rng = random.Random(7)
    phrases = ("Fast.", "Tough.", "Fierce.", "Draw a card.", "Gain 1 Food.", "Heal a wound.")
    lines = ["\t".join(ZOMBIE_COLUMNS)]
    for index in range(count):
        zombie = rng.random() < 0.5
        text = " ".join(rng.choice(phrases) for _ in range(rng.randint(3, 12)))
        cost, health = ("", "") if zombie else (str(rng.randint(1, 4)), str(rng.randint(1, 4)))
        faction = rng.choice(("Rage", "Horde", "Contagion"))
        kind = "Zombie" if zombie else "Survivor"
        row = [f"Synthetic Card {index:05d}", "synth", f"synth{index:05d}", kind, faction, cost]
        row += [str(rng.randint(1, 4)), health, "", "", "", rng.choice("CCCUUR"), text]
        lines.append("\t".join(row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def synthetic_db(folder: Path, count: int) -> Path:
    from zcards.importer import import_sources

    db = folder / f"synthetic-{count}.db"
    if not db.exists():
        import_sources(db, [str(synthetic_card_file(folder / f"synthetic-{count}.txt", count))])
    return db


def measure(script: str, *args: str) -> Measured:
    """Run ``script --child ARGS`` and read its JSON line and peak memory."""
    command = [sys.executable, script, "--child", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {process.returncode}")
    result = json.loads(output.strip().splitlines()[-1])
    return Measured(result, usage.ru_maxrss / _KIB, result.pop("workers_peak_mib", 0.0))


def report_child(result: dict) -> None:
    """The child's last line: its result and the peak memory of its worker processes."""
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / _KIB
    print(json.dumps({**result, "workers_peak_mib": workers}), flush=True)


def baseline_child(repeat: int = 15) -> None:
    """Median seconds for a trivial WeasyPrint page to PDF (after one warm-up)."""
    import weasyprint

    weasyprint.HTML(string=TRIVIAL_PAGE).write_pdf()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        weasyprint.HTML(string=TRIVIAL_PAGE).write_pdf()
        times.append(time.perf_counter() - start)
    report_child({"seconds": statistics.median(times)})


def growth(small: float, large: float) -> str:
    return f"x{large / small:.2f}" if small else "n/a"
