"""docs/lackey_plugin.md: every example runs, in order, in an empty folder, and every public
name of ``lackey_plugin`` appears in one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.paths import ROOT

import lackey_plugin

DOC = ROOT / "docs" / "lackey_plugin.md"


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_every_public_name_has_an_example() -> None:
    code = "\n".join(examples())
    missing = [name for name in lackey_plugin.__all__ if not re.search(rf"\b{name}\b", code)]
    assert missing == []


def test_every_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for number, block in enumerate(examples(), start=1):
        exec(compile(block, f"docs/lackey_plugin.md, example {number}", "exec"), namespace)  # noqa: S102
    assert (tmp_path / "dist" / "skirmish" / "uninstall.txt").is_file()
