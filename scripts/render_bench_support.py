"""What the rendering benchmarks (bench_export.py, bench_proxies.py) share.

Every measurement runs in a fresh child process. Peak memory is read from Linux's ``VmHWM``
(the high-water mark of the process's *own* memory): ``ru_maxrss`` would not do, as a process
inherits the peak of whatever spawned it (it is kept across ``execve``). The child reports its
own peak and that of its largest child process (the render workers, sampled every 0.2 s while
they run). The baseline is a trivial WeasyPrint page, measured the same way in the same run, so
ratios compare like with like on a loaded machine. ``--baseline-tree`` runs the same
measurements with another checkout's zcards (``git worktree add ../base main``), interleaved,
so before and after meet the same load.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from zcards.cards.model import ZOMBIE_COLUMNS

TRIVIAL_PAGE = "<!DOCTYPE html><html><body><p>Hello, zombie.</p></body></html>"
_children_peak = 0.0


@dataclass(frozen=True)
class Measured:
    result: dict
    peak_mib: float  # the child process itself
    workers_peak_mib: float  # its largest child: a render worker, else WeasyPrint's gcc/ld

    @property
    def largest_mib(self) -> float:
        """The peak of the largest single process: what one renderer needs."""
        return max(self.peak_mib, self.workers_peak_mib)


def peak_mib(pid: int | str = "self") -> float:
    """The process's own memory high-water mark (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _sample_children() -> None:
    global _children_peak
    me = str(os.getpid())
    while True:
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
            except OSError:
                continue
            if stat and stat.rsplit(")", 1)[1].split()[1] == me:
                _children_peak = max(_children_peak, peak_mib(entry.name))
        time.sleep(0.2)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the workers): unlike wall
    time, it hardly changes when other work shares the machine's cores."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def start_child() -> None:
    """In a child: start watching the memory of its own child processes."""
    if not Path("/proc/self/status").exists():
        raise SystemExit("the rendering benchmarks read memory from Linux's /proc")
    threading.Thread(target=_sample_children, daemon=True).start()


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
    from zcards.ingest.importer import import_sources

    db = folder / f"synthetic-{count}.db"
    if not db.exists():
        import_sources(db, [str(synthetic_card_file(folder / f"synthetic-{count}.txt", count))])
    return db


def measure(script: str, *args: str, tree: Path | None = None) -> Measured:
    """Run ``script --child ARGS`` and read its JSON line (result and peaks).

    ``tree``: run the zcards of that checkout instead of this one (say, of the main branch, to
    compare before and after in one run). Either way the child starts with an empty render
    cache of its own, so every measurement draws what it renders.
    """
    command = [sys.executable, script, "--child", *args]
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as cache:
        env = {**os.environ, "ZCARDS_CACHE": cache}
        if tree is not None:
            env["PYTHONPATH"] = str(tree.resolve())
        finished = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False, env=env)
    if finished.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit code {finished.returncode}")
    result = json.loads(finished.stdout.strip().splitlines()[-1])
    return Measured(result, result.pop("peak_mib"), result.pop("workers_peak_mib"))


def report_child(result: dict) -> None:
    """The child's last line: its result, its own peak and its largest child's."""
    peaks = {"peak_mib": peak_mib(), "workers_peak_mib": _children_peak}
    print(json.dumps({**result, **peaks}), flush=True)


def baseline_child(repeat: int = 15) -> None:
    """Median wall and CPU seconds for a trivial WeasyPrint page to PDF (after a warm-up)."""
    import weasyprint

    start_child()
    weasyprint.HTML(string=TRIVIAL_PAGE).write_pdf()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), cpu_seconds()
        weasyprint.HTML(string=TRIVIAL_PAGE).write_pdf()
        walls.append(time.perf_counter() - wall)
        cpus.append(cpu_seconds() - cpu)
    report_child({"seconds": statistics.median(walls), "cpu": statistics.median(cpus)})


def growth(small: float, large: float) -> str:
    return f"x{large / small:.2f}" if small else "n/a"


def synthetic_art(folder: Path, stems: Sequence[str], size: tuple[int, int] = (1200, 900)) -> Path:
    """A JPEG picture per name in ``stems`` (``<stem>.jpg``, seeded shapes: the same files every
    run), larger than the art box, as artists deliver them."""
    folder.mkdir(parents=True, exist_ok=True)
    for index, stem in enumerate(stems):
        rng = random.Random(index)
        image = Image.new("RGB", size, tuple(rng.randrange(40, 200) for _ in range(3)))
        draw = ImageDraw.Draw(image)
        for _ in range(12):
            x, y = rng.randrange(size[0]), rng.randrange(size[1])
            radius = rng.randrange(40, 300)
            colour = tuple(rng.randrange(256) for _ in range(3))
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
        image.save(folder / f"{stem}.jpg", "JPEG", quality=88)
    return folder
