"""Reading never needs write access and never changes a file; writing refuses foreign files.

Read commands open the database read-only (``immutable`` where the folder or the file system
cannot be written), leave the owner able to write when another user reads, refuse a file that
is not a zcards card database before touching it, and refuse a newer schema version; an older
one is upgraded by the next write, not by a read. Real ``zcards`` processes, real files; the
two-user and read-only-mount tests need root (``setpriv``, ``unshare``) and skip without it,
or, saying so, where the other user cannot read the checkout (a private parent folder).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.cardfiles import card_file
from support.databases import digest
from support.processes import (
    OTHER,
    OWNER,
    as_user,
    can_switch_users,
    run,
    why_not_other_users,
    zcards_argv,
)

from zcards.cli import cli
from zcards.store.schema import SCHEMA_VERSION

# Every read command, as (arguments before --db); each must leave the database untouched.
# They run on the five-card database (``mini_db_copy``): an export of it is quick.
READERS = {
    "search": ["search", "ghoul"],
    "card": ["card", "gross ghoul"],
    "stats": ["stats"],
    "changes": ["changes"],
    "deck check": ["deck", "check", "DECK"],
    "plugin export": ["plugin", "export", "--out", "OUT"],
}
# Readers that render: a few seconds each, so CI runs them (slow) where a quick run need not.
RENDERING = {"plugin export"}
READER_PARAMS = [
    pytest.param(name, marks=pytest.mark.slow) if name in RENDERING else name
    for name in sorted(READERS)
]


def _reader(name: str, folder: Path) -> list[str]:
    deck = folder / "deck.txt"
    deck.write_text("3 Gross Ghoul\n", encoding="utf-8")
    out = folder / "exported"
    return [
        str(deck) if word == "DECK" else str(out) if word == "OUT" else word
        for word in READERS[name]
    ]


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder every user may write, sticky like /tmp (users cannot remove each other's
    files), outside pytest's private temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="zcards-shared-"))
    folder.chmod(0o1777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def other_users() -> None:
    """Skips, saying why, where zcards cannot run as another user (asked once, when needed)."""
    reason = why_not_other_users()
    if reason is not None:
        pytest.skip(reason)


needs_users = pytest.mark.usefixtures("other_users")


@needs_users
def test_another_users_search_never_stops_the_owner_from_importing(shared_folder: Path) -> None:
    db_path = shared_folder / "cards.db"
    alpha = card_file(shared_folder / "alpha.txt", 20, "alpha")
    beta = card_file(shared_folder / "beta.txt", 5, "beta")
    gamma = card_file(shared_folder / "gamma.txt", 3, "gamma")

    def owner(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return run(as_user(OWNER, zcards_argv(*args)), shared_folder)

    def other(*args: str | Path) -> subprocess.CompletedProcess[str]:
        return run(as_user(OTHER, zcards_argv(*args)), shared_folder)

    assert owner("import", alpha, "--db", db_path).returncode == 0
    assert stat.S_IMODE(db_path.stat().st_mode) == 0o644  # others may only read it
    searched = other("search", "set:alpha", "--count", "--db", db_path)
    assert searched.returncode == 0 and searched.stdout.strip() == "20", searched.stderr
    imported = owner("import", beta, "--db", db_path)
    assert imported.returncode == 0, imported.stderr
    searched = other("search", "set:beta", "--count", "--db", db_path)
    assert searched.returncode == 0 and searched.stdout.strip() == "5", searched.stderr
    assert other("stats", "--db", db_path).returncode == 0
    imported = owner("import", gamma, "--db", db_path)
    assert imported.returncode == 0, imported.stderr
    assert owner("changes", "undo", "3", "--db", db_path).returncode == 0
    refused = other("import", gamma, "--db", db_path)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "cannot write the card database" in refused.stderr


@needs_users
def test_files_another_program_left_are_named_when_the_owner_cannot_write(
    shared_folder: Path,
) -> None:
    """A reader that is not zcards (here Python's sqlite3 as another user) leaves ``-shm``
    and ``-wal`` files the owner cannot write: the owner's import says so, exit code 2."""
    db_path = shared_folder / "cards.db"
    source = card_file(shared_folder / "alpha.txt", 5, "alpha")
    assert (
        run(
            as_user(OWNER, zcards_argv("import", source, "--db", db_path)), shared_folder
        ).returncode
        == 0
    )
    reader = (
        f"import sqlite3; sqlite3.connect('file:{db_path}?mode=ro', uri=True)"
        ".execute('select 1 from cards')"
    )
    assert run(as_user(OTHER, ["python3", "-c", reader]), shared_folder).returncode == 0
    refused = run(as_user(OWNER, zcards_argv("import", source, "--db", db_path)), shared_folder)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"{db_path}-" in refused.stderr and f"belongs to user {OTHER}" in refused.stderr


def _read_only_folder(folder: Path, database: Path) -> Path:
    folder.mkdir()
    db_path = folder / "cards.db"
    shutil.copyfile(database, db_path)
    db_path.chmod(0o644)
    folder.chmod(0o755)
    return db_path


@pytest.mark.parametrize("command", READER_PARAMS)
def test_every_read_command_works_in_a_folder_it_cannot_write(
    command: str, shared_folder: Path, mini_db_copy: Path
) -> None:
    """Root writes everywhere: the command then runs as another user, for whom the folder
    is read-only; without root the folder's own mode makes it read-only."""
    db_path = _read_only_folder(shared_folder / "ro", mini_db_copy)
    before = digest(db_path)
    work = shared_folder / "work"
    work.mkdir(mode=0o777)
    work.chmod(0o777)
    argv = zcards_argv(*_reader(command, work), "--db", db_path)
    if can_switch_users():
        argv = as_user(OTHER, argv)
    elif os.geteuid() == 0:  # root writes in any folder: only another user sees it read-only
        pytest.skip(why_not_other_users() or "")
    else:
        (shared_folder / "ro").chmod(0o555)
    done = run(argv, work)
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in db_path.parent.iterdir()) == ["cards.db"]
    assert digest(db_path) == before


def _in_read_only_mount(
    source: Path, mount: Path, argv: list[str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    script = 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && shift 2 && exec "$@"'
    return run(["unshare", "-m", "sh", "-c", script, "sh", str(source), str(mount), *argv], cwd)


def _can_mount(folder: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    return _in_read_only_mount(folder, folder, ["true"], folder).returncode == 0


@pytest.mark.parametrize("command", READER_PARAMS)
def test_every_read_command_works_on_a_read_only_mount(
    command: str, tmp_path: Path, mini_db_copy: Path
) -> None:
    if not _can_mount(tmp_path):
        pytest.skip("needs root and unshare to mount a read-only file system")
    source, mount, work = tmp_path / "src", tmp_path / "mnt", tmp_path / "work"
    for folder in (source, mount, work):
        folder.mkdir()
    shutil.copyfile(mini_db_copy, source / "cards.db")
    argv = zcards_argv(*_reader(command, work), "--db", mount / "cards.db")
    done = _in_read_only_mount(source, mount, argv, work)
    assert done.returncode == 0, done.stderr
    imported = _in_read_only_mount(
        source,
        mount,
        zcards_argv("import", card_file(work / "x.txt", 2, "x"), "--db", mount / "cards.db"),
        work,
    )
    assert imported.returncode == 2 and "Traceback" not in imported.stderr, imported.stderr
    assert "read-only" in imported.stderr
    assert sorted(path.name for path in source.iterdir()) == ["cards.db"]


def _other_application(path: Path, *, wal: bool) -> Path:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("pragma journal_mode = wal")
    conn.execute("create table notes (id integer primary key, body text)")
    conn.execute("insert into notes (body) values ('keep me')")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("command", sorted(READERS))
@pytest.mark.parametrize("kind", ["other application", "empty file", "empty SQLite database"])
def test_read_commands_refuse_a_file_that_is_not_a_card_database(
    command: str, kind: str, tmp_path: Path
) -> None:
    db_path = tmp_path / "other.sqlite"
    if kind == "other application":
        _other_application(db_path, wal=False)
    elif kind == "empty file":
        db_path.touch()
    else:
        sqlite3.connect(db_path).execute("vacuum").connection.close()
    before = digest(db_path)
    done = CliRunner().invoke(cli, [*_reader(command, tmp_path), "--db", str(db_path)])
    assert done.exit_code == 2, done.output  # an unexpected exception would be exit code 1
    assert f"{db_path}: not a zcards card database" in done.stderr
    assert digest(db_path) == before
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("other")) == [
        "other.sqlite"
    ]


def test_an_import_refuses_another_applications_database(tmp_path: Path) -> None:
    db_path = _other_application(tmp_path / "app.sqlite", wal=True)
    before = digest(db_path)
    done = run(
        zcards_argv("import", card_file(tmp_path / "a.txt", 3, "a"), "--db", db_path), tmp_path
    )
    assert done.returncode == 2 and "not a zcards card database" in done.stderr, done.stderr
    assert "notes" in done.stderr
    conn = sqlite3.connect(db_path)
    assert [row[0] for row in conn.execute("select name from sqlite_master")] == ["notes"]
    conn.close()
    assert digest(db_path) == before


def test_an_import_fills_an_empty_file(tmp_path: Path) -> None:
    db_path = tmp_path / "new.db"
    db_path.touch()
    done = run(
        zcards_argv("import", card_file(tmp_path / "a.txt", 3, "a"), "--db", db_path), tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert sqlite3.connect(db_path).execute("select count(*) from cards").fetchone() == (3,)


def _set_version(db_path: Path, version: int) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute(f"pragma user_version = {version}")
    conn.commit()
    conn.close()


def _version(db_path: Path) -> int:
    conn = sqlite3.connect(db_path)
    try:
        return int(conn.execute("pragma user_version").fetchone()[0])
    finally:
        conn.close()


def test_a_database_of_a_newer_zcards_is_refused(sample_db_copy: Path, tmp_path: Path) -> None:
    _set_version(sample_db_copy, SCHEMA_VERSION + 1)
    before = digest(sample_db_copy)
    for argv in (
        ["search", "k:fast"],
        ["import", str(card_file(tmp_path / "a.txt", 3, "a"))],
        ["changes", "undo", "1"],
    ):
        done = run(zcards_argv(*argv, "--db", sample_db_copy), tmp_path)
        assert done.returncode == 2, done.stderr
        assert (
            f"schema version {SCHEMA_VERSION + 1}" in done.stderr and "newer zcards" in done.stderr
        )
    assert digest(sample_db_copy) == before and _version(sample_db_copy) == SCHEMA_VERSION + 1


def test_an_older_database_is_read_as_it_is_and_upgraded_by_the_next_write(
    mini_db_copy: Path, tmp_path: Path
) -> None:
    older = mini_db_copy
    conn = sqlite3.connect(older)
    conn.executescript(
        """
        alter table import_runs drop column undoes;
        alter table import_runs drop column undone_by;
        drop table replaced_variants;
        pragma user_version = 0;
        """
    )
    conn.close()
    before = digest(older)
    for name in sorted(READERS.keys() - RENDERING):
        done = run(zcards_argv(*_reader(name, tmp_path), "--db", older), tmp_path)
        assert done.returncode == 0, (name, done.stderr)
    assert digest(older) == before and _version(older) == 0
    done = run(
        zcards_argv("import", card_file(tmp_path / "a.txt", 3, "a"), "--db", older),
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert _version(older) == SCHEMA_VERSION
    assert run(zcards_argv("changes", "undo", "2", "--db", older), tmp_path).returncode == 0
