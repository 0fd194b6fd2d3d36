"""``zcards plugin verify URL``: check a *published* plugin the way Lackey installs it.

Lackey downloads ``updatelist.txt`` from the URL the user pastes, then every listed file, and
compares each file's checksum with the listed value. This does the same over HTTP and reports
dead links (HTTP errors, timeouts) and checksum mismatches, so a broken release is caught before
users hit it. With ``images=True`` it also checks that every card image resolves under one of the
``CardGeneralURLs`` bases (base + Set-independent ``ImageFile.jpg``, reference §3.3).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import quote

import requests

from lackey_plugin.carddata import read_card_file
from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.updatelist import UpdateList, parse_updatelist
from zcards.errors import ZcardsError

OK, DEAD, MISMATCH = "ok", "dead", "mismatch"
TIMEOUT = 30


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


def _get(session: requests.Session, url: str) -> tuple[bytes | None, str]:
    try:
        response = session.get(url, timeout=TIMEOUT)
    except requests.RequestException as error:
        return None, f"{type(error).__name__}: {error}"
    if response.status_code != 200:
        return None, f"HTTP {response.status_code}"
    return response.content, ""


def verify_plugin(
    url: str,
    *,
    images: bool = False,
    workers: int = 8,
    progress: Callable[[int, int], None] | None = None,
) -> VerifyReport:
    """Download the updatelist at ``url`` and every file it lists; report what is broken."""
    with requests.Session() as session:
        session.headers["User-Agent"] = "zcards-plugin-verify"
        data, problem = _get(session, url)
        if data is None:
            raise ZcardsError(f"cannot download the updatelist {url}: {problem}")
        updatelist = parse_updatelist(data, url)
        report = VerifyReport(url, updatelist.name)
        bodies: dict[str, bytes] = {}

        def check(entry) -> FileCheck:
            body, detail = _get(session, entry.url)
            if body is None:
                return FileCheck(entry.local_path, entry.url, DEAD, entry.checksum, None, detail)
            actual = checksum_bytes(body)
            if entry.local_path.endswith(".txt"):
                bodies[entry.local_path] = body
            status = OK if actual == entry.checksum else MISMATCH
            return FileCheck(entry.local_path, entry.url, status, entry.checksum, actual)

        total = len(updatelist.entries)
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            for done, result in enumerate(pool.map(check, updatelist.entries), start=1):
                report.checks.append(result)
                if progress:
                    progress(done, total)
            if images:
                urls = _image_urls(updatelist, bodies)
                report.checks += pool.map(lambda pair: _check_image(session, *pair), urls)
    return report


def _image_urls(updatelist: UpdateList, bodies: dict[str, bytes]) -> list[tuple[str, list[str]]]:
    """Per card image ``Set/ImageFile.jpg``, the candidate URLs Lackey would try."""
    explicit = dict(updatelist.card_image_urls)
    wanted: list[tuple[str, list[str]]] = []
    prefix = f"plugins/{updatelist.name}/sets/"
    for local_path, body in sorted(bodies.items()):
        if not local_path.startswith(prefix) or "/" in local_path[len(prefix) :]:
            continue
        card_file = read_card_file(body)
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


def _check_image(session: requests.Session, key: str, candidates: list[str]) -> FileCheck:
    details = []
    for candidate in candidates:
        body, detail = _get(session, candidate)
        if body is not None:
            return FileCheck(key, candidate, OK)
        details.append(f"{candidate}: {detail}")
    return FileCheck(
        key,
        candidates[0] if candidates else "",
        DEAD,
        detail="; ".join(details) or "no CardGeneralURLs or CardImageURLs entry",
    )
