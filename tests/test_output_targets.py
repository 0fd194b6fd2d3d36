"""An ``--out`` that is not a plain file: a link is written through, a FIFO (or a device) is
refused, never renamed over, and the command never hangs on it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import run, zcards_argv

EXAMPLES = ROOT / "examples"


def _commands(db: Path, plugin: Path) -> dict[str, list[str | Path]]:
    """Each command's arguments before its output path (and after: the end of the line)."""
    return {
        "replay": ["replay", EXAMPLES / "game.txt", "--db", db, "--out"],
        "proxies": ["proxies", '"Gross Ghoul"', "--db", db, "--out"],
        "deck convert": ["deck", "convert", EXAMPLES / "my-deck.txt", "--to", "text", "--out"],
        "balance --html": ["balance", "--games", "1", "--max-turns", "2", "--db", db, "--html"],
        "plugin init": ["plugin", "init", "--from", plugin, "--force", "--out"],
    }


# Proxies and balance draw or play before they write: the long ones run with -m slow.
NAMES = [
    "replay",
    pytest.param("proxies", marks=pytest.mark.slow),
    "deck convert",
    pytest.param("balance --html", marks=pytest.mark.slow),
    "plugin init",
]


def _argv(name: str, db: Path, plugin: Path, out: Path) -> list[str]:
    return zcards_argv(*_commands(db, plugin)[name], out)


def _suffix(name: str) -> str:
    return {"plugin init": ".toml", "deck convert": ".txt"}.get(name, ".html")


@pytest.mark.parametrize("name", NAMES)
def test_a_fifo_as_the_output_is_refused_and_left_alone(
    name: str, sample_db_path: Path, mini_plugin: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / f"out{_suffix(name)}"
    os.mkfifo(fifo)
    result = run(_argv(name, sample_db_path, mini_plugin, fifo), tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert str(fifo) in result.stderr and "FIFO" in result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [path.name for path in tmp_path.iterdir()] == [fifo.name]  # no temporary file left


@pytest.mark.parametrize("name", NAMES)
def test_a_link_as_the_output_is_written_through(
    name: str, sample_db_path: Path, mini_plugin: Path, tmp_path: Path
) -> None:
    published = tmp_path / "published"
    published.mkdir()
    target = published / f"real{_suffix(name)}"
    target.write_text("the previous output", encoding="utf-8")
    link = tmp_path / f"out{_suffix(name)}"
    link.symlink_to(target)
    result = run(_argv(name, sample_db_path, mini_plugin, link), tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target
    assert target.read_text(encoding="utf-8") not in ("", "the previous output")
    assert sorted(path.name for path in published.iterdir()) == [target.name]
