"""How the benchmarks start zcards: as an installed ``zcards`` command runs.

The console command is ``zcards.cli.run`` (an older checkout, measured with ``--zcards-path``
or ``PYTHONPATH``, has only ``main``). Children get the caller's environment without
``PYTHONUNBUFFERED`` (every write a system call) and ``PYTHONDONTWRITEBYTECODE`` (every module
compiled again at each start): a user's installation has neither, and a shell here sets both.
"""

from __future__ import annotations

import os

ZCARDS = "import sys, zcards.cli as c; sys.argv[0] = 'zcards'; getattr(c, 'run', c.main)()"


def installed_env(**overrides: str) -> dict[str, str]:
    """The environment a child process runs in, with ``overrides`` set."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
    }
    return env | overrides
