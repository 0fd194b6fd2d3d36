"""A fresh clone has no reference plugins: their tests skip with one reason naming
$ZCARDS_REFERENCE, and CI (ZCARDS_REQUIRE_REFERENCE=1) turns any such skip into a failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_REFERENCE_TEST = "tests/test_checksum.py::test_line_endings_do_not_change_the_checksum"


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "ZCARDS_REFERENCE": str(tmp_path / "absent")}
    environment.pop("ZCARDS_REQUIRE_REFERENCE", None)  # CI sets it for the whole run
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", ONE_REFERENCE_TEST],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_missing_reference_plugins_skip_with_the_variable_named(tmp_path: Path) -> None:
    done = _pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert "SKIPPED [1] tests/conftest.py" in done.stdout and "$ZCARDS_REFERENCE" in done.stdout


def test_ci_fails_when_a_reference_test_skipped(tmp_path: Path) -> None:
    done = _pytest(tmp_path, ZCARDS_REQUIRE_REFERENCE="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert ONE_REFERENCE_TEST in done.stdout and "the run fails" in done.stdout
