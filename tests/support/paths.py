"""Where the tests' own files are: the checkout, and the hand-written logs the audit tests read."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
LOGS = TESTS / "logs"  # one log per rule case, with the cards they play (cards.txt)
