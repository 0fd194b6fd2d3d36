"""Atomic writes: whole files with the usual permissions, nothing left behind on failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zcards.decks import write_atomic
from zcards.files import atomic_write


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
