"""A content-addressed cache of rendered card faces, proxy sheet runs and art box pictures: a face
is drawn again only when what it shows changed.

A key is the SHA-256 of everything an output depends on: what the face shows (card fields, art
by the digest of its bytes), its layout and resolution, and the renderer's fingerprint -- the
templates' source, the font files fontconfig offers (path, size, modification time) and the
versions of WeasyPrint, Pango, pdfium and Pillow. Entries are written atomically, so parallel
runs may share the folder, and the cache is kept under :data:`MAX_BYTES` by removing the
entries used longest ago.

The folder is ``$ZCARDS_CACHE``, else ``$XDG_CACHE_HOME/zcards``, else ``~/.cache/zcards``;
``ZCARDS_CACHE=off`` turns caching off.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lackey_plugin.files import atomic_write
from zcards.publish.native import installed_version, native
from zcards.resources import templates_dir

log = logging.getLogger(__name__)

CACHE_ENV = "ZCARDS_CACHE"
OFF = "off"
MAX_BYTES = 1 << 30
# Bump when rendering code changes what a face looks like in a way no input above captures.
FORMAT = 1


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
        path = self.root / kind / f"{key}{suffix}"
        try:
            data = path.read_bytes()
            os.utime(path)
        except OSError:
            return None
        return data

    def write(self, kind: str, key: str, suffix: str, data: bytes) -> None:
        folder = self.root / kind
        try:
            folder.mkdir(parents=True, exist_ok=True)
            atomic_write(folder / f"{key}{suffix}", data)
        except OSError as error:  # a full or read-only cache costs speed, never the output
            log.warning("cannot write to the render cache %s: %s", folder, error)

    def prune(self, max_bytes: int = MAX_BYTES) -> int:
        """Remove the entries used longest ago until the cache holds at most ``max_bytes``;
        return how many were removed."""
        entries = []
        for path in self.root.glob("*/*"):
            try:
                status = path.stat()
            except OSError:
                continue
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
    except OSError as error:
        log.warning("render cache %s unavailable (%s): rendering everything", root, error)
        return None
    return Cache(root)


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
