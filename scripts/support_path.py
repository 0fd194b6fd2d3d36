"""Puts the tests' support package (``tests/support``: fault injectors, hostile logs) on
``sys.path`` for the maintainer scripts that measure the audit with it: that machinery is test
code, not part of the installed package."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
