"""A fresh clone has no reference plugins: their tests skip with one reason naming
$ZCARDS_REFERENCE, and CI (ZCARDS_REQUIRE_REFERENCE=1) turns any such skip into a failure, in
one process and with a pytest-xdist worker (whose reports reach the controller) alike. The
same holds for the OCR test of card faces without the tesseract program (CI:
ZCARDS_REQUIRE_OCR=1) and the replay page's browser test without Chromium (CI:
ZCARDS_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

ONE_REFERENCE_TEST = "tests/test_checksum.py::test_line_endings_do_not_change_the_checksum"
OCR_TEST = "tests/test_cardface_ocr.py::test_cost_power_and_health_read_back_at_lackey_table_size"
BROWSER_TEST = (
    "tests/test_replay_page.py::test_markup_in_names_and_chat_is_shown_as_text_and_runs_nothing"
)


# "-n 1" runs the tests in one worker process, as "-n auto" does in several: the reports that
# decide travel from the worker to the controller the same way.
WORKERS = pytest.mark.parametrize("workers", ["0", "1"])
# Each test runs pytest itself, end to end, for what CI does: CI runs them (marker "slow").
pytestmark = pytest.mark.slow


def _pytest(
    tmp_path: Path, workers: str, test: str = ONE_REFERENCE_TEST, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "ZCARDS_REFERENCE": str(tmp_path / "absent")}
    for name in ("ZCARDS_REQUIRE_REFERENCE", "ZCARDS_REQUIRE_OCR", "ZCARDS_REQUIRE_BROWSER"):
        environment.pop(name, None)  # CI sets them for the whole run
    environment.pop("ZCARDS_CHROMIUM", None)
    environment.update(env)
    return subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("-n", workers, "-m", "slow or not slow", test),  # the test named, slow or not
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@WORKERS
def test_missing_reference_plugins_skip_with_the_variable_named(
    tmp_path: Path, workers: str
) -> None:
    done = _pytest(tmp_path, workers)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert "SKIPPED [1] tests/conftest.py" in done.stdout and "$ZCARDS_REFERENCE" in done.stdout


@WORKERS
def test_ci_fails_when_a_reference_test_skipped(tmp_path: Path, workers: str) -> None:
    done = _pytest(tmp_path, workers, ZCARDS_REQUIRE_REFERENCE="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert ONE_REFERENCE_TEST in done.stdout and "the run fails" in done.stdout


def test_without_tesseract_the_ocr_test_skips_and_ci_fails(tmp_path: Path) -> None:
    # The same hooks as for the reference plugins (checked above with workers too).
    no_tesseract = tmp_path / "bin"  # a PATH where no tesseract is found
    no_tesseract.mkdir()
    workers = "0"
    done = _pytest(tmp_path, workers, OCR_TEST, PATH=str(no_tesseract))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert "SKIPPED [1] tests/conftest.py" in done.stdout and "tesseract-ocr" in done.stdout
    required = _pytest(tmp_path, workers, OCR_TEST, PATH=str(no_tesseract), ZCARDS_REQUIRE_OCR="1")
    assert required.returncode == 1, required.stdout + required.stderr
    assert OCR_TEST in required.stdout and "ZCARDS_REQUIRE_OCR=1" in required.stdout


def test_without_chromium_the_browser_test_skips_and_ci_fails(tmp_path: Path) -> None:
    no_browser = tmp_path / "bin"  # a PATH where no chromium is found
    no_browser.mkdir()
    done = _pytest(tmp_path, "0", BROWSER_TEST, PATH=str(no_browser))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout and "apt install chromium" in done.stdout
    required = _pytest(
        tmp_path, "0", BROWSER_TEST, PATH=str(no_browser), ZCARDS_REQUIRE_BROWSER="1"
    )
    assert required.returncode == 1, required.stdout + required.stderr
    assert BROWSER_TEST in required.stdout and "ZCARDS_REQUIRE_BROWSER=1" in required.stdout
