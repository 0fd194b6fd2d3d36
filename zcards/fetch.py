"""HTTP downloads for the importer: one polite, bounded, cache-aware ``requests`` session.

Card lists live on hobby web servers that are slow, flaky or gone. Every download has
connect/read timeouts, retries with exponential backoff on connection errors and 5xx, a size
cap enforced while streaming, and a conditional request (ETag / Last-Modified) so that a
re-import of an unchanged source costs one ``304 Not Modified``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from zcards import __version__
from zcards.errors import Location, ZcardsError

USER_AGENT = f"zcards/{__version__} (Zombie CCG card importer; python-requests)"
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Validators:
    """What the server told us last time, sent back to ask "has it changed?"."""

    etag: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True)
class Download:
    url: str
    final_url: str
    not_modified: bool
    content: bytes
    content_type: str
    validators: Validators


class FetchError(ZcardsError):
    """A download that failed; the message says what happened to which URL."""

    def __init__(self, url: str, message: str) -> None:
        super().__init__(message, Location(url))


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


class Fetcher:
    """One ``requests.Session`` shared by every download of an import."""

    def __init__(
        self,
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.timeout = (connect_timeout, read_timeout)
        self.max_bytes = max_bytes
        retry = Retry(
            total=retries,
            connect=retries,
            read=0,
            status=retries,
            backoff_factor=backoff,
            status_forcelist=(500, 502, 503, 504),
            allowed_methods=frozenset({"GET"}),
            raise_on_status=False,
            respect_retry_after_header=True,
        )
        self.session = requests.Session()
        adapter = HTTPAdapter(max_retries=retry)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.session.headers["User-Agent"] = USER_AGENT

    def get(self, url: str, validators: Validators | None = None) -> Download:
        """Download ``url``; given ``validators``, an unchanged resource is ``not_modified``."""
        headers = {}
        if validators and validators.etag:
            headers["If-None-Match"] = validators.etag
        if validators and validators.last_modified:
            headers["If-Modified-Since"] = validators.last_modified
        try:
            with self.session.get(url, headers=headers, timeout=self.timeout, stream=True) as reply:
                return self._read(url, reply, validators)
        except requests.exceptions.Timeout:
            raise FetchError(url, f"timed out (limits: {self._limits()})") from None
        except requests.exceptions.RetryError as error:
            raise FetchError(url, f"server kept failing: {_reason(error)}") from None
        except requests.exceptions.ConnectionError as error:
            raise FetchError(url, f"cannot connect: {_reason(error)}") from None
        except requests.exceptions.ChunkedEncodingError:
            raise FetchError(url, "truncated download: the connection closed early") from None
        except requests.exceptions.RequestException as error:
            raise FetchError(url, f"download failed: {_reason(error)}") from None

    def _read(self, url: str, reply: requests.Response, sent: Validators | None) -> Download:
        if reply.status_code == 304 and sent is not None:
            return Download(url, reply.url, True, b"", "", sent)
        if reply.status_code != 200:
            raise FetchError(url, f"HTTP {reply.status_code} {reply.reason or ''}".rstrip())
        declared = reply.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.max_bytes:
            raise FetchError(url, f"too large: {declared} bytes (limit {self.max_bytes})")
        body = bytearray()
        for chunk in reply.iter_content(_CHUNK):
            body += chunk
            if len(body) > self.max_bytes:
                raise FetchError(url, f"too large: more than {self.max_bytes} bytes")
        if declared and declared.isdigit() and len(body) < int(declared):
            raise FetchError(url, f"truncated download: {len(body)} of {declared} bytes")
        validators = Validators(reply.headers.get("ETag"), reply.headers.get("Last-Modified"))
        content_type = reply.headers.get("Content-Type", "")
        return Download(url, reply.url, False, bytes(body), content_type, validators)

    def _limits(self) -> str:
        return f"connect {self.timeout[0]:g}s, read {self.timeout[1]:g}s"

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _reason(error: Exception) -> str:
    """The innermost useful message of a requests/urllib3 exception chain."""
    reason = error.args[0] if error.args else error
    reason = getattr(reason, "reason", reason)
    return str(reason)
