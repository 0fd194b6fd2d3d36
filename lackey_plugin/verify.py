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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import quote

from lackey_plugin.carddata import read_card_data
from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.fetch import Fetcher, FetchError, is_url
from lackey_plugin.text import decode_bytes
from lackey_plugin.updatelist import UpdateEntry, UpdateList, parse_updatelist, valid_date

OK, DEAD, MISMATCH = "ok", "dead", "mismatch"
UPDATELIST_MAX_BYTES = 4 * 1024 * 1024  # the largest real one seen (vtes) has 64 KB
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
) -> VerifyReport:
    """Download the updatelist at ``url`` and every file it lists; report what is broken.

    ``fetcher`` sets the download limits (default: :class:`Fetcher` with two retries).
    """
    with contextlib.ExitStack() as stack:
        if fetcher is None:
            fetcher = stack.enter_context(Fetcher(retries=2))
        try:
            data = fetcher.get(url, max_bytes=min(fetcher.max_bytes, UPDATELIST_MAX_BYTES)).content
        except FetchError as error:
            message = f"cannot download the updatelist: {error.message}"
            raise NotAnUpdatelist(message, Location(url)) from None
        updatelist = read_published_updatelist(data, url)
        report = VerifyReport(url, updatelist.name)
        bodies: dict[str, bytes] = {}
        check = _FileChecker(fetcher, bodies)
        total = len(updatelist.entries)
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            for done, result in enumerate(pool.map(check, updatelist.entries), start=1):
                report.checks.append(result)
                if progress:
                    progress(done, total)
            if images:
                urls = _image_urls(updatelist, bodies)
                report.checks += pool.map(lambda pair: _check_image(fetcher, *pair), urls)
    return report


class _FileChecker:
    """Downloads one listed file and compares its checksum; keeps card data for images."""

    def __init__(self, fetcher: Fetcher, bodies: dict[str, bytes]) -> None:
        self.fetcher = fetcher
        self.bodies = bodies

    def __call__(self, entry: UpdateEntry) -> FileCheck:
        body, detail = _download(self.fetcher, entry.url)
        if body is None:
            return FileCheck(entry.local_path, entry.url, DEAD, entry.checksum, None, detail)
        actual = checksum_bytes(body)
        if entry.local_path.endswith(".txt"):
            self.bodies[entry.local_path] = body
        status = OK if actual == entry.checksum else MISMATCH
        return FileCheck(entry.local_path, entry.url, status, entry.checksum, actual)


def _download(fetcher: Fetcher, url: str) -> tuple[bytes | None, str]:
    """The body, or None and why not."""
    if not is_url(url):
        return None, "not an http(s) URL"
    try:
        return fetcher.get(url).content, ""
    except FetchError as error:
        return None, error.message


def _image_urls(updatelist: UpdateList, bodies: dict[str, bytes]) -> list[tuple[str, list[str]]]:
    """Per card image ``Set/ImageFile.jpg``, the candidate URLs Lackey would try."""
    explicit = dict(updatelist.card_image_urls)
    wanted: list[tuple[str, list[str]]] = []
    prefix = f"plugins/{updatelist.name}/sets/"
    for local_path, body in sorted(bodies.items()):
        if not local_path.startswith(prefix) or "/" in local_path[len(prefix) :]:
            continue
        card_file = read_card_data(body, local_path)
        if len(card_file.header) < 3:
            continue
        set_col, image_col = card_file.header[1], card_file.header[2]
        for row in card_file.rows:
            image = row.fields.get(image_col, "").split(",")[0].strip()
            if not image:
                continue
            key = f"{row.fields.get(set_col, '')}/{image}.jpg"
            candidates = (
                [explicit[key]]
                if key in explicit
                else [base + quote(f"{image}.jpg") for base in updatelist.card_general_urls]
            )
            wanted.append((key, candidates))
    return wanted


def _check_image(fetcher: Fetcher, key: str, candidates: list[str]) -> FileCheck:
    details = []
    for candidate in candidates:
        body, detail = _download(fetcher, candidate)
        if body is not None:
            return FileCheck(key, candidate, OK)
        details.append(f"{candidate}: {detail}")
    return FileCheck(
        key,
        candidates[0] if candidates else "",
        DEAD,
        detail="; ".join(details) or "no CardGeneralURLs or CardImageURLs entry",
    )
