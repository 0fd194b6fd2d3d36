"""Imports that cannot lose data: parallel imports and searches on one
database, a kill -9 in the middle of a write, a failed import racing a successful one.

Everything runs real ``zcards`` processes on real SQLite files.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import sqlite_utils
from support.cardfiles import card_file
from support.paths import ROOT

from zcards.cards.normalise import CardDataError
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET
from zcards.store.schema import ensure_schema

ROWS = 5_000  # per file: each import still writes while others start, and searches run


def zcards(*args: str) -> list[str]:
    return [sys.executable, "-m", "zcards", *args]


def count(db_path: Path, sql: str = "select count(*) from cards") -> int:
    conn = sqlite3.connect(db_path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


@pytest.mark.slow  # end to end: six zcards processes race, with searches in more
def test_parallel_imports_and_searches_lose_nothing(tmp_path: Path) -> None:
    """Six imports race to create and fill one new database while searches run; every
    import succeeds and every row of every file is there."""
    db_path = tmp_path / "cards.db"
    files = [card_file(tmp_path / f"set{n}.txt", ROWS, f"set{n}") for n in range(6)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    logs = [(tmp_path / f"out{n}.txt").open("wb") for n in range(len(files))]
    imports = [
        subprocess.Popen(
            zcards("import", str(path), "--db", str(db_path)),
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        for path, log in zip(files, logs, strict=True)
    ]
    searches = []
    while any(process.poll() is None for process in imports):
        if db_path.exists():
            search = zcards("search", "t:zombie pow>=2", "--db", str(db_path), "--count")
            searches.append(subprocess.run(search, capture_output=True, text=True, env=env))
        time.sleep(0.05)
    for process, log in zip(imports, logs, strict=True):
        process.wait()
        log.close()
        assert process.returncode == 0, Path(log.name).read_text()
    assert searches, "no search ran during the imports"
    for search in searches:
        assert search.returncode == 0, search.stderr
        assert "locked" not in search.stderr
    assert count(db_path) == 6 * ROWS
    rows = count(db_path, "select sum(row_count) from sources where kind = 'card-data'")
    assert rows == 6 * ROWS
    assert count(db_path, "select count(*) from import_runs") == 6
    assert count(db_path, "select count(*) from cards_fts where cards_fts match 'shambles'") > 0


def test_a_failed_import_never_removes_a_database_another_process_filled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failing import opens its database only after another process has created and
    filled ``cards.db``; its failure must not take that database with it."""
    db_path = tmp_path / "cards.db"
    bad = card_file(tmp_path / "bad.txt", 10, "bad", tail=_overflowing_row())
    good = card_file(tmp_path / "good.txt", 500, "good")
    real_connect = sqlite3.connect
    raced: list[subprocess.CompletedProcess[str]] = []

    def connect_after_the_other_import(*args, **kwargs):  # type: ignore[no-untyped-def]
        if not raced and not str(args[0]).startswith("file:"):
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            command = zcards("import", str(good), "--db", str(db_path))
            raced.append(subprocess.run(command, capture_output=True, text=True, env=env))
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect_after_the_other_import)
    with pytest.raises(CardDataError, match="out of range"):
        import_sources(db_path, [str(bad)])
    monkeypatch.undo()
    assert raced and raced[0].returncode == 0, raced[0].stderr if raced else "no race"
    assert "500 added" in raced[0].stdout
    assert count(db_path) == 500
    assert not list(tmp_path.glob(".cards.db.*")), "a temporary database was left behind"


def _overflowing_row() -> str:
    return "Huge\tbad\thuge\tZombie\tRage\t\t18446744073709551616\t\t\t\t\tC\tToo strong.\n"


def test_schema_creation_is_idempotent_under_races(tmp_path: Path) -> None:
    db_path = tmp_path / "race.db"
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def create() -> None:
        try:
            db = sqlite_utils.Database(sqlite3.connect(db_path, timeout=30))
            start.wait()
            ensure_schema(db)
            db.close()
        except BaseException as error:  # noqa: BLE001 (collected and reported below)
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    names = sqlite_utils.Database(db_path).table_names()
    assert {"cards", "sources", "import_runs", "changes", "card_variants"} <= set(names)


def _start_import(source: Path, db_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = zcards("import", str(source), "--db", str(db_path))
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _kill_mid_write(process: subprocess.Popen[bytes], db_path: Path) -> None:
    """SIGKILL the import once its journal, WAL, temporary database or (an old zcards) the
    database itself holds data: in the middle of the write."""
    folder, name = db_path.parent, db_path.name
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        written = [Path(f"{db_path}-wal"), Path(f"{db_path}-journal"), db_path]
        written += folder.glob(f".{name}.import-*")
        if any(path.exists() and path.stat().st_size > 256 * 1024 for path in written):
            break
        time.sleep(0.005)
    assert process.poll() is None, "the import finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_kill_during_an_import_leaves_the_previous_database_intact(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    import_sources(db_path, [str(BUNDLED_SET)])
    big = card_file(tmp_path / "big.txt", 200_000, "big")
    _kill_mid_write(_start_import(big, db_path), db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("pragma integrity_check").fetchone() == ("ok",)
    assert conn.execute("select count(*) from cards").fetchone()[0] == 100
    assert conn.execute("select count(*) from cards where set_name = 'big'").fetchone() == (0,)
    conn.close()
    report = import_sources(db_path, [str(card_file(tmp_path / "small.txt", 50, "small"))])
    assert report.added == 50 and count(db_path) == 150


def test_kill_during_a_first_import_leaves_no_half_database(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    big = card_file(tmp_path / "big.txt", 200_000, "big")
    _kill_mid_write(_start_import(big, db_path), db_path)
    if db_path.exists():  # killed after the database was complete and in place
        assert count(db_path) == 200_000
    report = import_sources(db_path, [str(BUNDLED_SET)])
    assert report.added == 100
    assert not list(tmp_path.glob(".cards.db.*")), "the killed import's temporary file stayed"
