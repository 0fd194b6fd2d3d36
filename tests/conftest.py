"""Shared fixtures, one per meaning: the reference plugins and tesseract (when present), the
databases and card lists the tests read, and exports that are slow to render, each built once
per session.

The reference plugins are real LackeyCCG plugins kept outside the repository. Every test that
reads them asks for the ``reference_dir`` fixture, which finds them at ``$ZCARDS_REFERENCE``,
else at ``../shared/reference`` beside the checkout; when neither holds them those tests skip
with one reason naming the variable, so a fresh clone's test run is green. CI sets
``ZCARDS_REQUIRE_REFERENCE=1``: then any skipped reference test fails the run. The OCR test
of card faces asks for ``tesseract`` (the OCR program, Debian package ``tesseract-ocr``) the
same way, and CI sets ``ZCARDS_REQUIRE_OCR=1``; the replay page's browser test asks for
``chromium`` (the system's Chromium, Debian package ``chromium``, driven by the playwright
package) and CI sets ``ZCARDS_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlite_utils
from hypothesis import settings
from pytest_httpserver import HTTPServer
from support.paths import LOGS, ROOT
from support.plugin_exports import MINI_CARDS, RELEASE, SAMPLE_URL, TEST_DPI, export_mini

from zcards.cards.model import Card

# Tests time nothing (performance is measured by scripts/): hypothesis' per-example deadline
# is off. CI runs the same examples every time (derandomize), so a landing is reproducible;
# developers' runs explore new random examples.
settings.register_profile("zcards", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("zcards"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "zcards"))

REFERENCE_ENV = "ZCARDS_REFERENCE"
REQUIRE_ENV = "ZCARDS_REQUIRE_REFERENCE"
SKIP_REASON = (
    f"reference plugins not found: set ${REFERENCE_ENV} to the folder of real Lackey plugins "
    "(the one holding CHECKSUMS.tsv; default ../shared/reference beside the checkout)"
)
OCR_REQUIRE_ENV = "ZCARDS_REQUIRE_OCR"
OCR_SKIP_REASON = (
    "tesseract not found: install the OCR program (Debian/Ubuntu: apt install tesseract-ocr) "
    "to read card faces back"
)
BROWSER_REQUIRE_ENV = "ZCARDS_REQUIRE_BROWSER"
BROWSER_SKIP_REASON = (
    "chromium or playwright not found: install the browser (Debian/Ubuntu: apt install "
    "chromium; or name it in $ZCARDS_CHROMIUM) and the test extra (pip install -e '.[test]') "
    "to drive the replay page"
)


@dataclass(frozen=True)
class Requirement:
    """Something outside the repository some tests need: the fixture that provides it, the
    variable that makes its absence fail the run (CI), and the skip reason otherwise."""

    fixture: str
    label: str
    require_env: str
    reason: str

    @property
    def mark(self) -> tuple[str, str]:
        """A skipped report's user property (xdist sends it to the controller)."""
        return ("needs", self.label)


REFERENCE = Requirement("reference_dir", "reference plugins", REQUIRE_ENV, SKIP_REASON)
OCR = Requirement("tesseract", "tesseract OCR program", OCR_REQUIRE_ENV, OCR_SKIP_REASON)
BROWSER = Requirement("chromium", "Chromium browser", BROWSER_REQUIRE_ENV, BROWSER_SKIP_REASON)
REQUIREMENTS = (REFERENCE, OCR, BROWSER)


def find_reference() -> Path | None:
    """``$ZCARDS_REFERENCE`` (used as given), else the ``shared/reference`` folder beside the
    checkout, when it holds the plugins' ``CHECKSUMS.tsv``; else None."""
    configured = os.environ.get(REFERENCE_ENV)
    candidate = Path(configured) if configured else ROOT.parent / "shared" / "reference"
    return candidate if (candidate / "CHECKSUMS.tsv").is_file() else None


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """Real Lackey plugins (byte-exact) and golden checksums LackeyCCG produced."""
    found = find_reference()
    if found is None:
        pytest.skip(REFERENCE.reason)
    return found


@pytest.fixture(scope="session")
def tesseract() -> str:
    """The ``tesseract`` OCR program (reads the numbers back from rendered card faces)."""
    found = shutil.which("tesseract")
    if found is None:
        pytest.skip(OCR.reason)
    return found


@pytest.fixture(scope="session")
def chromium() -> str:
    """The system's Chromium (``$ZCARDS_CHROMIUM``, else ``chromium`` on the PATH), with the
    playwright package that drives it (no browser of playwright's own is downloaded)."""
    import importlib.util

    found = os.environ.get("ZCARDS_CHROMIUM") or shutil.which("chromium")
    if found is None or importlib.util.find_spec("playwright") is None:
        pytest.skip(BROWSER.reason)
    return found


@pytest.fixture(scope="session", autouse=True)
def _away_from_the_checkout(tmp_path_factory: pytest.TempPathFactory):
    """Run in an empty folder without $ZCARDS_DB: a developer's ./cards.db or build/cards.db
    (which the README's tour changes) must not become the tests' default database. The render
    cache is a folder of the test session's own, not the developer's ~/.cache/zcards, and so is
    the configuration folder (where the key signing stored game definitions lives)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path_factory.mktemp("cwd"))
        patch.delenv("ZCARDS_DB", raising=False)
        patch.setenv("ZCARDS_CACHE", str(tmp_path_factory.mktemp("render-cache")))
        patch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
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


@pytest.fixture(scope="session")
def sample_db(sample_db_path: Path) -> sqlite_utils.Database:
    """The sample database open for reading; a test that writes uses ``sample_db_copy``."""
    return sqlite_utils.Database(sample_db_path)


@pytest.fixture(scope="session")
def sample_db_args(sample_db_path: Path) -> list[str]:
    """``--db PATH`` of the sample database, for the command line."""
    return ["--db", str(sample_db_path)]


@pytest.fixture
def sample_db_copy(sample_db_path: Path, tmp_path: Path) -> Path:
    """A private copy of the sample database that a test may modify."""
    copy = tmp_path / "cards.db"
    copy.write_bytes(sample_db_path.read_bytes())
    return copy


@pytest.fixture(scope="session")
def sample_cards(sample_db: sqlite_utils.Database) -> list[Card]:
    """The sample database's cards as it returns them (by set, then name)."""
    from zcards.store.db import iter_cards

    return list(iter_cards(sample_db))


@pytest.fixture(scope="session")
def bundled_cards() -> list[Card]:
    """The bundled set read straight from its card file (file order), no database."""
    from zcards.cards.normalise import read_card_file
    from zcards.resources import BUNDLED_SET

    return read_card_file(BUNDLED_SET)


@pytest.fixture(scope="session")
def bundled_by_name(bundled_cards: list[Card]) -> dict[str, Card]:
    """The bundled set's cards by name."""
    return {card.name: card for card in bundled_cards}


@pytest.fixture(scope="session")
def log_cards() -> list[Card]:
    """The cards the hand-written rule logs of ``tests/logs/`` play (``tests/logs/cards.txt``)."""
    from zcards.cards.normalise import read_card_file

    return read_card_file(LOGS / "cards.txt")


@pytest.fixture(scope="session")
def mini_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin tests' five-card, two-set database (a non-ASCII name, markup in text), built
    once: an export of it renders in a fraction of the bundled set's time."""
    from zcards.ingest.importer import import_sources

    path = tmp_path_factory.mktemp("mini-db") / "cards.db"
    import_sources(path, [str(MINI_CARDS)])
    return path


@pytest.fixture
def mini_db_copy(mini_db_path: Path, tmp_path: Path) -> Path:
    """A private copy of the five-card database that a test may modify."""
    copy = tmp_path / "cards.db"
    copy.write_bytes(mini_db_path.read_bytes())
    return copy


@pytest.fixture(scope="session")
def mini_plugin(tmp_path_factory: pytest.TempPathFactory, mini_db_path: Path) -> Path:
    """The five-card database exported once with the test settings (``export_mini``); read
    only: a test that changes a plugin copies it first."""
    out = tmp_path_factory.mktemp("mini-plugin")
    export_mini(mini_db_path, out)
    return out / "zombieccg"


@pytest.fixture
def mini_release(mini_plugin: Path, tmp_path: Path) -> Path:
    """An output folder holding the five-card plugin as released (a copy of ``mini_plugin``):
    where the next export of the five cards finds its previous release."""
    out = tmp_path / "out"
    shutil.copytree(mini_plugin, out / mini_plugin.name)
    return out


@pytest.fixture(scope="session")
def sample_plugin(tmp_path_factory: pytest.TempPathFactory, sample_db_path: Path) -> Path:
    """The sample database exported once (at a low dpi) for :data:`SAMPLE_URL`; read only."""
    from zcards.publish.plugin_export import export_plugin

    out = tmp_path_factory.mktemp("plugin-out")
    export_plugin(sample_db_path, out, base_url=SAMPLE_URL, release=RELEASE, dpi=TEST_DPI)
    return out / "zombieccg"


@pytest.fixture(scope="session")
def published_mini(
    tmp_path_factory: pytest.TempPathFactory, mini_db_path: Path, make_httpserver: HTTPServer
) -> Path:
    """The five-card plugin exported for ``/zombieccg/`` on the session's test HTTP server,
    where the verify tests serve it (whole, or broken on purpose)."""
    out = tmp_path_factory.mktemp("published")
    export_mini(mini_db_path, out, base_url=make_httpserver.url_for("/zombieccg/"))
    return out / "zombieccg"


@pytest.fixture
def laid_out(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of pages of every document WeasyPrint lays out (card faces or sheets), in
    order: what rendering really cost, counted where it happens."""
    from zcards.publish import cardface, sheets

    pages: list[int] = []
    render = cardface.lay_out_faces

    def counted(html: str, layout, readable=()):
        document = render(html, layout, readable)
        pages.append(len(document.pages))
        return document

    monkeypatch.setattr(cardface, "lay_out_faces", counted)
    monkeypatch.setattr(sheets, "lay_out_faces", counted)
    return pages


# The rules subset (``-m rules``): the audit, the rules model both it and the simulator run
# through, and the logs that prove them; test files named so are in it.
RULES_FILES = (
    "test_audit_",
    "test_rules_",
    "test_rule_docs",
    "test_game_fights",
    "test_game_table",
    "test_handwritten_logs",
    "test_independent_logs",
    "test_late_fixes",
    "test_log_state",
    "test_detection_classifier",
    "test_sim_audit",
    "test_recipes",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith(RULES_FILES):
            item.add_marker(pytest.mark.rules)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Mark every skipped test that needs a requirement, whatever skipped it, and place our own
    skips in this file (no line), so ``-ra`` folds them into one line each."""
    report = yield
    for requirement in REQUIREMENTS:
        if report.skipped and requirement.fixture in getattr(item, "fixturenames", ()):
            report.user_properties.append(requirement.mark)
            if isinstance(report.longrepr, tuple) and requirement.reason in str(report.longrepr[2]):
                here = os.path.relpath(__file__, item.config.rootpath)
                report.longrepr = (here, None, f"Skipped: {requirement.reason}")
    return report


def _skips(config: pytest.Config, requirement: Requirement) -> list[str]:
    """The marked skips, read where the run is summed up: the terminal reporter holds every
    report, also those parallel workers (pytest-xdist) sent to the controller."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    reports = reporter.stats.get("skipped", []) if reporter is not None else []
    return [r.nodeid for r in reports if requirement.mark in getattr(r, "user_properties", ())]


def _required_but_skipped(config: pytest.Config) -> list[tuple[Requirement, list[str]]]:
    """Each requirement CI asks for (its variable is 1) whose tests skipped, with those tests."""
    found = []
    for requirement in REQUIREMENTS:
        skipped = _skips(config, requirement)
        if skipped and os.environ.get(requirement.require_env) == "1":
            found.append((requirement, skipped))
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under ``ZCARDS_REQUIRE_REFERENCE=1`` or ``ZCARDS_REQUIRE_OCR=1`` (CI) a test that
    skipped for want of what the variable requires fails the run."""
    if _required_but_skipped(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    for requirement, skipped in _required_but_skipped(config):
        terminalreporter.section(requirement.label, red=True)
        terminalreporter.line(
            f"{len(skipped)} tests that need the {requirement.label} skipped, but "
            f"{requirement.require_env}=1 requires them: the run fails"
        )
        for nodeid in skipped:
            terminalreporter.line(f"  {nodeid}")
