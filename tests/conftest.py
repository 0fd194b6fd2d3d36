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


@pytest.fixture(scope="session")
def sample_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real SQLite card database imported from the bundled ``alpha`` set, built once.

    Tests that change the database must copy it first (see ``sample_db_copy``).
    """
    from zcards.importer import import_sources
    from zcards.resources import BUNDLED_SET

    path = tmp_path_factory.mktemp("db") / "cards.db"
    import_sources(path, [str(BUNDLED_SET)])
    return path


@pytest.fixture
def sample_db_copy(sample_db_path: Path, tmp_path: Path) -> Path:
    """A private copy of the sample database that a test may modify."""
    copy = tmp_path / "cards.db"
    copy.write_bytes(sample_db_path.read_bytes())
    return copy
