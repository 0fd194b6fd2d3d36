"""``zcards build``: the bundled set into OUT/cards.db, the plugin and proxies, offline."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
import sqlite_utils
from click.testing import CliRunner
from support.paths import ROOT

from lackey_plugin.lint import lint_plugin
from zcards.cli import cli
from zcards.publish import build as build_module
from zcards.publish.build import STEPS, BuildContext, StepResult, build

BUNDLED_CARDS = 100
MINI_CARDS = 5  # tests/plugin_golden/mini.txt


@pytest.fixture(scope="module")
def full_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One complete build through the CLI, as the README's first command runs it."""
    out = tmp_path_factory.mktemp("build") / "build"
    result = CliRunner().invoke(cli, ["build", "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    (out / "steps.json").write_text(result.output, encoding="utf-8")
    return out


@pytest.mark.slow
def test_full_build_writes_database_plugin_and_proxies(full_build: Path) -> None:
    steps = json.loads((full_build / "steps.json").read_text(encoding="utf-8"))
    assert [step["step"] for step in steps] == ["database", "plugin", "proxies"]
    assert sqlite_utils.Database(full_build / "cards.db")["cards"].count == BUNDLED_CARDS
    plugin = full_build / "plugin" / "zombieccg"
    # Built without --base-url: only the placeholder addresses are flagged (local testing).
    assert {(f.file, f.code) for f in lint_plugin(plugin)} == {
        ("updatelist.txt", "placeholder-url"),
        ("version.txt", "placeholder-url"),
    }
    images = list((plugin / "sets" / "setimages" / "alpha").glob("*.jpg"))
    assert len(images) == BUNDLED_CARDS
    pages = len(pypdf.PdfReader(full_build / "proxies.pdf").pages)
    assert pages == math.ceil(BUNDLED_CARDS / 9)
    (note,) = next(step["notes"] for step in steps if step["step"] == "plugin")
    assert "for local testing only" in note


@pytest.mark.slow
def test_a_rebuild_of_an_unchanged_set_draws_nothing(full_build: Path) -> None:
    """The first build's faces are in the render cache: the second copies them, bytes and all."""
    before = (full_build / "proxies.pdf").read_bytes()
    result = CliRunner().invoke(cli, ["build", "--out", str(full_build), "--format", "json"])
    assert result.exit_code == 0, result.output
    summaries = {step["step"]: step["summary"] for step in json.loads(result.output)}
    for step in ("plugin", "proxies"):
        assert f"0 card faces drawn, {BUNDLED_CARDS} from the cache" in summaries[step]
    assert "(unchanged;" in summaries["plugin"]
    assert (full_build / "proxies.pdf").read_bytes() == before


def test_rebuild_replaces_the_database(tmp_path: Path) -> None:
    build(tmp_path, ["database"])
    db = sqlite_utils.Database(tmp_path / "cards.db")
    db["cards"].delete_where()
    db.close()
    build(tmp_path, ["database"])
    assert sqlite_utils.Database(tmp_path / "cards.db")["import_runs"].count == 1
    assert sqlite_utils.Database(tmp_path / "cards.db")["cards"].count == BUNDLED_CARDS


def test_a_failing_step_keeps_the_previous_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build(tmp_path, ["database"])
    before = (tmp_path / "cards.db").read_bytes()
    broken = tmp_path / "broken.txt"
    broken.write_text("Name\tSet\tImageFile\tFaction\nx\t\tx\tRage\n", encoding="utf-8")
    monkeypatch.setattr(build_module, "BUNDLED_SET", broken)
    with pytest.raises(Exception, match="Set is empty"):
        build(tmp_path, ["database"])
    assert (tmp_path / "cards.db").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.txt", "cards.db"]


def test_steps_are_a_list_later_parts_extend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def count_step(context: BuildContext) -> StepResult:
        count = sqlite_utils.Database(context.db_path)["cards"].count
        return StepResult("count", (), f"{count} cards seen by a later step")

    monkeypatch.setattr(build_module, "STEPS", [*STEPS, ("count", count_step)])
    heard: list[str] = []
    result = build(tmp_path, ["database", "count"], on_step=lambda step: heard.append(step.name))
    assert result.steps[-1].summary == f"{BUNDLED_CARDS} cards seen by a later step"
    assert heard == ["database", "count"]
    with pytest.raises(ValueError, match="unknown build step"):
        build(tmp_path, steps=["nope"])


def test_cli_build_one_step_prints_its_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--out", str(tmp_path / "b"), "--step", "database"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"database: {BUNDLED_CARDS} cards in ")
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["cards.db"]


NO_PANGO_LIBRARY = """
import ctypes

class NoPango(ctypes.CDLL):
    def __init__(self, name, *args, **kwargs):
        if "pango" in str(name):
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        super().__init__(name, *args, **kwargs)

ctypes.CDLL = NoPango
"""


def _zcards_without_pango(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run zcards where Pango cannot be loaded: ``import weasyprint`` fails the way it does
    without it, and so does loading the library directly (zcards probes it with ctypes)."""
    fake = tmp_path / "no-pango"
    (fake / "weasyprint").mkdir(parents=True, exist_ok=True)
    (fake / "weasyprint" / "__init__.py").write_text(
        "raise OSError(\"cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open "
        'shared object file: No such file or directory")\n',
        encoding="utf-8",
    )
    (fake / "sitecustomize.py").write_text(NO_PANGO_LIBRARY, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(fake), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "zcards", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_build_without_pango_names_the_packages_and_writes_nothing(tmp_path: Path) -> None:
    done = _zcards_without_pango(tmp_path, "build", "--out", "out")
    assert done.returncode == 2, done.stderr
    assert "sudo apt install libpango-1.0-0" in done.stderr and "brew install pango" in done.stderr
    assert "libpango-1.0-0: cannot open shared object file" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    database_only = _zcards_without_pango(tmp_path, "build", "--out", "out", "--step", "database")
    assert database_only.returncode == 0, database_only.stderr
    assert (tmp_path / "out" / "cards.db").is_file()


def test_build_says_where_it_wrote_and_how_to_query(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build", "--step", "database"])
    assert result.exit_code == 0, result.output
    assert "The card database is build/cards.db; from this folder every command reads it" in (
        result.stdout
    )
    elsewhere = CliRunner().invoke(cli, ["build", "--step", "database", "--out", "other"])
    assert "zcards search 'k:fast' --db other/cards.db" in elsewhere.stdout
    searched = CliRunner().invoke(cli, ["search", "k:fast", "--count"])
    assert searched.exit_code == 0 and int(searched.stdout) > 0


def test_build_reports_progress_inside_steps(mini_db_copy: Path) -> None:
    """The proxies step of the five-card database (a built cards.db is what it reads)."""
    out = mini_db_copy.parent
    heard: list[tuple[str, int, int]] = []
    build(out, ["proxies"], progress=lambda *event: heard.append(event))
    assert {stage for stage, _done, _total in heard} == {"proxies"}
    assert heard[-1] == ("proxies", MINI_CARDS, MINI_CARDS)
    assert [done for _stage, done, _total in heard] == sorted(done for _s, done, _t in heard)


NO_DRAWING = """
import sys
from zcards.publish.build import build
build(sys.argv[1], ["plugin", "proxies"])
print(sorted({name.split(".")[0] for name in sys.modules} & {"weasyprint", "pypdfium2", "jinja2"}))
"""


def test_a_rebuild_that_draws_nothing_never_loads_weasyprint(mini_db_copy: Path) -> None:
    """Every face comes from the render cache the first build filled: the Pango check and the
    cache keys probe the libraries directly, and WeasyPrint is imported only to draw; the
    sheets' keys need no HTML (Jinja) and their joined PDF comes from the cache (pdfium)."""
    out = mini_db_copy.parent
    command = [sys.executable, "-c", NO_DRAWING, str(out)]
    first = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    again = subprocess.run(command, capture_output=True, text=True, check=True, timeout=300)
    assert first.stdout.strip() != "[]", "the first build draws, with WeasyPrint"
    assert again.stdout.strip() == "[]", again.stdout
