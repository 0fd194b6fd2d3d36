"""Shared fixtures: the workplace's reference files and a freshly built sample database."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Real Lackey plugins (byte-exact) and golden checksums LackeyCCG produced."""
    return SHARED / "reference"
