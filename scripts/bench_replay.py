"""The replay page of a long game: how big the file is and how fast Chromium opens it.

Simulated games (``zcards simulate``, greedy against random) are joined into one log of at
least N lines (a rematch after each game, as a log of an evening's play), then:

* ``zcards replay``, as a child process: the audit with a table after every line, and the
  page written; its wall time and its peak memory (flat in the log's length is the target);
* the page's size (no card images);
* opening it in the system's Chromium (playwright): from navigation until the page's script
  has drawn the first line (``body[data-ready]``), the median of 5 opens, against a baseline
  measured in the same run: a static page holding the same log lines in a ``<pre>``;
* stepping: the median time of one step over 200 steps, measured in the page (a key press
  dispatched, the board drawn again and laid out: ``performance.now()`` around it), and
  the round trip of a key press from playwright.

Targets: a 1,000-line game opens in under 1 s and its page stays under 2 MB without
images; one step at most 20 ms at 100,000 lines; memory while writing flat in the length.

    python scripts/bench_replay.py [--lines 1000,10000,100000] [--chromium /usr/bin/chromium]
                                   [--baseline OLD_CHECKOUT]

With ``--baseline`` the other checkout's page of the same log is written and measured too,
in turn with this one's (the best of two rounds each), and the ratios are printed.
"""

from __future__ import annotations

import argparse
import html
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_env import ZCARDS, Measured, installed_env, run_measured

OPENS = 5
STEPS = 200


def long_log(folder: Path, lines: int) -> Path:
    """Simulated games joined until the log has at least ``lines`` lines."""
    games = folder / "games"
    count = max(4, lines // 250)
    subprocess.run(
        [sys.executable, "-c", ZCARDS, "simulate", "--games", str(count), "--seed", "7"]
        + ["--strategy", "greedy", "--strategy", "random", "--out", str(games)],
        check=True,
        capture_output=True,
        env=installed_env(),
    )
    text: list[str] = []
    while len(text) < lines:
        for game in sorted(games.glob("game-*.txt")):
            text += game.read_text(encoding="utf-8").splitlines()
            if len(text) >= lines:
                break
    log = folder / f"log-{lines}.txt"
    log.write_text("\n".join(text) + "\n", encoding="utf-8")
    return log


def open_times(page, path: Path, ready: str) -> list[float]:
    times = []
    for _ in range(OPENS):
        start = time.perf_counter()
        page.goto(path.as_uri())
        page.wait_for_selector(ready, timeout=60_000)
        times.append(time.perf_counter() - start)
    return times


# One step in the page: the key's handler draws the next line's board; reading the layout
# makes the browser lay it out before the clock stops.
IN_PAGE_STEPS = """(steps) => {
  const times = [];
  for (let i = 0; i < steps; i++) {
    const start = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
    document.body.getBoundingClientRect();
    document.getElementById("board").offsetHeight;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}"""


def step_time(page) -> tuple[float, float]:
    """The median time of one step forward (the board drawn again) in the page, and of a key
    press round trip from playwright (drawn and painted: the next frame is awaited), in
    seconds."""
    page.keyboard.press("Home")
    in_page = page.evaluate(IN_PAGE_STEPS, STEPS) / 1000
    return in_page, round_trip(page)


def round_trip(page) -> float:
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        page.keyboard.press("ArrowRight")
        page.evaluate("new Promise(done => requestAnimationFrame(() => done(1)))")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@dataclass
class Written:
    """One checkout's page of a log: how it was written, and its opens and steps."""

    run: Measured
    out: Path
    opens: list[float] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    trips: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, log: Path, folder: Path, name: str, checkout: Path | None) -> Written:
        out = folder / f"replay-{log.stem}-{name}.html"
        run = run_measured(["replay", str(log), "--out", str(out)], checkout=checkout)
        if run.exit_code:
            raise SystemExit(run.stderr)
        return cls(run, out)

    def measure(self, page) -> None:
        self.opens.append(statistics.median(open_times(page, self.out, "body[data-ready='1']")))
        step, trip = step_time(page)
        self.steps.append(step)
        self.trips.append(trip)

    def line(self, log: Path, plain: float) -> str:
        opened, step, trip = min(self.opens), min(self.steps), min(self.trips)
        return (
            f"page {self.out.stat().st_size / 1e6:.2f} MB (log {log.stat().st_size / 1e6:.2f} "
            f"MB), written in {self.run.seconds:.2f} s (peak {self.run.peak_mib:.0f} MiB); opens "
            f"in {opened * 1000:.0f} ms (a plain <pre> of the log: {plain * 1000:.0f} ms, ratio "
            f"{opened / plain:.1f}x); one step {step * 1000:.1f} ms in the page "
            f"({trip * 1000:.1f} ms a key press from playwright to the next frame)"
        )

    def ratios(self, other: Written) -> str:
        return (
            f"page {self.out.stat().st_size / other.out.stat().st_size:.2f}x, peak memory "
            f"{self.run.peak_mib / other.run.peak_mib:.2f}x, writing "
            f"{self.run.seconds / other.run.seconds:.2f}x, opening "
            f"{min(self.opens) / min(other.opens):.2f}x, a step "
            f"{min(self.steps) / min(other.steps):.2f}x in the page, "
            f"{min(self.trips) / min(other.trips):.2f}x to the next frame"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="1000,10000")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        metavar="CHECKOUT",
        help="another checkout (an older zcards): its page of the same log is written and "
        "measured in turn with this one's, and the ratios printed",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        folder = Path(tmp)
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content("<body>a page that does nothing on a key</body>")
        idle = round_trip(page)  # playwright's own cost of a key press and a frame
        print(f"a key press on an idle page: {idle * 1000:.1f} ms", flush=True)
        for lines in (int(n) for n in args.lines.split(",")):
            log = long_log(folder, lines)
            count = len(log.read_text(encoding="utf-8").splitlines())
            plain = folder / f"plain-{lines}.html"
            body = html.escape(log.read_text(encoding="utf-8"))
            plain.write_text(f"<!DOCTYPE html><pre id='done'>{body}</pre>", encoding="utf-8")
            checkouts = {"this": None, **({"baseline": args.baseline} if args.baseline else {})}
            pages = {name: Written.of(log, folder, name, at) for name, at in checkouts.items()}
            baseline = statistics.median(open_times(page, plain, "#done"))
            for _ in range(2):  # in turn, so a change of load touches both alike
                for written in pages.values():
                    written.measure(page)
            for name, written in pages.items():
                print(f"{name:>8} {count:>6} lines: {written.line(log, baseline)}", flush=True)
            if args.baseline:
                this, other = pages["this"], pages["baseline"]
                print(f"   ratios this/baseline at {count} lines: {this.ratios(other)}", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
