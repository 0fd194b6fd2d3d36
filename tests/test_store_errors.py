"""Every unusable database file, a full disk and an impossible run number are clean errors:
exit code 2, the file and the cause in the message, never a traceback, the file unchanged.

The fuzz test (hypothesis) gives the read commands odd files as ``--db``: random bytes, a
SQLite header over random bytes, a real card database cut short or with bytes overwritten.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path
from subprocess import CompletedProcess

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cardfiles import card_file
from support.databases import digest
from support.processes import run, zcards_argv

from zcards.cli import cli, main


def _damaged(sample: bytes, kind: str) -> bytes:
    if kind == "text file":
        return b"Name\tSet\nGross Ghoul\talpha\n"
    if kind == "truncated database":
        return sample[: len(sample) // 2]
    if kind == "cut inside the header":
        return sample[:60]
    if kind == "impossible page size":
        return sample[:16] + b"\x00\x03" + sample[18:]
    if kind == "damaged payload fractions":
        return sample[:21] + b"\x00\x00\x00" + sample[24:]
    raise ValueError(kind)


@pytest.mark.parametrize(
    ("kind", "cause"),
    [
        ("text file", "not a zcards card database: it is not a SQLite database"),
        ("truncated database", "the card database is damaged: it is cut short"),
        ("cut inside the header", "the card database is damaged"),
        ("impossible page size", "the card database is damaged: its header names an impossible"),
        ("damaged payload fractions", "the card database is damaged"),
    ],
)
@pytest.mark.parametrize(
    "command", [["search", "k:fast"], ["import", "CARDS"], ["changes", "undo", "1"]]
)
def test_a_damaged_file_is_a_clean_error(
    kind: str, cause: str, command: list[str], sample_db_path: Path, tmp_path: Path
) -> None:
    db_path = tmp_path / "cards.db"
    db_path.write_bytes(_damaged(sample_db_path.read_bytes(), kind))
    before = digest(db_path)
    cards = card_file(tmp_path / "a.txt", 3, "a")
    argv = [str(cards) if word == "CARDS" else word for word in command]
    done = CliRunner().invoke(cli, [*argv, "--db", str(db_path)])
    assert done.exit_code == 2, done.output  # an unexpected exception would be exit code 1
    assert f"{db_path}: {cause}" in done.stderr
    assert digest(db_path) == before


@pytest.mark.parametrize(
    ("kind", "named_by"), [("FIFO", "--db"), ("/dev/null", "--db"), ("folder", "ZCARDS_DB")]
)
def test_a_file_that_is_not_a_regular_file_is_a_clean_error(
    kind: str, named_by: str, tmp_path: Path
) -> None:
    """A FIFO must not block the command (SQLite would wait for a writer to open it)."""
    db_path = Path(os.devnull) if kind == "/dev/null" else tmp_path / "cards.db"
    if kind == "FIFO":
        os.mkfifo(db_path)
    elif kind == "folder":
        db_path.mkdir()
    for command in (["search", "k:fast"], ["import", str(card_file(tmp_path / "a.txt", 3, "a"))]):
        if named_by == "--db":
            done = run(zcards_argv(*command, "--db", db_path), tmp_path, timeout=60)
        else:
            done = run(zcards_argv(*command), tmp_path, env={"ZCARDS_DB": str(db_path)}, timeout=60)
        assert done.returncode == 2, done.stderr
        assert f"{db_path}: not a zcards card database: it is" in done.stderr
        assert "Traceback" not in done.stderr


def test_an_impossible_run_number_is_a_clean_error(sample_db_copy: Path, tmp_path: Path) -> None:
    before = digest(sample_db_copy)
    for argv in (["changes", "undo", "99999999999999999999999"], ["changes", "undo", "0"]):
        done = run(zcards_argv(*argv, "--db", sample_db_copy), tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"there is no import run {argv[-1]}" in done.stderr
    listed = run(
        zcards_argv("changes", "--run", "99999999999999999999999", "--db", sample_db_copy), tmp_path
    )
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert digest(sample_db_copy) == before


def _in_small_file_system(argv: list[str], cwd: Path, mount: Path) -> CompletedProcess[str]:
    """``argv`` with a 600 KiB tmpfs at ``mount`` (a private mount: needs root)."""
    script = 'mount -t tmpfs -o size=600k tmpfs "$1" && shift && exec "$@"'
    return run(["unshare", "-m", "sh", "-c", script, "sh", str(mount), *argv], cwd)


@pytest.mark.parametrize("existing", [True, False], ids=["into a database", "a first import"])
@pytest.mark.parametrize("limit", ["file-size limit", "full file system"])
def test_a_full_disk_during_an_import_names_the_database(
    existing: bool, limit: str, sample_db_path: Path, tmp_path: Path
) -> None:
    """A file-size limit (``RLIMIT_FSIZE``, for anyone) and a full tmpfs (root only)."""
    big = card_file(tmp_path / "big.txt", 20_000, "big")
    if limit == "file-size limit":
        db_path = tmp_path / "cards.db"
        if existing:
            shutil.copyfile(sample_db_path, db_path)
        size = db_path.stat().st_size + 1_000_000 if existing else 1_000_000
        done = run(zcards_argv("import", big, "--db", db_path), tmp_path, limit_file_size=size)
        left = [
            path.name for path in tmp_path.iterdir() if path.name.startswith((".cards", "cards"))
        ]
        left += [digest(db_path)] if db_path.exists() else []
        cause = "a file-size limit was reached"
    else:
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            pytest.skip("needs root and unshare to mount a small file system")
        mount = tmp_path / "small"
        mount.mkdir()
        db_path = mount / "cards.db"
        # What the import left is listed (and the database hashed) before the mount goes.
        setup = f"cp {sample_db_path} {db_path}; " if existing else ""
        script = setup + f'"$@"; code=$?; ls -A {mount}; sha256sum {db_path}; exit $code'
        argv = ["sh", "-c", script, "sh", *zcards_argv("import", big, "--db", db_path)]
        done = _in_small_file_system(argv, tmp_path, mount)
        left = done.stdout.split()
        cause = "the disk is full"
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{db_path}: " in done.stderr and cause in done.stderr, done.stderr
    if existing:
        assert digest(sample_db_path) in left  # unchanged
    else:
        assert not [name for name in left if "cards.db" in name]  # nothing left behind


_READERS = (["search", "k:fast"], ["card", "gross ghoul"], ["stats"], ["changes"])


@st.composite
def odd_files(draw: st.DrawFn, sample: bytes) -> bytes:
    """What a ``--db`` might really hold: junk, a SQLite header over junk, a card database
    cut short, or one with a few bytes overwritten (the header more often than not)."""
    kind = draw(st.sampled_from(["junk", "header", "cut", "bytes"]))
    if kind == "junk":
        return draw(st.binary(max_size=4096))
    if kind == "header":
        return sample[: draw(st.integers(0, 100))] + draw(st.binary(max_size=8192))
    if kind == "cut":
        return sample[: draw(st.integers(0, len(sample)))]
    data = bytearray(sample)
    for _ in range(draw(st.integers(1, 8))):
        end = draw(st.sampled_from([100, 4096, len(data)]))
        data[draw(st.integers(0, end - 1))] = draw(st.integers(0, 255))
    return bytes(data)


def _run_in_process(argv: list[str]) -> int:
    """``zcards ARGV`` in this process: any exception but SystemExit is a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as end:
            return int(end.code or 0)
    return 0


def test_odd_files_as_the_database_fail_cleanly_and_stay_unchanged(sample_db_path: Path) -> None:
    sample = sample_db_path.read_bytes()

    @settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
    @given(data=odd_files(sample), reader=st.sampled_from(_READERS))
    def check(data: bytes, reader: list[str]) -> None:
        with tempfile.TemporaryDirectory() as folder:
            db_path = Path(folder) / "cards.db"
            db_path.write_bytes(data)
            code = _run_in_process([*reader, "--db", str(db_path)])
            assert code in (0, 1, 2)
            assert db_path.read_bytes() == data

    check()


def test_the_fuzzed_files_include_databases_sqlite_only_finds_damaged_when_reading(
    sample_db_path: Path, tmp_path: Path
) -> None:
    """A page overwritten in the middle passes every check at opening: the error comes from
    SQLite while reading, and is still a clean one naming the database."""
    data = bytearray(sample_db_path.read_bytes())
    page = 4096
    conn = sqlite3.connect(sample_db_path)
    root = conn.execute("select rootpage from sqlite_master where name = 'cards'").fetchone()[0]
    conn.close()
    start = (root - 1) * page
    data[start : start + page] = bytes([0xFF]) * page
    db_path = tmp_path / "cards.db"
    db_path.write_bytes(bytes(data))
    done = run(zcards_argv("search", "k:fast", "--db", db_path), tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{db_path}: the card database is damaged" in done.stderr


def test_a_value_only_a_damaged_file_holds_is_blamed_on_the_database(
    sample_db_copy: Path, tmp_path: Path
) -> None:
    """A card without a set (its NOT NULL column emptied behind SQLite's back, as a changed
    byte can) breaks ``card``'s lookup; SQLite's ``quick_check`` confirms the damage, so the
    error is the database's: exit 2, never a traceback."""
    conn = sqlite3.connect(sample_db_copy)
    conn.execute("pragma writable_schema = on")
    schema = conn.execute("select sql from sqlite_master where name = 'cards'").fetchone()[0]
    loose = schema.replace('"set_name" TEXT NOT NULL', '"set_name" TEXT')
    conn.execute("update sqlite_master set sql = ? where name = 'cards'", (loose,))
    conn.commit()
    conn.close()
    conn = sqlite3.connect(sample_db_copy)
    conn.execute("update cards set set_name = null where name = 'Sprinter'")
    conn.execute("pragma writable_schema = on")
    conn.execute("update sqlite_master set sql = ? where name = 'cards'", (schema,))
    conn.commit()
    conn.close()
    done = run(zcards_argv("card", "sprinter", "--db", sample_db_copy), tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert (
        f"{sample_db_copy}: the card database is damaged (NULL value in cards.set_name"
        in done.stderr
    )


def test_a_stored_list_that_is_no_longer_json_is_blamed_on_the_database(
    sample_db_copy: Path, tmp_path: Path
) -> None:
    """A changed byte inside a keyword list leaves the file sound for ``quick_check`` but the
    list unreadable; zcards never writes such a value, so the error is the database's (found by
    the fuzz test above: ``stats`` raised a JSON error)."""
    data = bytearray(sample_db_copy.read_bytes())
    at = data.find(b'["Fast"]')
    assert at > 0
    data[at + 1] = ord("x")
    sample_db_copy.write_bytes(bytes(data))
    done = run(zcards_argv("stats", "--db", sample_db_copy), tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"{sample_db_copy}: the card database is damaged" in done.stderr
