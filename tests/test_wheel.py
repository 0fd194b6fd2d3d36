"""The wheel holds the product and only the product: every module and data file of the two
packages (card set, decks, effect rows, game definition, log templates, Jinja templates) and
no test machinery (the fault injectors live in tests/support/faults)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from support.paths import ROOT

PACKAGES = ("zcards", "lackey_plugin")
TEMPLATES = ("templates", "zcards/templates")  # force-included by pyproject.toml
TEST_MACHINERY = ("tests/", "support/", "faults", "conftest", "test_")


def _source_files(folder: Path, inside: str) -> set[str]:
    return {
        f"{inside}/{path.relative_to(folder).as_posix()}"
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The file list of a wheel built from the checkout by the project's build backend."""
    from hatchling.builders.wheel import WheelBuilder

    out = tmp_path_factory.mktemp("wheel")
    (built,) = WheelBuilder(str(ROOT)).build(directory=str(out), versions=["standard"])
    with zipfile.ZipFile(built) as wheel:
        return {name for name in wheel.namelist() if ".dist-info/" not in name}


def test_the_wheel_holds_every_module_and_data_file_of_the_packages(
    wheel_files: set[str],
) -> None:
    expected = {name for package in PACKAGES for name in _source_files(ROOT / package, package)}
    expected |= _source_files(ROOT / TEMPLATES[0], TEMPLATES[1])
    assert sorted(expected - wheel_files) == [], "missing from the wheel"
    assert sorted(wheel_files - expected) == [], "in the wheel but not in the packages"


def test_the_wheel_holds_no_test_machinery(wheel_files: set[str]) -> None:
    assert [name for name in wheel_files if any(m in name for m in TEST_MACHINERY)] == []


def test_the_wheel_holds_the_data_the_package_reads(wheel_files: set[str]) -> None:
    assert {
        "zcards/data/alpha.txt",
        "zcards/game/effects.toml",
        "zcards/game/zombie.toml",
        "lackey_plugin/log/templates.toml",
        "zcards/templates/cardface.html.j2",
    } <= wheel_files
    assert any(name.startswith("zcards/data/decks/") for name in wheel_files)
