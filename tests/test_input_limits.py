"""Inputs someone else named are read only as regular files, and only up to a size: a FIFO
never blocks a command, ``/dev/zero`` is never read to the end, a line without end is refused
at its cap, and a card count no deck can hold is an error naming its line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.processes import run, zcards_argv

DECK = ROOT / "zcards" / "data" / "decks"


def _commands(db: Path, item: Path) -> dict[str, list[str | Path]]:
    """Each command with ``item`` where it reads an input file."""
    deck = sorted(DECK.iterdir())[0]
    out = item.parent / "x"
    return {
        "deck check": ["deck", "check", item, "--db", db],
        "import": ["import", item, "--db", item.parent / "new.db"],
        "audit": ["audit", item, "--db", db],
        "log parse": ["log", "parse", item],
        "log state": ["log", "state", item, "--at", "1", "--db", db],
        "replay": ["replay", item, "--db", db, "--out", item.parent / "page.html"],
        "balance --against": ["balance", "--games", "1", "--against", item, "--db", db],
        "simulate --deck": ["simulate", "--deck", item, "--deck", deck, "--db", db, "--games", "1"],
        "plugin export --game": ["plugin", "export", "--game", item, "--db", db, "--out", out],
        "plugin export --previous": ["plugin", "export", "--previous", item, "--db", db, "--out",
                                     out],
    }  # fmt: skip


NAMES = list(_commands(Path(), Path()))


def _refused(result, item: Path | str, *words: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert str(item) in result.stderr, result.stderr
    assert all(word in result.stderr for word in words), result.stderr


@pytest.mark.parametrize("name", NAMES)
def test_a_fifo_as_an_input_is_refused_without_blocking(
    name: str, sample_db_path: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "input.txt"
    os.mkfifo(fifo)
    result = run(zcards_argv(*_commands(sample_db_path, fifo)[name]), tmp_path, timeout=60)
    _refused(result, fifo, "FIFO")


@pytest.mark.parametrize("name", ["deck check", "import", "log parse", "balance --against"])
def test_an_endless_device_is_never_read(name: str, sample_db_path: Path, tmp_path: Path) -> None:
    zero = Path("/dev/zero")
    result = run(zcards_argv(*_commands(sample_db_path, zero)[name]), tmp_path, timeout=60)
    _refused(result, zero, "character device")


def test_a_log_line_without_end_is_refused_at_its_cap(tmp_path: Path) -> None:
    log = tmp_path / "game.txt"
    log.write_bytes(b"[1:00:00] Alice: hello\n" + b"x" * (3 << 20))
    result = run(zcards_argv("log", "parse", log), tmp_path, timeout=60)
    _refused(result, log, "line 2", "longer than")


@pytest.mark.parametrize("count", ["99999999999999999999", "1000000000"])
@pytest.mark.parametrize(
    "name",
    ["deck check", "deck convert"]
    + [pytest.param(name, marks=pytest.mark.slow) for name in ("proxies", "simulate", "balance")],
)
def test_a_card_count_no_deck_holds_is_an_error(
    name: str, count: str, sample_db_path: Path, tmp_path: Path
) -> None:
    deck = tmp_path / "huge.txt"
    deck.write_text(f"4 Trucker Earl\n{count} Gross Ghoul\n", encoding="utf-8")
    other, db = sorted(DECK.iterdir())[0], sample_db_path
    argv = {
        "deck check": ["deck", "check", deck, "--db", db],
        "deck convert": ["deck", "convert", deck, "--to", "dek", "--db", db],
        "proxies": ["proxies", "--deck", deck, "--db", db, "--out", tmp_path / "p.pdf"],
        "simulate": ["simulate", "--deck", deck, "--deck", other, "--db", db, "--games", "1"],
        "balance": ["balance", "--deck", deck, "--deck", other, "--db", db, "--games", "1"],
    }[name]  # fmt: skip
    result = run(zcards_argv(*argv), tmp_path, timeout=60)
    _refused(result, f"{deck}, line 2", "card count")
