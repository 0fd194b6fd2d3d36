"""Running real ``zcards`` processes in the tests: as this user, as another user, or under
limits (a file-size limit, a private read-only mount)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path

from .paths import ROOT

# User ids no account on a test machine is likely to have: the owner of a shared database
# and another user who reads it.
OWNER, OTHER = 41000, 41001


def zcards_argv(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "zcards", *map(str, args)]


def can_switch_users() -> bool:
    """Root with ``setpriv``, and a checkout and Python other users can read: the tests can
    run zcards as other users (:func:`why_not_other_users` says why not)."""
    return why_not_other_users() is None


@cache
def why_not_other_users() -> str | None:
    """Why the tests cannot run zcards as another user here, or None when they can. As root
    in a private folder (mode 0700, as root's home or a ``mktemp -d`` folder) the other user cannot
    read the checkout: asked once, by importing zcards as that user."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return "needs root and setpriv to run zcards as another user"
    probe = run(
        as_user(OTHER, [sys.executable, "-c", "import zcards.cli"]), Path(tempfile.gettempdir())
    )
    if probe.returncode == 0:
        return None
    said = (probe.stderr.strip().splitlines() or ["no output"])[-1]
    return (
        f"user {OTHER} cannot run zcards from this checkout ({said}): a folder above it is "
        "private (mode 0700, as root's home or a mktemp -d folder); run the tests from a "
        "world-readable copy to include these"
    )


def as_user(uid: int, argv: Sequence[str]) -> list[str]:
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv]


def run(
    argv: Sequence[str],
    cwd: Path,
    *,
    env: Mapping[str, str] | None = None,
    limit_file_size: int | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in ``cwd`` with the checkout on ``PYTHONPATH`` and ``env`` added (no
    ``$ZCARDS_DB`` unless given); ``limit_file_size``: ``RLIMIT_FSIZE`` in bytes (writes beyond
    it fail with EFBIG: a full disk in miniature)."""
    variables = {
        **{name: value for name, value in os.environ.items() if name != "ZCARDS_DB"},
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": str(cwd),
        **(env or {}),
    }
    limit: Callable[[], None] | None = None
    if limit_file_size is not None:
        size = limit_file_size

        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return subprocess.run(
        list(argv),
        cwd=cwd,
        env=variables,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
        check=False,
    )


def process_state(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a live process; None once it is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, parent = stat.rsplit(")", 1)[1].split()[:2]
    return None if state in "ZX" else (int(parent), state)


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        info = process_state(int(entry.name)) if entry.name.isdigit() else None
        if info and info[0] == pid:
            found.append(int(entry.name))
    return found


def wait_until(condition: Callable[[], object], limit_s: float) -> bool:
    """Poll ``condition`` until it holds or ``limit_s`` passes (a bound, not a measurement)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()
