"""Misbehaving HTTP servers on 127.0.0.1 for the robustness tests.

pytest-httpserver (werkzeug) answers like a correct server; the faults it cannot produce (a
byte every few tenths of a second, a body cut inside a chunk, headers that never end) come from
:class:`RawServer`, a plain socket server whose handler writes whatever bytes it likes.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .paths import ROOT

# A drip (or a busy server) gives up after this long, so code without a deadline (or that
# obeys a long Retry-After) fails instead of hanging.
DRIP_GIVES_UP_S = 30.0


class RawServer:
    """Answers every connection on 127.0.0.1 with ``handler(connection, stopped)``, once the
    request's headers are in (or at once, without ``read_request``: a TLS client's hello
    has no blank line to wait for)."""

    def __init__(
        self,
        handler: Callable[[socket.socket, threading.Event], None],
        *,
        read_request: bool = True,
    ) -> None:
        self.handler = handler
        self.read_request = read_request
        self.stopped = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.threads: list[threading.Thread] = []

    def url(self, path: str = "/", scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.listener.getsockname()[1]}{path}"

    def __enter__(self) -> RawServer:
        accepting = threading.Thread(target=self._accept, daemon=True)
        accepting.start()
        self.threads.append(accepting)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopped.set()
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        self.listener.close()
        for thread in self.threads:
            thread.join(timeout=5)

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            request = b"" if self.read_request else b"\r\n\r\n"
            while b"\r\n\r\n" not in request:
                data = connection.recv(65536)
                if not data:
                    return
                request += data
            with contextlib.suppress(OSError):  # the client gave up: the point of most faults
                self.handler(connection, self.stopped)


def drip(response: bytes, *, every_s: float = 0.2, head: int = 0):
    """A handler sending ``response[:head]`` at once, then one byte every ``every_s``."""

    def handler(connection: socket.socket, stopped: threading.Event) -> None:
        connection.sendall(response[:head])
        started = time.monotonic()
        for byte in response[head:]:
            if stopped.wait(every_s) or time.monotonic() - started > DRIP_GIVES_UP_S:
                return
            connection.sendall(bytes([byte]))

    return handler


def send_and_close(response: bytes):
    """A handler sending ``response`` and closing the connection (truncations)."""

    def handler(connection: socket.socket, stopped: threading.Event) -> None:
        connection.sendall(response)

    return handler


def http_response(body: bytes, *headers: str, status: str = "200 OK") -> bytes:
    head = "".join(f"{header}\r\n" for header in headers)
    return f"HTTP/1.1 {status}\r\n{head}Connection: close\r\n\r\n".encode() + body


@cache
def gzip_bomb(megabytes: int) -> bytes:
    """``megabytes`` MiB of zeros, gzip-compressed to about a thousandth of that."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    return b"".join(compressor.compress(block) for _ in range(megabytes)) + compressor.flush()


@dataclass(frozen=True)
class Finished:
    """A finished subprocess: exit code, output, and its peak resident memory."""

    exit_code: int
    stdout: str
    stderr: str
    peak_mib: float


# Runs zcards and writes the process's own memory high-water mark (Linux VmHWM) at exit.
# ru_maxrss would not do: a child inherits the peak of the process that spawned it (pytest).
_MEASURED_ZCARDS = """
import atexit, os, runpy, sys
def write_peak():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["PEAK_FILE"], "w") as out:
        out.write(peak)
atexit.register(write_peak)
runpy.run_module("zcards", run_name="__main__")
"""


def run_measured(args: list[str], cwd: Path, checkout: Path | None = None) -> Finished:
    """Run ``zcards ARGS`` (of ``checkout``, default this one) in a subprocess and read its
    own peak memory (Linux only)."""
    peak_file = cwd / "peak-kib.txt"
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout or ROOT),
        "PEAK_FILE": str(peak_file),
    }
    finished = subprocess.run(
        [sys.executable, "-c", _MEASURED_ZCARDS, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    peak = int(peak_file.read_text()) / 1024
    return Finished(finished.returncode, finished.stdout, finished.stderr, peak)
