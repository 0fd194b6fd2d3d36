"""A new database file never inherits the log of the one it replaces.

SQLite finds a database's WAL (``-wal``) and its index (``-shm``) by name. An import killed
after its commit, while a reader held an older snapshot, leaves its transaction in
``cards.db-wal``. A build (or a first import after the file was removed) that put a new file
at ``cards.db`` next to that log got it applied on the next open: the old import's cards on top
of the new ones, or a corrupt file. Everything runs real ``zcards`` processes.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from support.cardfiles import card_file
from support.databases import assert_intact
from support.processes import ROOT, run, zcards_argv

_HOLD_SNAPSHOT = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("begin")
conn.execute("select count(*) from cards").fetchone()
print("holding", flush=True)
time.sleep(600)
"""


def _runs(db_path: Path) -> int:
    conn = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        return int(conn.execute("select count(*) from import_runs").fetchone()[0])
    finally:
        conn.close()


def _leave_a_committed_import_in_the_log(db_path: Path, cards: Path) -> None:
    """Import ``cards`` into ``db_path`` while another process holds a snapshot (so the WAL
    cannot be checkpointed), SIGKILL the import once its commit is visible, then the reader."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reader = subprocess.Popen(
        [sys.executable, "-c", _HOLD_SNAPSHOT, str(db_path)], stdout=subprocess.PIPE, env=env
    )
    try:
        assert reader.stdout is not None and reader.stdout.readline() == b"holding\n"
        before = _runs(db_path)
        importer = subprocess.Popen(
            zcards_argv("import", cards, "--db", db_path),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        deadline = time.monotonic() + 120
        while _runs(db_path) == before and time.monotonic() < deadline:
            assert importer.poll() in (None, 0), "the import failed"
            time.sleep(0.005)
        importer.send_signal(signal.SIGKILL)
        importer.wait()
    finally:
        reader.send_signal(signal.SIGKILL)
        reader.wait()
    wal = Path(f"{db_path}-wal")
    assert wal.exists() and wal.stat().st_size > 1_000_000, "the import's commit is not in the log"


def test_a_build_after_an_import_killed_past_its_commit_has_only_the_bundled_cards(
    tmp_path: Path,
) -> None:
    out = tmp_path / "build"
    db_path = out / "cards.db"
    assert run(zcards_argv("build", "--step", "database", "--out", out), tmp_path).returncode == 0
    _leave_a_committed_import_in_the_log(db_path, card_file(tmp_path / "big.txt", 20_000, "big"))
    built = run(zcards_argv("build", "--step", "database", "--out", out), tmp_path)
    assert built.returncode == 0, built.stderr
    assert_intact(db_path, cards=100)
    searched = run(zcards_argv("search", "set:big", "--count", "--db", db_path), tmp_path)
    assert searched.returncode == 0 and searched.stdout.strip() == "0", searched.stderr


def test_a_first_import_ignores_the_log_of_a_removed_database(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    assert (
        run(
            zcards_argv("import", card_file(tmp_path / "a.txt", 50, "a"), "--db", db_path), tmp_path
        ).returncode
        == 0
    )
    _leave_a_committed_import_in_the_log(db_path, card_file(tmp_path / "big.txt", 20_000, "big"))
    db_path.unlink()  # the user removes the database; its log stays behind
    done = run(
        zcards_argv("import", card_file(tmp_path / "b.txt", 30, "b"), "--db", db_path), tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert_intact(db_path, cards=30)


def test_a_build_replaces_a_file_that_is_no_database(tmp_path: Path) -> None:
    out = tmp_path / "build"
    out.mkdir()
    (out / "cards.db").write_text("not a database\n")
    Path(f"{out / 'cards.db'}-journal").write_bytes(os.urandom(4096))  # a stray hot journal
    built = run(zcards_argv("build", "--step", "database", "--out", out), tmp_path)
    assert built.returncode == 0, built.stderr
    assert_intact(out / "cards.db", cards=100)
    assert not Path(f"{out / 'cards.db'}-journal").exists()


def test_a_build_keeps_a_readers_snapshot_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    """The new content goes into the existing file as one SQLite transaction: a reader in the
    middle of a read still sees the old cards, its next read the new ones."""
    out = tmp_path / "build"
    db_path = out / "cards.db"
    assert run(zcards_argv("build", "--step", "database", "--out", out), tmp_path).returncode == 0
    assert (
        run(
            zcards_argv("import", card_file(tmp_path / "x.txt", 10, "x"), "--db", db_path), tmp_path
        ).returncode
        == 0
    )
    reader = sqlite3.connect(db_path, isolation_level=None)
    try:
        reader.execute("begin")
        assert reader.execute("select count(*) from cards").fetchone() == (110,)
        built = run(zcards_argv("build", "--step", "database", "--out", out), tmp_path)
        assert built.returncode == 0, built.stderr
        assert reader.execute("select count(*) from cards").fetchone() == (110,)
        reader.execute("commit")
        assert reader.execute("select count(*) from cards").fetchone() == (100,)
    finally:
        reader.close()
    assert_intact(db_path, cards=100)
    assert sorted(path.name for path in out.iterdir() if path.name.startswith(".")) == []
