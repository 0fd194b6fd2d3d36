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
from pathlib import Path

from bench_env import ZCARDS, installed_env, run_measured

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", default="1000,10000")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
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
            out = folder / f"replay-{lines}.html"
            written = run_measured(["replay", str(log), "--out", str(out)])
            if written.exit_code:
                raise SystemExit(written.stderr)
            plain = folder / f"plain-{lines}.html"
            body = html.escape(log.read_text(encoding="utf-8"))
            plain.write_text(f"<!DOCTYPE html><pre id='done'>{body}</pre>", encoding="utf-8")
            baseline = statistics.median(open_times(page, plain, "#done"))
            opened = statistics.median(open_times(page, out, "body[data-ready='1']"))
            step, trip = step_time(page)
            print(
                f"{count:>6} lines: page {out.stat().st_size / 1e6:.2f} MB "
                f"(log {log.stat().st_size / 1e6:.2f} MB), written in {written.seconds:.2f} s "
                f"(peak {written.peak_mib:.0f} MiB); "
                f"opens in {opened * 1000:.0f} ms (a plain <pre> of the log: "
                f"{baseline * 1000:.0f} ms, ratio {opened / baseline:.1f}x); "
                f"one step {step * 1000:.1f} ms in the page ({trip * 1000:.1f} ms a key press "
                "from playwright to the next frame)",
                flush=True,
            )
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
