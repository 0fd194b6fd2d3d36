"""Benchmark: peak memory of ``zcards plugin verify`` against the number and size of files.

A local HTTP server publishes an updatelist of FILES card-data files of MIB MiB each (the same
bytes behind every URL); the real command verifies it, with 8 workers and with 1, and its own
peak resident memory (Linux VmHWM) is read at exit. A baseline in the same run: the same
command on an updatelist of two 1 MiB files. ``--checkout`` runs another checkout's zcards
(an older commit, say), for a before/after table.

    python scripts/bench_verify.py [--files 16] [--mib 30] [--checkout PATH]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bench_env import run_measured

from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.updatelist import UpdateEntry, UpdateList, render_updatelist

MIB = 1 << 20


class _Publication(BaseHTTPRequestHandler):
    """``/updatelist.txt``, and the one card-data body at every other path."""

    def __init__(self, files: dict[str, bytes], *args, **kwargs) -> None:
        self.files = files
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        body = self.files.get(self.path.lstrip("/"))
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        view = memoryview(body)
        for start in range(0, len(body), MIB):
            self.wfile.write(view[start : start + MIB])

    def log_message(self, *args: object) -> None:
        """Quiet."""


def publication(base: str, count: int, mib: int) -> dict[str, bytes]:
    line = b"Gross Ghoul\talpha\tgrossghoul\tZombie\tRage\t\t2\t\tFast\t\t\tC\tGrr.\n"
    body = (line * (mib * MIB // len(line) + 1))[: mib * MIB]
    checksum = checksum_bytes(body)
    names = [f"set{n:02d}.txt" for n in range(count)]
    entries = [UpdateEntry(f"plugins/big/sets/{name}", base + name, checksum) for name in names]
    updatelist = render_updatelist(UpdateList("big", "12-01-25", entries)).encode()
    return {"updatelist.txt": updatelist, **{name: body for name in names}}


def measure(count: int, mib: int, workers: int, checkout: Path | None, work: Path) -> str:
    files: dict[str, bytes] = {}  # filled once the server's port is known
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Publication, files))
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    files.update(publication(base, count, mib))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        args = ["plugin", "verify", base + "updatelist.txt", "--workers", str(workers)]
        finished = run_measured(args, work, checkout)
    finally:
        server.shutdown()
        server.server_close()
    outcome = finished.stderr.strip().splitlines()[-1] if finished.stderr.strip() else ""
    return (
        f"| {count} x {mib} MiB | {workers} | {finished.peak_mib:.0f} MiB "
        f"| {finished.seconds:.1f} s | exit {finished.exit_code}: {outcome[:60]} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=16)
    parser.add_argument("--mib", type=int, default=30)
    parser.add_argument("--checkout", type=Path, help="run this checkout's zcards instead")
    options = parser.parse_args()
    print("| files | workers | peak memory | time | outcome |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        print(measure(2, 1, 8, options.checkout, work))
        for workers in (8, 1):
            print(measure(options.files, options.mib, workers, options.checkout, work))


if __name__ == "__main__":
    main()
