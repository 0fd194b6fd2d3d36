"""Atomic writes: whole files with the usual permissions, nothing left behind on failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lackey_plugin.files import atomic_write
from zcards.query.decks import write_atomic


def test_atomic_write_replaces_the_file_with_normal_permissions(tmp_path: Path) -> None:
    target = tmp_path / "deck.txt"
    target.write_text("old", encoding="utf-8")
    umask = os.umask(0o022)
    try:
        write_atomic(target, "4 Gross Ghoul\n")
    finally:
        os.umask(umask)
    assert target.read_bytes() == b"4 Gross Ghoul\n"
    assert target.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["deck.txt"]


def test_a_failed_write_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "card.jpg"
    target.write_bytes(b"old")
    with pytest.raises(TypeError):
        atomic_write(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["card.jpg"]


def test_simulated_game_logs_get_the_usual_permissions(tmp_path: Path) -> None:
    """The log writer shares the one atomic write (it used to leave logs at mode 0600)."""
    from zcards.cli import main

    umask = os.umask(0o022)
    try:
        main(["simulate", "--games", "2", "--seed", "3", "--out", str(tmp_path / "logs")])
    finally:
        os.umask(umask)
    logs = sorted((tmp_path / "logs").iterdir())
    assert [p.name for p in logs] == ["game-0001.txt", "game-0002.txt"]
    assert {p.stat().st_mode & 0o777 for p in logs} == {0o644}


def test_a_failed_log_write_leaves_no_temporary(tmp_path: Path) -> None:
    from lackey_plugin.log.writer import write_log

    def events():
        raise RuntimeError("the game stopped")
        yield

    with pytest.raises(RuntimeError):
        write_log(events(), tmp_path / "game.txt")
    assert list(tmp_path.iterdir()) == []
