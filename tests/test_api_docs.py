"""The documented Python API: every example in docs/api.md runs, and the packages export
exactly what they declare, lazily."""

from __future__ import annotations

import importlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

from lackey_plugin.lazy import declared_exports

API_DOC = ROOT / "docs" / "api.md"
PACKAGES = ("lackey_plugin", "zcards")


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", API_DOC.read_text(encoding="utf-8"), re.S)


def test_the_api_page_has_examples_for_each_job() -> None:
    code = "\n".join(examples())
    for call in (
        "open_db",
        "import_sources",
        "search_rows",
        "export_plugin",
        "lint_plugin",
        "checksum_file",
        "read_card_data",
        "render_card_files",
        "read_deck",
        "read_updatelist",
        "parse_plugininfo",
        "parse_log_file",
        "audit",
    ):
        assert f"{call}(" in code, call


@pytest.mark.slow  # every documented example end to end, like the README's tour
def test_every_example_in_docs_api_md_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The blocks run in order in one namespace, in a fresh folder holding ``examples/``."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ZCARDS_DB", raising=False)
    namespace: dict[str, object] = {}
    for number, block in enumerate(examples(), start=1):
        exec(compile(block, f"docs/api.md, example {number}", "exec"), namespace)  # noqa: S102
    printed = capsys.readouterr().out
    assert "R5.1 38" in printed and "cannot read the log" in printed
    assert (tmp_path / "dist" / "zombieccg" / "updatelist.txt").is_file()


@pytest.mark.parametrize("package", PACKAGES)
def test_all_is_what_the_package_declares_and_every_name_resolves(package: str) -> None:
    module = importlib.import_module(package)
    declared = declared_exports(module.__file__ or "")
    assert sorted(module.__all__) == sorted(declared)
    for name in module.__all__:
        value = getattr(module, name)
        assert value is getattr(importlib.import_module(declared[name]), name), name
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        getattr(module, "nothing_here")  # noqa: B009 - the lookup itself is under test


def test_importing_the_packages_loads_nothing_else() -> None:
    probe = "import json, sys, zcards, lackey_plugin; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=True,
    )
    loaded = [m for m in json.loads(done.stdout) if m.startswith(PACKAGES)]
    assert sorted(loaded) == ["lackey_plugin", "lackey_plugin.lazy", "zcards", "zcards.version"]
