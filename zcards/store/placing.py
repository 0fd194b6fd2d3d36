"""Putting a newly built database file in place (a first import, ``zcards build``).

A database in WAL mode is more than its file: committed transactions may still sit in
``cards.db-wal``, indexed by ``cards.db-shm``. SQLite finds those files by name, so a new file
put where an old database was inherits the old database's log, and SQLite applies it on the
next open: a corrupt database, or the old cards on top of the new ones. So a database is put
in place only under an exclusive lock on its folder (every zcards process that creates or
replaces a database takes it), and:

* where no database is, the stale ``-wal``, ``-shm`` and ``-journal`` of a removed one are
  deleted first, then the new file is hard-linked into place (never over a file another
  process made meanwhile; renamed where the file system has no hard links);
* over a database SQLite can open, the new content is copied into the existing file with
  SQLite's backup API, as one write transaction under SQLite's own locks: the old log is
  SQLite's to apply or discard, readers keep their snapshot until they finish, and a kill
  leaves either database whole;
* over a file SQLite cannot use (not a database, damaged), its logs are deleted and the new
  file is renamed over it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from lackey_plugin.folder_swap import locked
from zcards.store.open import BUSY_TIMEOUT

_LOGS = ("-wal", "-shm", "-journal")
_UNUSABLE = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def temporary_path(db_path: Path) -> Path:
    """A fresh name beside ``db_path`` for building a database (``.cards.db.import-PID-XXXX``);
    :func:`remove_stale_temporaries` knows it by its process id."""
    return db_path.with_name(f".{db_path.name}.import-{os.getpid()}-{os.urandom(4).hex()}")


def remove_temporary(path: Path) -> None:
    for leftover in (path, *(Path(f"{path}{suffix}") for suffix in _LOGS)):
        leftover.unlink(missing_ok=True)


def remove_stale_temporaries(db_path: Path) -> None:
    """Temporary databases of builds and imports that were killed (their process is gone)."""
    for path in db_path.parent.glob(f".{db_path.name}.import-*"):
        pid = path.name.removeprefix(f".{db_path.name}.import-").split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            path.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def place_database(built: Path, target: Path, *, replace: bool) -> bool:
    """Put the complete database ``built`` (closed, beside ``target``) at ``target``, as the
    module says. Without ``replace``, an existing ``target`` is left alone: False."""
    with locked(target.parent):
        if os.path.lexists(target):
            if not replace:
                return False
            if _copy_into(built, target):
                return True
        for suffix in _LOGS:
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        if replace:
            os.replace(built, target)
            return True
        try:
            os.link(built, target)
        except FileExistsError:  # made by a process that does not take the lock
            return False
        except OSError:  # a file system without hard links; the lock keeps zcards out
            os.rename(built, target)
    return True


def _copy_into(built: Path, target: Path) -> bool:
    """Copy ``built`` into the database ``target`` in one SQLite write transaction; False when
    SQLite cannot use ``target`` (not a database, damaged)."""
    source = sqlite3.connect(built, isolation_level=None)
    try:
        try:
            destination = sqlite3.connect(target, timeout=BUSY_TIMEOUT, isolation_level=None)
        except sqlite3.DatabaseError as error:
            if _unusable(error):
                return False
            raise
        try:
            _match_page_size(source, destination)
            source.backup(destination)
        except sqlite3.DatabaseError as error:
            if _unusable(error):
                return False
            raise
        finally:
            destination.close()
    finally:
        source.close()
    return True


def _match_page_size(source: sqlite3.Connection, destination: sqlite3.Connection) -> None:
    """A backup into a WAL database needs equal page sizes: the private source adapts."""
    wanted = destination.execute("pragma page_size").fetchone()[0]
    if source.execute("pragma page_size").fetchone()[0] != wanted:
        source.execute("pragma journal_mode = delete")
        source.execute(f"pragma page_size = {int(wanted)}")
        source.execute("vacuum")


def _unusable(error: sqlite3.DatabaseError) -> bool:
    return (getattr(error, "sqlite_errorname", "") or "").startswith(_UNUSABLE)
