"""Check a *published* plugin the way Lackey installs it.

Lackey downloads ``updatelist.txt`` from the URL the user pastes, then every listed file, and
compares each file's checksum with the listed value. This does the same over HTTP and reports
dead links (HTTP errors, timeouts) and checksum mismatches, so a broken release is caught before
users hit it. With ``images=True`` it also checks that every card image resolves under one of the
``CardGeneralURLs`` bases (base + Set-independent ``ImageFile.jpg``, docs/lackey-formats.md §3.3).

The URL must serve an updatelist: line 1 names the plugin folder and a ``MM-DD-YY`` date, and
every file line parses. Anything else (an HTML or "File not found." page served with 200, card
data, a huge body, a gzip bomb) is :class:`NotAnUpdatelist`, exit code 2, never "0 problems".
Every download goes through :class:`lackey_plugin.fetch.Fetcher`: timeouts, a total deadline and a
size cap that also holds after decompression.
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import BinaryIO, cast
from urllib.parse import quote

from lackey_plugin.carddata import CardDataReader
from lackey_plugin.checksum import Checksum
from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.fetch import Fetcher, FetchError, is_url
from lackey_plugin.text import decode_bytes
from lackey_plugin.updatelist import UpdateEntry, UpdateList, parse_updatelist, valid_date

OK, DEAD, MISMATCH = "ok", "dead", "mismatch"
UPDATELIST_MAX_BYTES = 4 * 1024 * 1024  # the largest real one seen (vtes) has 64 KB
_SPOOL_IN_MEMORY = 1 << 20  # a set's card data beyond this waits on disk for the image check
_HTML_START = re.compile(rb"^\s*<(!doctype|html|head|body|!--|\?xml)", re.I)
_PLUGIN_NAME = re.compile(r"^[^\\/:*?\"<>|\x00-\x1f]+$")


class NotAnUpdatelist(LackeyError):
    """The URL gave no usable updatelist (unreachable, or not one): unusable input."""

    exit_code = 2


@dataclass(frozen=True)
class FileCheck:
    local_path: str
    url: str
    status: str
    listed: int | None = None
    actual: int | None = None
    detail: str = ""

    def to_dict(self) -> dict:
        return {
            "local_path": self.local_path,
            "url": self.url,
            "status": self.status,
            "listed": self.listed,
            "actual": self.actual,
            "detail": self.detail,
        }


@dataclass
class VerifyReport:
    url: str
    name: str
    checks: list[FileCheck] = field(default_factory=list)

    @property
    def problems(self) -> list[FileCheck]:
        return [check for check in self.checks if check.status != OK]

    def to_dict(self) -> dict:
        return {
            "url": self.url,
            "plugin": self.name,
            "files": len(self.checks),
            "problems": [check.to_dict() for check in self.problems],
        }


def read_published_updatelist(data: bytes, url: str) -> UpdateList:
    """The updatelist in ``data``, or :class:`NotAnUpdatelist` saying what ``data`` is instead.

    Stricter than Lackey's reader on purpose: a publication must be one Lackey installs from.
    """
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    if _HTML_START.match(head):
        raise NotAnUpdatelist("an HTML page (an error page?), not an updatelist", Location(url, 1))
    if b"\x00" in head:
        raise NotAnUpdatelist("binary data, not an updatelist", Location(url, 1))
    text = decode_bytes(data)
    first = text.splitlines()[0] if text else ""
    fields = [part.strip() for part in first.split("\t")]
    while len(fields) > 2 and not fields[-1]:
        fields.pop()
    if len(fields) != 2 or not _plugin_name(fields[0]) or not valid_date(fields[1]):
        shown = first if len(first) <= 60 else first[:57] + "..."
        raise NotAnUpdatelist(
            f"line 1 is {shown!r}, not '<plugin folder><TAB><MM-DD-YY>': not an updatelist",
            Location(url, 1),
        )
    updatelist = parse_updatelist(text, url)
    if updatelist.problems:
        line, problem = updatelist.problems[0]
        more = len(updatelist.problems) - 1
        suffix = f" (and {more} more lines)" if more else ""
        raise NotAnUpdatelist(f"{problem}{suffix}: not an updatelist", Location(url, line))
    listed = (
        updatelist.entries
        or updatelist.card_image_urls
        or updatelist.card_url_files
        or updatelist.card_general_urls
    )
    if not listed:
        raise NotAnUpdatelist("the updatelist lists no files", Location(url))
    return updatelist


def _plugin_name(name: str) -> bool:
    return bool(_PLUGIN_NAME.match(name)) and name not in (".", "..")


def verify_plugin(
    url: str,
    *,
    images: bool = False,
    workers: int = 8,
    progress: Callable[[int, int], None] | None = None,
    fetcher: Fetcher | None = None,
    timeout: float | None = None,
) -> VerifyReport:
    """Download the updatelist at ``url`` and every file it lists; report what is broken.

    Each file streams through its checksum (memory does not grow with the number or the size
    of the files). ``timeout``: the whole run's deadline in seconds (default: none beyond each
    download's own), so that a few stalling files cannot hold a run up; downloads still
    running then are cut off, files not started are not downloaded, and both are dead links
    saying so. ``fetcher`` sets the per-download limits (default: :class:`Fetcher`, two
    retries).
    """
    clock = _RunClock(timeout)
    with contextlib.ExitStack() as stack:
        if fetcher is None:
            fetcher = stack.enter_context(Fetcher(retries=2))
        limit = min(fetcher.max_bytes, UPDATELIST_MAX_BYTES)
        try:
            data = fetcher.get(url, max_bytes=limit, deadline=clock.remaining()).content
        except FetchError as error:
            message = f"cannot download the updatelist: {clock.explain(error.message)}"
            raise NotAnUpdatelist(message, Location(url)) from None
        updatelist = read_published_updatelist(data, url)
        report = VerifyReport(url, updatelist.name)
        check = _FileChecker(fetcher, clock, _ImageFinder(updatelist) if images else None)
        total = len(updatelist.entries)
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            for done, result in enumerate(pool.map(check, updatelist.entries), start=1):
                report.checks.append(result)
                if progress:
                    progress(done, total)
            if images:
                wanted = [pair for path in sorted(check.images) for pair in check.images[path]]
                report.checks += pool.map(lambda pair: _check_image(fetcher, clock, *pair), wanted)
    return report


class _RunClock:
    """The whole run's deadline, which every download's own deadline is cut to."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.expires = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (None: no deadline)."""
        return None if self.expires is None else max(0.0, self.expires - time.monotonic())

    def over(self) -> bool:
        return self.expires is not None and time.monotonic() >= self.expires

    def explain(self, detail: str) -> str:
        """A download's failure, or the run's deadline when that is what cut it off."""
        if not self.over():
            return detail
        return f"not checked: the run's {self.seconds:g} s deadline passed"


class _ImageFinder:
    """The card images a set's card data names, with the URLs Lackey would try for each
    (``Set/ImageFile.jpg``: its ``CardImageURLs`` entry, else every ``CardGeneralURLs`` base)."""

    def __init__(self, updatelist: UpdateList) -> None:
        self.explicit = dict(updatelist.card_image_urls)
        self.bases = updatelist.card_general_urls
        self.prefix = f"plugins/{updatelist.name}/sets/"

    def wants(self, local_path: str) -> bool:
        name = local_path.removeprefix(self.prefix)
        return name != local_path and "/" not in name and name.endswith(".txt")

    def find(self, stream: BinaryIO, local_path: str) -> list[tuple[str, list[str]]]:
        reader = CardDataReader(stream, local_path)
        if len(reader.header) < 3:
            return []
        set_col, image_col = reader.header[1], reader.header[2]
        wanted: list[tuple[str, list[str]]] = []
        for _, lines in reader.blocks():
            for line in lines:
                fields = dict(zip(reader.header, line.split("\t"), strict=False))
                image = fields.get(image_col, "").split(",")[0].strip()
                if not image:
                    continue
                key = f"{fields.get(set_col, '')}/{image}.jpg"
                candidates = (
                    [self.explicit[key]]
                    if key in self.explicit
                    else [base + quote(f"{image}.jpg") for base in self.bases]
                )
                wanted.append((key, candidates))
        return wanted


class _FileChecker:
    """Streams one listed file through its checksum; with an :class:`_ImageFinder`, a set's
    card data also goes to a spooled temporary file (memory up to :data:`_SPOOL_IN_MEMORY`),
    read back for the card images it names once the download ends."""

    def __init__(self, fetcher: Fetcher, clock: _RunClock, images: _ImageFinder | None) -> None:
        self.fetcher = fetcher
        self.clock = clock
        self.finder = images
        self.images: dict[str, list[tuple[str, list[str]]]] = {}

    def __call__(self, entry: UpdateEntry) -> FileCheck:
        checksum = Checksum()
        with contextlib.ExitStack() as stack:
            sink: Callable[[bytes], object] = checksum.update
            spool = None
            if self.finder is not None and self.finder.wants(entry.local_path):
                spool = stack.enter_context(tempfile.SpooledTemporaryFile(_SPOOL_IN_MEMORY))
                sink = _both(checksum.update, spool.write)
            detail = _stream(self.fetcher, self.clock, entry.url, sink)
            if detail is not None:
                return FileCheck(entry.local_path, entry.url, DEAD, entry.checksum, None, detail)
            if spool is not None and self.finder is not None:
                spool.seek(0)
                self.images[entry.local_path] = self.finder.find(
                    cast(BinaryIO, spool), entry.local_path
                )
        actual = checksum.value
        status = OK if actual == entry.checksum else MISMATCH
        return FileCheck(entry.local_path, entry.url, status, entry.checksum, actual)


def _both(
    first: Callable[[bytes], object], second: Callable[[bytes], object]
) -> Callable[[bytes], None]:
    def feed(chunk: bytes) -> None:
        first(chunk)
        second(chunk)

    return feed


def _stream(
    fetcher: Fetcher, clock: _RunClock, url: str, sink: Callable[[bytes], object]
) -> str | None:
    """Download ``url`` into ``sink``; None, or why it failed."""
    if not is_url(url):
        return "not an http(s) URL"
    if clock.over():
        return clock.explain("")
    try:
        fetcher.stream(url, sink, deadline=clock.remaining())
    except FetchError as error:
        return clock.explain(error.message)
    return None


def _check_image(fetcher: Fetcher, clock: _RunClock, key: str, candidates: list[str]) -> FileCheck:
    details = []
    for candidate in candidates:
        detail = _stream(fetcher, clock, candidate, _discard)
        if detail is None:
            return FileCheck(key, candidate, OK)
        details.append(f"{candidate}: {detail}")
    return FileCheck(
        key,
        candidates[0] if candidates else "",
        DEAD,
        detail="; ".join(details) or "no CardGeneralURLs or CardImageURLs entry",
    )


def _discard(chunk: bytes) -> None:
    """An image only has to arrive whole: its bytes are not kept."""
