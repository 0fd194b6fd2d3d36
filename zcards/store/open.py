"""Opening a card database file: checked before SQLite sees it, read-only for reading.

Read commands (search, card, stats, changes, deck, proxies, plugin export) never create or
change a database. :func:`connect_readonly` first looks at the file itself: anything but a
regular file (a FIFO would block the open, ``/dev/null`` reads as empty), an empty file, a file
without SQLite's header, or a database cut short or with a damaged header is refused with exit
code 2, naming the file. It then opens the file read-only (SQLite's ``mode=ro``) and refuses a
database without the zcards tables or made by a newer zcards. In a folder or on a file system
it cannot write, SQLite cannot make the WAL's ``-wal``/``-shm`` files; the database is then
read as ``immutable``.

Writers (import, undo) use :func:`connect_writable`: the same checks, except that an empty file
or a SQLite file without tables is a new database; schema creation and upgrades happen inside
the writer's transaction (:func:`zcards.store.schema.create_schema`). SQLite errors and a full
disk become :class:`~zcards.errors.ZcardsError` naming the database (:func:`database_error`).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from zcards.errors import Location, ZcardsError
from zcards.store.schema import (
    SCHEMA_VERSION,
    ZCARDS_TABLES,
    newer_version,
    schema_version,
    table_names,
)

# How long a connection waits for another process's write before "database is locked": the
# longest import of a million cards on a slow machine, with room to spare.
BUSY_TIMEOUT = 600.0
NOT_ZCARDS = "not a zcards card database"
_MAGIC = b"SQLite format 3\x00"
_HEADER = 100
# SQLite's errors meaning that the WAL's files cannot be made or written here: the folder or the
# file system is read-only. A reader then opens the database immutable.
_NO_WAL_FILES = frozenset(
    {
        "SQLITE_CANTOPEN",
        "SQLITE_READONLY_DIRECTORY",
        "SQLITE_READONLY_CANTINIT",
        "SQLITE_READONLY_CANTLOCK",
        "SQLITE_READONLY_RECOVERY",
    }
)
_DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO})
_last_opened: list[Path] = []


def check_file(path: Path, *, writing: bool = False) -> bool:
    """Refuse ``path`` unless it is a regular file with an intact SQLite header.

    Returns False for an empty file, which only a writer accepts (as a new database)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ZcardsError(
            "the card database does not exist (run 'zcards build' or 'zcards import')",
            Location(str(path)),
        ) from None
    except OSError as error:
        raise ZcardsError(f"cannot open the card database: {error.strerror}", _at(path)) from None
    if not stat.S_ISREG(info.st_mode):
        raise not_zcards(path, f"it is {_kind(info.st_mode)}, not a file")
    if info.st_size == 0:
        if writing:
            return False
        raise not_zcards(path, "it is an empty file")
    try:
        with open(path, "rb") as stream:
            head = stream.read(_HEADER)
    except OSError as error:
        raise ZcardsError(f"cannot read the card database: {error.strerror}", _at(path)) from None
    if not head.startswith(_MAGIC):
        raise not_zcards(path, f"it is not a SQLite database (it starts with {head[:16]!r})")
    problem = _header_problem(head, info.st_size, path)
    if problem:
        raise ZcardsError(f"the card database is damaged: {problem}", _at(path))
    return True


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _header_problem(head: bytes, size: int, path: Path) -> str | None:
    """What is wrong with a SQLite header (the checks SQLite makes, plus the file's length)."""
    if len(head) < _HEADER:
        return f"its {len(head)} bytes are less than SQLite's {_HEADER}-byte header"
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"its header names an impossible page size ({page_size})"
    if head[21:24] != b"\x40\x20\x20":
        return "its header's payload fractions are not SQLite's (bytes 21-23)"
    pages = int.from_bytes(head[28:32], "big")
    counted = head[24:28] == head[92:96]  # SQLite trusts the page count only then
    wal = Path(f"{path}-wal")
    wal_frames = wal.exists() and wal.stat().st_size > 32  # pages may still be in the WAL
    if counted and size < pages * page_size and not wal_frames:
        return f"it is cut short ({size} bytes; its header counts {pages * page_size})"
    return None


def not_zcards(path: Path, why: str) -> ZcardsError:
    return ZcardsError(f"{NOT_ZCARDS}: {why}", _at(path))


def _at(path: Path) -> Location:
    return Location(str(path))


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection to the card database at ``path``, checked (see the module)."""
    _remember(path)
    check_file(path)
    uri = path.absolute().as_uri()
    try:
        try:
            conn = _open_checked(f"{uri}?mode=ro", path)
        except sqlite3.OperationalError as error:
            if error.sqlite_errorname not in _NO_WAL_FILES:
                raise
            conn = _open_checked(f"{uri}?mode=ro&immutable=1", path)
        else:
            share_with_owner(path)
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise database_error(error, path) from None
    return conn


def _open_checked(uri: str, path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT)
    try:
        check_schema(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def check_schema(conn: sqlite3.Connection, path: Path, *, writing: bool = False) -> None:
    """Refuse a database without the zcards tables (a writer may fill one without any
    tables) or with a newer schema version."""
    tables = table_names(conn)
    if not tables >= ZCARDS_TABLES:
        if writing and not tables:
            return
        shown = ", ".join(sorted(tables)[:6]) + (", ..." if len(tables) > 6 else "")
        raise not_zcards(path, f"its tables are {shown}" if tables else "it has no tables")
    version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise newer_version(version, str(path))


def connect_writable(path: Path) -> sqlite3.Connection:
    """An autocommit connection (the caller begins its own transaction) for writing the card
    database at ``path``, which must exist: checked first, then in WAL mode."""
    _remember(path)
    check_file(path, writing=True)
    _require_writable(path)
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
        try:
            check_schema(conn, path, writing=True)
            use_wal(conn)
        except BaseException:
            conn.close()
            raise
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise database_error(error, path) from None
    return conn


def use_wal(conn: sqlite3.Connection) -> None:
    """WAL mode (readers and the writer never wait for each other) and its usual syncing."""
    try:
        if conn.execute("pragma journal_mode").fetchone()[0] != "wal":
            conn.execute("pragma journal_mode = wal")
    except sqlite3.OperationalError:
        pass  # another connection is busy with the database: it stays in its old mode
    conn.execute("pragma synchronous = normal")


def _require_writable(path: Path) -> None:
    """Say which file stops a write before SQLite says "attempt to write a readonly database"."""
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if file.exists() and not os.access(file, os.W_OK):
            owner = f" (it belongs to user {file.stat().st_uid})" if file != path else ""
            raise ZcardsError(
                f"cannot write the card database: {file} is read-only{owner}", _at(path)
            )
    folder = path.parent
    if not Path(f"{path}-wal").exists() and not os.access(folder, os.W_OK):
        raise ZcardsError(
            f"cannot write the card database: its folder {folder} is read-only", _at(path)
        )


def share_with_owner(path: Path) -> None:
    """Let the owner of ``path`` write the ``-wal``/``-shm`` files this process made beside it.

    SQLite gives those files the database's permissions, but to their maker: another user's
    search would leave files the database's owner cannot write, and the owner's next import
    would fail. They are handed to the database's group when this process belongs to it
    (readable and writable by the group), else made writable by everyone.
    """
    if not hasattr(os, "geteuid"):
        return
    try:
        database = os.stat(path)
    except OSError:
        return
    me = os.geteuid()
    if database.st_uid == me:
        return
    for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        with suppress(OSError):
            info = os.stat(side)
            if info.st_uid != me:
                continue
            if info.st_gid != database.st_gid:
                with suppress(OSError):  # allowed when this process is in the group
                    os.chown(side, -1, database.st_gid)
                    info = os.stat(side)
            shared = stat.S_IRGRP | stat.S_IWGRP
            if info.st_gid != database.st_gid:
                shared = stat.S_IROTH | stat.S_IWOTH
            mode = stat.S_IMODE(info.st_mode) | (database.st_mode & 0o666) | shared
            if mode != stat.S_IMODE(info.st_mode):
                os.chmod(side, mode)


def _remember(path: Path) -> None:
    _last_opened[:] = [path]


def last_opened() -> Path | None:
    """The card database this process opened last: the one a later SQLite error is about."""
    return _last_opened[0] if _last_opened else None


def blame_database(error: BaseException) -> ZcardsError | None:
    """An error a command let through, as the fault of the database it read when it is one: a
    SQLite error, text that is not UTF-8, a stored list or mapping that is not JSON (zcards
    writes none of these; a changed byte inside a row, which ``quick_check`` cannot see, can),
    or any other error while SQLite's ``quick_check`` finds that database damaged (a byte
    changed in a row can make a value nothing but a damaged file holds). None: not the
    database's fault."""
    path = last_opened()
    if isinstance(error, (sqlite3.Error, UnicodeDecodeError)):
        return database_error(error, path)
    if isinstance(error, json.JSONDecodeError) and path is not None:
        return ZcardsError(
            f"the card database is damaged (a stored value is not JSON: {error.msg}); "
            "rebuild it or restore a copy",
            _at(path),
        )
    if path is None:
        return None
    try:
        conn = connect_readonly(path)
        try:
            found = conn.execute("pragma quick_check(1)").fetchone()[0]
        finally:
            conn.close()
    except (ZcardsError, sqlite3.Error, UnicodeDecodeError) as failure:
        found = str(failure)
    if found == "ok":
        return None
    return ZcardsError(
        f"the card database is damaged ({found}); rebuild it or restore a copy", _at(path)
    )


def database_error(error: sqlite3.Error | UnicodeDecodeError, path: Path | None) -> ZcardsError:
    """A SQLite error (or text in the database that is not UTF-8, which zcards never writes)
    as a sentence about the database ``path``."""
    name = getattr(error, "sqlite_errorname", "") or ""
    reason = str(error)
    if isinstance(error, UnicodeDecodeError):
        reason = f"the card database is damaged (text that is not UTF-8: {error.reason})"
    elif name == "SQLITE_FULL":
        reason = "the disk is full"
    elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        reason = f"the card database is damaged ({error}); rebuild it or restore a copy"
    elif name.startswith("SQLITE_READONLY"):
        reason = f"cannot write the card database ({error})"
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        reason = f"another process kept the card database locked for {BUSY_TIMEOUT:g} s"
    elif name in ("SQLITE_IOERR_READ", "SQLITE_IOERR_SHORT_READ"):
        reason = f"cannot read the card database: a disk error ({name})"
    elif name.startswith("SQLITE_IOERR"):
        reason = (
            "cannot write the card database: the disk is full or failing, or a file-size "
            f"limit was reached ({name})"
        )
    return ZcardsError(reason, Location(str(path)) if path is not None else None)


@contextmanager
def database_errors(path: Path) -> Iterator[None]:
    """Within: SQLite errors, and a full disk or read-only file system however it shows, become
    errors naming ``path`` (the database being written, not a temporary file beside it)."""
    try:
        yield
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise database_error(error, path) from error
    except OSError as error:
        if error.errno not in _DISK_ERRNOS:
            raise
        where = error.filename if error.filename is not None else path
        raise ZcardsError(f"cannot write {where}: {error.strerror}", _at(path)) from error
