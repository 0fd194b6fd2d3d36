"""A content-addressed cache of rendered card faces, proxy sheet runs and art box pictures: a face
is drawn again only when what it shows changed.

A key is the SHA-256 of everything an output depends on: what the face shows (card fields, art
by the digest of its bytes), its layout and resolution, and the renderer's fingerprint -- the
templates' source, the font files fontconfig offers (path, size, modification time) and the
versions of WeasyPrint, Pango, pdfium and Pillow. Entries are written atomically, so parallel
runs may share the folder, and the cache is kept under :data:`MAX_BYTES` by removing the
entries used longest ago.

The folder is ``$ZCARDS_CACHE``, else ``$XDG_CACHE_HOME/zcards``, else ``~/.cache/zcards``;
``ZCARDS_CACHE=off`` turns caching off. ``$ZCARDS_CACHE`` may name any folder, a home among
them, so the cache only ever touches what it made: a folder is a cache once it holds
:data:`MARKER` (written when the folder is empty or new), one that holds other files is
refused, and pruning removes only files named like entries in the cache's own subfolders.
Every entry is sealed (its size and SHA-256 after the data, see :mod:`zcards.publish.seal`):
a truncated, replaced or linked entry is not used but drawn again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lackey_plugin.files import renamed_into
from zcards.errors import UsageError
from zcards.publish.native import installed_version, native
from zcards.publish.seal import ENTRY_NAMES, read_regular, seal, unsealed
from zcards.resources import templates_dir

log = logging.getLogger(__name__)

CACHE_ENV = "ZCARDS_CACHE"
OFF = "off"
MAX_BYTES = 1 << 30
# Bump when rendering code changes what a face looks like in a way no input above captures.
FORMAT = 1
# CACHEDIR.TAG (bford.net/cachedir): backup tools skip the folder; the first line is the standard.
MARKER = "CACHEDIR.TAG"
MARKER_TEXT = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This folder is the render cache of zcards (card faces, proxy sheets); it may be deleted.\n"
)
KINDS = ("faces", "runs", "assets")


def default_root() -> Path | None:
    """The cache folder from the environment (None: caching is off)."""
    configured = os.environ.get(CACHE_ENV)
    if configured == OFF:
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "zcards"


@dataclass(frozen=True)
class Cache:
    """Entries are files ``ROOT/KIND/KEY.SUFFIX``; reading one marks it as used."""

    root: Path

    @property
    def assets(self) -> Path:
        """The art box pictures (named by their content, see :mod:`zcards.publish.cardart`)."""
        return self.root / "assets"

    def read(self, kind: str, key: str, suffix: str) -> bytes | None:
        """The entry's data, or None when there is none or it is damaged (then it is removed,
        to be drawn again)."""
        path = self.root / kind / f"{key}{suffix}"
        try:
            stored = read_regular(path)
            if stored is None:
                return None
            data = unsealed(stored)
            if data is None:
                log.warning("render cache entry %s is damaged: drawing it again", path)
                path.unlink(missing_ok=True)
                return None
            os.utime(path)
        except OSError:
            return None
        return data

    def write(self, kind: str, key: str, suffix: str, data: bytes) -> None:
        folder = self.root / kind
        try:
            folder.mkdir(exist_ok=True)
            with renamed_into(folder / f"{key}{suffix}") as temporary, open(temporary, "xb") as f:
                f.write(seal(data))
        except OSError as error:  # a full or read-only cache costs speed, never the output
            log.warning("cannot write to the render cache %s: %s", folder, error)

    def prune(self, max_bytes: int = MAX_BYTES) -> int:
        """Remove the entries used longest ago until the cache holds at most ``max_bytes``;
        return how many were removed. Only regular files named like entries, directly in the
        cache's own subfolders, count or go: nothing else in the folder is touched."""
        entries = []
        for kind in KINDS:
            try:
                with os.scandir(self.root / kind) as found:
                    names = [
                        entry.name for entry in found if ENTRY_NAMES[kind].fullmatch(entry.name)
                    ]
            except OSError:
                continue
            for name in filter(ENTRY_NAMES[kind].fullmatch, names):
                path = self.root / kind / name
                try:
                    status = path.lstat()
                except OSError:
                    continue
                if stat.S_ISREG(status.st_mode):
                    entries.append((status.st_mtime_ns, status.st_size, path))
        total = sum(size for _, size, _ in entries)
        removed = 0
        for _, size, path in sorted(entries):
            if total <= max_bytes:
                break
            path.unlink(missing_ok=True)
            total -= size
            removed += 1
        return removed


class _FromEnvironment:
    """The default cache choice: the folder the environment names (see :func:`default_root`)."""


FROM_ENVIRONMENT = _FromEnvironment()
CacheChoice = str | os.PathLike[str] | None | _FromEnvironment


def open_cache(choice: CacheChoice = FROM_ENVIRONMENT) -> Cache | None:
    """The cache chosen (a folder, None for none, or the environment's), or None when it cannot
    be made: rendering then caches nothing."""
    root = default_root() if isinstance(choice, _FromEnvironment) else choice
    if root is None:
        return None
    root = Path(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
        claimed = _claim(root)
    except OSError as error:
        log.warning("render cache %s unavailable (%s): rendering everything", root, error)
        return None
    if not claimed:
        raise UsageError(
            f"the render cache folder {str(root)!r} holds files zcards did not write (it has no "
            f"{MARKER}); the cache removes old entries, so it needs a folder of its own: set "
            f"ZCARDS_CACHE to a new or empty folder, or ZCARDS_CACHE={OFF} for no cache"
        )
    return Cache(root)


def _claim(root: Path) -> bool:
    """Whether ``root`` is a zcards cache: it holds :data:`MARKER`, or it is made one now
    because it holds nothing else than the cache's own subfolders (a cache older zcards made)."""
    marker = root / MARKER
    if read_regular(marker, limit=4096) is not None:
        return True
    with os.scandir(root) as found:
        names = {entry.name for entry in found if not entry.name.startswith(f".{MARKER}.")}
    if not names <= set(KINDS) or any((root / name).is_symlink() for name in names):
        return False
    with renamed_into(marker) as temporary, open(temporary, "x", encoding="ascii") as f:
        f.write(MARKER_TEXT)
    return True


def cache_key(*parts: object) -> str:
    """The SHA-256 of ``parts`` (JSON-able data) and the renderer's fingerprint."""
    text = json.dumps([FORMAT, fingerprint(), *parts], sort_keys=True, default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plain(value: object) -> object:
    if hasattr(value, "__dataclass_fields__"):
        return {name: getattr(value, name) for name in value.__dataclass_fields__}
    raise TypeError(f"{type(value).__name__} is not part of a cache key")


@cache
def fingerprint() -> dict[str, object]:
    """What every rendered output depends on besides its own input (computed once a process,
    from the system libraries themselves: WeasyPrint is imported only to draw)."""
    libraries = native()
    if libraries is None:  # WeasyPrint will say what is missing, or find it where we did not
        log.warning("cannot probe Pango and fontconfig: render cache entries are not reused")
        return {"unprobed": os.urandom(16).hex()}
    return {
        "templates": {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(templates_dir().glob("*.j2"))
        },
        "fonts": _stats(libraries.font_files()),
        "pango": libraries.pango_version(),
        "versions": {
            name: installed_version(name) for name in ("weasyprint", "pypdfium2", "pillow")
        },
    }


def _stats(files: set[str]) -> list[tuple[str, int, int]]:
    """Each font file with its size and mtime: a font replaced in place changes the key."""
    stats = []
    for name in sorted(files):
        try:
            status = os.stat(name)
        except OSError:
            continue
        stats.append((name, status.st_size, status.st_mtime_ns))
    return stats


@cache
def publish_code() -> str:
    """The SHA-256 of this package's source, for outputs keyed on what they are made from
    rather than on the document drawn: any change to the code that makes them is a new key
    (the templates are in every key already)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()
