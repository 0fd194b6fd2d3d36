"""Shared fixtures: the reference plugins (when present) and a freshly built sample database.

The reference plugins are real LackeyCCG plugins kept outside the repository. Every test that
reads them asks for the ``reference_dir`` fixture, which finds them at ``$ZCARDS_REFERENCE``,
else at ``../shared/reference`` next to the checkout; when neither exists those tests skip
with one reason naming the variable, so a fresh clone's test run is green. CI sets
``ZCARDS_REQUIRE_REFERENCE=1``: then any skipped reference test fails the run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Tests time nothing (performance is measured by scripts/): hypothesis' per-example deadline
# is off. CI runs the same examples every time (derandomize), so a landing is reproducible;
# developers' runs explore new random examples.
settings.register_profile("zcards", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("zcards"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "zcards"))

ROOT = Path(__file__).resolve().parents[1]
REFERENCE_ENV = "ZCARDS_REFERENCE"
REQUIRE_ENV = "ZCARDS_REQUIRE_REFERENCE"
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference"
SKIP_REASON = (
    f"reference plugins not found: set ${REFERENCE_ENV} to the folder of real Lackey plugins "
    f"(default ../shared/reference next to the checkout)"
)
_NEEDS_REFERENCE = ("needs", "reference plugins")  # a report's user property, sent by xdist


def find_reference() -> Path | None:
    """``$ZCARDS_REFERENCE`` (used as given), else ``../shared/reference``, else None."""
    configured = os.environ.get(REFERENCE_ENV)
    candidate = Path(configured) if configured else DEFAULT_REFERENCE
    return candidate if (candidate / "CHECKSUMS.tsv").is_file() else None


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Real Lackey plugins (byte-exact) and golden checksums LackeyCCG produced."""
    found = find_reference()
    if found is None:
        _skip_without_reference()
    return found


def _skip_without_reference() -> None:
    pytest.skip(SKIP_REASON)


@pytest.fixture(scope="session", autouse=True)
def _away_from_the_checkout(tmp_path_factory: pytest.TempPathFactory):
    """Run in an empty folder without $ZCARDS_DB: a developer's ./cards.db or build/cards.db
    (which the README's tour changes) must not become the tests' default database."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("cwd"))
        patch.delenv("ZCARDS_DB", raising=False)
        yield


@pytest.fixture(scope="session")
def sample_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real SQLite card database imported from the bundled ``alpha`` set, built once.

    Tests that change the database must copy it first (see ``sample_db_copy``).
    """
    from zcards.ingest.importer import import_sources
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


@pytest.fixture
def mini_db_copy(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Path:
    """A private copy of the plugin tests' five-card database (``plugin_support.mini_db``)."""
    from plugin_support import mini_db

    copy = tmp_path / "cards.db"
    copy.write_bytes(mini_db(tmp_path_factory).read_bytes())
    return copy


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Mark every skipped test that needs the reference plugins, whatever skipped it, and
    point our own skips at this file, so ``-ra`` folds them into one line."""
    report = yield
    if report.skipped and "reference_dir" in getattr(item, "fixturenames", ()):
        report.user_properties.append(_NEEDS_REFERENCE)
        if isinstance(report.longrepr, tuple) and SKIP_REASON in str(report.longrepr[2]):
            here = os.path.relpath(__file__, item.config.rootpath)
            line = _skip_without_reference.__code__.co_firstlineno + 1
            report.longrepr = (here, line, f"Skipped: {SKIP_REASON}")
    return report


def _reference_skips(config: pytest.Config) -> list[str]:
    """The marked skips, read where the run is summed up: the terminal reporter holds every
    report, also those parallel workers (pytest-xdist) sent to the controller."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    reports = reporter.stats.get("skipped", []) if reporter is not None else []
    return [r.nodeid for r in reports if _NEEDS_REFERENCE in getattr(r, "user_properties", ())]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under ``ZCARDS_REQUIRE_REFERENCE=1`` (CI) a skipped reference test fails the run."""
    if os.environ.get(REQUIRE_ENV) == "1" and _reference_skips(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    skipped = _reference_skips(config)
    if skipped and os.environ.get(REQUIRE_ENV) == "1":
        terminalreporter.section("reference plugins", red=True)
        terminalreporter.line(
            f"{len(skipped)} tests that need the reference plugins skipped, but "
            f"{REQUIRE_ENV}=1 requires them: the run fails"
        )
        for nodeid in skipped:
            terminalreporter.line(f"  {nodeid}")
