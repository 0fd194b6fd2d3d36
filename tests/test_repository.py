"""The repository explains itself: no tracked file points at an issue tracker or at a path
outside the checkout, tests import their helpers from ``tests/support/`` only, and the
scripts import no test code."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.imports import imported_names
from support.paths import ROOT, TESTS

# The word issue (or issues), maybe a "#", then a number: a tracker the repository lacks.
ISSUE = re.compile(r"\bissues?\s*#?\d", re.IGNORECASE)
# A developer's machine: its home and work folders, or the folder beside the checkout. Test
# data such as "../../evil" or a "file://" URL is neither.
OUTSIDE = re.compile(r"(?<![\w.:/~-])/(?:work|home|Users|root|mnt|scratch)/|\.\./shared\b")


def tracked_text_files() -> Iterator[tuple[str, str]]:
    """(path, text) of every file git tracks that reads as UTF-8 (images and the like not)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    for name in filter(None, listed.decode("utf-8").split("\0")):
        path = ROOT / name
        if path.is_file():
            try:
                yield name, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def hits(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{name}:{number}: {line.strip()}"
        for name, text in tracked_text_files()
        for number, line in enumerate(text.splitlines(), start=1)
        if pattern.search(line)
    ]


def test_no_file_names_an_issue_number() -> None:
    assert hits(ISSUE) == []


# The one path outside the checkout the project knows: where the reference plugins are looked
# for when $ZCARDS_REFERENCE is not set (the fixture, CI and the README say so).
REFERENCE_FALLBACK = "../" + "shared/reference"
REFERENCE_FALLBACK_FILES = {".ci/run", "README.md", "tests/conftest.py"}


def test_no_file_points_outside_the_checkout() -> None:
    found = [
        hit
        for hit in hits(OUTSIDE)
        if not (
            hit.split(":", 1)[0] in REFERENCE_FALLBACK_FILES
            and REFERENCE_FALLBACK in hit
            and not OUTSIDE.search(hit.split(":", 2)[2].replace(REFERENCE_FALLBACK, ""))
        )
    ]
    assert found == []


# Assembled from pieces, so that this file does not match its own patterns.
@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        ("the item number in issue " + "7's list", ISSUE),
        ("see Issues #" + "12 and 13", ISSUE),
        ("(format: /work" + "/team/contract.md)", OUTSIDE),
        ("kept at ../" + "shared/reference next to the checkout", OUTSIDE),
        ("open('/home" + "/me/notes.txt')", OUTSIDE),
    ],
)
def test_the_patterns_find_what_they_are_for(line: str, pattern: re.Pattern[str]) -> None:
    assert pattern.search(line)


@pytest.mark.parametrize(
    "line", ["image_file = '../../evil'", "file:///home/me/images/", "/proc/self/status"]
)
def test_test_data_and_system_files_are_not_stray_paths(line: str) -> None:
    assert not OUTSIDE.search(line)


def imported_modules(path: Path) -> set[str]:
    """The top-level names a module imports (absolute imports only)."""
    return {name.split(".")[0] for name in imported_names(path)}


def test_tests_import_helpers_from_support_only() -> None:
    """Test modules, conftest and any module beside them are not helpers to import."""
    local = {path.stem for path in TESTS.glob("*.py")}
    offences = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & local)
        for path in [*TESTS.glob("*.py"), *(TESTS / "support").glob("*.py")]
    }
    assert {name: names for name, names in offences.items() if names} == {}


def test_scripts_import_only_the_fault_injectors_of_the_test_code() -> None:
    """Scripts measure the audit with the fault injectors (``tests/support/faults``, put on the
    path by ``scripts/support_path.py``); no other test module, fixture or conftest."""
    offences = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / "scripts").glob("*.py")
        for name in imported_names(path)
        if name.split(".")[0] in {"support", "tests", "conftest"}
        and not name.startswith("support.faults")
    }
    assert offences == set()
