"""Lazy commands: ``zcards --help`` and a one-card search import only what they run.

Startup time itself is measured by ``scripts/bench_startup.py`` (ratios, not assertions);
this test pins the cause: heavy modules stay out of ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

HEAVY = (
    "weasyprint",
    "requests",
    "lxml",
    "jinja2",
    "PIL",
    "rapidfuzz",
    "zcards.rules",
    "zcards.rules.engine",
    "zcards.ingest.importer",
    "zcards.publish.build",
    "lackey_plugin.export",
    "sqlite_utils",  # a third of a search's start-up: searches read through sqlite3 alone
    "lackey_plugin.log.events",  # only log commands need the event classes
)
PROBE = """
import json, sys
from zcards.cli import main
sys.argv[0] = "zcards"
try:
    main(sys.argv[1:])
except SystemExit as exit_:
    assert not exit_.code, exit_.code
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_modules(*args: str, cwd: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},  # this checkout, however it is installed
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("search", 'name="Gross Ghoul"'),
        ("search", "k:fast", "--format", "json"),
    ],
    ids=" ".join,
)
def test_light_commands_leave_heavy_modules_alone(
    args: tuple[str, ...], sample_db_path: Path, tmp_path: Path
) -> None:
    command = args if args == ("--help",) else (*args, "--db", str(sample_db_path))
    modules = loaded_modules(*command, cwd=tmp_path)
    assert "zcards.cli" in modules
    assert sorted(m for m in HEAVY if m in modules) == []


def test_help_imports_no_command_module(tmp_path: Path) -> None:
    modules = loaded_modules("--help", cwd=tmp_path)
    assert sorted(m for m in modules if m.startswith("zcards.")) == [
        "zcards.cli",
        "zcards.cli.common",
        "zcards.version",
    ]
    assert sorted(m for m in modules if m.startswith("lackey_plugin")) == [
        "lackey_plugin",
        "lackey_plugin.errors",
        "lackey_plugin.lazy",
    ]


NETWORK = ("requests", "urllib3", "http.client", "lxml", "sqlite_utils")
"""What only downloads, HTML pages and plugin XML need: a local import loads none of them."""


@pytest.mark.parametrize("changed", [False, True], ids=["unchanged", "changed"])
def test_a_local_import_loads_no_network_library(tmp_path: Path, changed: bool) -> None:
    from zcards.ingest.importer import import_sources
    from zcards.resources import BUNDLED_SET

    source, db = tmp_path / "cards.txt", tmp_path / "cards.db"
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines(keepends=True)
    source.write_text("".join(lines), encoding="utf-8")
    import_sources(db, [str(source)])
    if changed:
        source.write_text("".join(lines[:-1]), encoding="utf-8")
    modules = loaded_modules("import", str(source), "--db", str(db), "--prune", cwd=tmp_path)
    assert "zcards.ingest.importer" in modules
    assert sorted(m for m in NETWORK if m in modules) == []
