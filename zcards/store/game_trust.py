"""Whether the game definition stored in a database was stored by you, on this machine.

A definition may name files to ship (``[files]``, a card back, a folder of faces). A database
is a file people pass around, so a stored definition could name ``/etc`` or your
``.bash_history``: it ships files only when its import ran here, as you. The import signs the
definition and the folder its paths start from with a key only you can read
(``$XDG_CONFIG_HOME/zcards/trust.key``, made on first use, mode 0600); a definition whose
signature does not check out (another machine's, another user's, edited) ships nothing unless
``plugin export --trust-game`` says so.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from zcards.errors import ZcardsError
from zcards.store.game_columns import stored_game

if TYPE_CHECKING:
    from lackey_plugin.gamefile import GameFile

TRUST_TABLE = """CREATE TABLE IF NOT EXISTS "game_folder" (
   "id" INTEGER PRIMARY KEY CHECK ("id" = 1),
   "folder" TEXT NOT NULL,
   "signature" TEXT NOT NULL
)"""
_KEY_BYTES = 32


def key_path() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "zcards" / "trust.key"


def _key(*, make: bool) -> bytes | None:
    """This user's signing key; ``make``: made (atomically, readable by the user only) when
    missing. None when there is none (or it cannot be made: a home that cannot be written)."""
    path = key_path()
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if not make:
            return None
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = path.with_name(f".trust.key.{os.getpid()}")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(os.urandom(_KEY_BYTES))
        try:
            os.link(temporary, path)  # never replaces a key another process made first
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
        return path.read_bytes()
    except OSError:
        return None


def _signature(key: bytes, definition: str, folder: str) -> str:
    message = definition.encode("utf-8") + b"\0" + folder.encode("utf-8")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def sign_game(conn: sqlite3.Connection, definition: str, folder: Path) -> bool:
    """Record that ``definition`` (its paths relative to ``folder``) was stored here, by you;
    False when no key can be made (the definition then ships files only when trusted)."""
    conn.execute(TRUST_TABLE)
    conn.execute('delete from "game_folder"')
    key = _key(make=True)
    if key is None:
        return False
    resolved = str(folder.resolve())
    conn.execute(
        'insert into "game_folder" ("id", "folder", "signature") values (1, ?, ?)',
        (resolved, _signature(key, definition, resolved)),
    )
    return True


def signed_folder(conn: sqlite3.Connection, definition: str) -> Path | None:
    """The folder the stored ``definition``'s paths start from, if its signature checks out."""
    try:
        row = conn.execute('select "folder", "signature" from "game_folder" where "id" = 1')
        found = row.fetchone()
    except sqlite3.OperationalError:  # no such table: stored by an older zcards
        return None
    if found is None:
        return None
    folder, signature = found
    key = _key(make=False)
    if key is None or not hmac.compare_digest(
        str(signature), _signature(key, definition, str(folder))
    ):
        return None
    return Path(folder)


def exported_game(conn: sqlite3.Connection, where: Path | None, trust: bool) -> GameFile | None:
    """The database's game definition for an export, its paths starting from the folder its
    import signed; an unsigned one that names files to ship is refused unless ``trust`` (its
    paths then start from the folder of the database, at ``where``)."""
    game = stored_game(conn)
    if game is None:
        return None
    folder = signed_folder(conn, game.source)
    if folder is None and game.named_files and not trust:
        raise ZcardsError(
            f"the game definition stored in {where} names files to copy into the plugin "
            f"({', '.join(game.named_files)}), and it was not stored there by an import of "
            "yours on this machine: pass --trust-game to ship them (its paths then start "
            "from the database's folder), or --game FILE"
        )
    return stored_game(conn, folder or (where.absolute().parent if where else Path(".")))
