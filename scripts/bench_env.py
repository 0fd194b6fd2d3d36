"""How the benchmarks start zcards: as an installed ``zcards`` command runs.

The console command is ``zcards.cli.run`` (an older checkout, measured with ``--zcards-path``
or ``PYTHONPATH``, has only ``main``). Children get the caller's environment without
``PYTHONUNBUFFERED`` (every write a system call) and ``PYTHONDONTWRITEBYTECODE`` (every module
compiled again at each start): a user's installation has neither, and a shell here sets both.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ZCARDS = "import sys, zcards.cli as c; sys.argv[0] = 'zcards'; getattr(c, 'run', c.main)()"


def installed_env(**overrides: str) -> dict[str, str]:
    """The environment a child process runs in, with ``overrides`` set."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
    }
    return env | overrides


@dataclass(frozen=True)
class Measured:
    """A finished ``zcards`` run: exit code, output, wall time and its own peak memory."""

    exit_code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float
    children_peak_mib: float  # the largest of its finished child processes (ru_maxrss)


# The child writes its own peak resident memory (Linux VmHWM) as the last line of stderr:
# ``wait4``'s figure would start at the parent's peak and count the pages they share.
_MEASURED = """
import resource, sys
import zcards.cli as c
sys.argv[0] = "zcards"
try:
    getattr(c, "run", c.main)()
finally:
    sys.stdout.flush()
    status = open("/proc/self/status").read()
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    sys.stderr.write("\\nVmHWM:" + status.split("VmHWM:")[1].split("\\n")[0])
    sys.stderr.write(f" children:{children}")
"""


def run_measured(
    args: list[str], cwd: Path | None = None, checkout: Path | None = None
) -> Measured:
    """Run ``zcards ARGS`` (of ``checkout`` when given) and read its own peak memory."""
    env = installed_env(**({"PYTHONPATH": str(checkout)} if checkout else {}))
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    stderr, _, peak = done.stderr.rpartition("\nVmHWM:")
    children = int(peak.split("children:")[1]) / 1024
    return Measured(
        done.returncode, done.stdout, stderr, seconds, int(peak.split()[0]) / 1024, children
    )
