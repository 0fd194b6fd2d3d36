"""HTTP downloads (a plugin's files, card lists): one polite, bounded session.

Card lists live on hobby web servers that are slow, flaky, gone or hostile. Every download has
connect/read timeouts, a **total deadline** (a server dripping one byte at a time cannot keep a
run going: a watchdog shuts the socket down when the deadline passes), retries with exponential
backoff on connection errors, 429 and 5xx (a server's ``Retry-After`` is obeyed only up to a cap
and never past the deadline), a **size cap** enforced while streaming and after decompression
(urllib3 >= 2.6 inflates at most one chunk ahead, so a gzip bomb costs one chunk, not its
decompressed size), and a conditional request (ETag / Last-Modified) so that a re-import of an
unchanged source costs one ``304 Not Modified``.
"""

from __future__ import annotations

import http.client
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from types import TracebackType

import requests
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError, ReadTimeoutError
from urllib3.response import BaseHTTPResponse
from urllib3.util.retry import Retry

from lackey_plugin.download_watch import (
    BODY,
    DURING,
    HEADERS,
    TLS,
    Watch,
    WatchedAdapter,
    current_watch,
)
from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.urls import Validators as Validators
from lackey_plugin.urls import is_url as is_url

DEFAULT_USER_AGENT = "lackey_plugin (LackeyCCG plugin tools; python-requests)"
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_DEADLINE = 120.0
MAX_RETRY_AFTER = 10.0
MAX_REDIRECTS = 10
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class Download:
    url: str
    final_url: str
    not_modified: bool
    content: bytes
    content_type: str
    validators: Validators


class FetchError(LackeyError):
    """A download that failed; the message says what happened to which URL."""

    def __init__(self, url: str, message: str) -> None:
        super().__init__(message, Location(url))


class _BoundedRetry(Retry):
    """Waits between attempts never longer than the cap, nor past the deadline."""

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        wanted = super().get_retry_after(response)
        watch = current_watch()
        if wanted is None or watch is None:
            return wanted
        return min(wanted, watch.retry_after_cap, watch.remaining())

    def get_backoff_time(self) -> float:
        watch = current_watch()
        backoff = super().get_backoff_time()
        return backoff if watch is None else min(backoff, watch.remaining())


class Fetcher:
    """One ``requests.Session`` shared by every download of an import (thread-safe for GET).

    ``deadline``: seconds one :meth:`get` may take in all (redirects, retries and waits
    included); ``max_bytes``: the largest body accepted, counted after decompression;
    ``max_retry_after``: the longest wait a server's ``Retry-After`` may ask for;
    ``user_agent``: how the downloads introduce themselves (an application names itself).
    """

    def __init__(
        self,
        *,
        connect_timeout: float = 5.0,
        read_timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_bytes: int = DEFAULT_MAX_BYTES,
        deadline: float = DEFAULT_DEADLINE,
        max_retry_after: float = MAX_RETRY_AFTER,
        user_agent: str = DEFAULT_USER_AGENT,
    ) -> None:
        self.timeout = (connect_timeout, read_timeout)
        self.max_bytes = max_bytes
        self.deadline = deadline
        self.max_retry_after = max_retry_after
        retry = _BoundedRetry(
            total=retries,
            connect=retries,
            read=0,
            status=retries,
            backoff_factor=backoff,
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=frozenset({"GET"}),
            raise_on_status=False,
            respect_retry_after_header=True,
        )
        self.session = requests.Session()
        self.session.max_redirects = MAX_REDIRECTS
        adapter = WatchedAdapter(max_retries=retry)
        self.session.mount("http://", adapter)
        self.session.mount("https://", adapter)
        self.session.headers["User-Agent"] = user_agent

    def get(
        self,
        url: str,
        validators: Validators | None = None,
        *,
        max_bytes: int | None = None,
        deadline: float | None = None,
    ) -> Download:
        """Download ``url``; given ``validators``, an unchanged resource is ``not_modified``.

        ``max_bytes`` lowers (or raises) the session's size cap for this one download;
        ``deadline`` shortens its total deadline (a caller's own deadline is nearer).
        """
        body = bytearray()
        download = self.stream(url, body.extend, validators, max_bytes=max_bytes, deadline=deadline)
        return replace(download, content=bytes(body))

    def stream(
        self,
        url: str,
        sink: Callable[[bytes], object],
        validators: Validators | None = None,
        *,
        max_bytes: int | None = None,
        deadline: float | None = None,
    ) -> Download:
        """Download ``url`` into ``sink`` a chunk at a time (the :class:`Download` has no
        ``content``): memory holds one chunk, whatever the size. Limits as :meth:`get`; when
        the download fails, ``sink`` may have had part of the body."""
        headers = {}
        if validators and validators.etag:
            headers["If-None-Match"] = validators.etag
        if validators and validators.last_modified:
            headers["If-Modified-Since"] = validators.last_modified
        limit = self.max_bytes if max_bytes is None else max_bytes
        seconds = self.deadline if deadline is None else min(self.deadline, deadline)
        with Watch(seconds, self.max_retry_after) as watch:
            try:
                with self.session.get(
                    url, headers=headers, timeout=self.timeout, stream=True
                ) as reply:
                    download = self._read(url, reply, validators, limit, watch, sink)
            except FetchError:
                if watch.expired:
                    raise self._late(url, watch) from None
                raise
            except requests.exceptions.RequestException as error:
                expired = watch.expired
                failure = self._late(url, watch) if expired else self._failure(url, error, watch)
                raise failure from None
        return download

    def _read(
        self,
        url: str,
        reply: requests.Response,
        sent: Validators | None,
        limit: int,
        watch: Watch,
        sink: Callable[[bytes], object],
    ) -> Download:
        if reply.status_code == 304 and sent is not None:
            return Download(url, reply.url, True, b"", "", sent)
        if reply.status_code != 200:
            raise FetchError(url, f"HTTP {reply.status_code} {reply.reason or ''}".rstrip())
        declared = reply.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise FetchError(url, f"too large: {declared} bytes (limit {limit})")
        watch.phase = BODY
        size = 0
        for chunk in reply.iter_content(_CHUNK):
            size += len(chunk)
            if size > limit:
                raise FetchError(url, f"too large: more than {limit} bytes")
            sink(chunk)
        if watch.expired:  # a shut-down socket reads as a normal end of the body
            raise self._late(url, watch)
        encoded = reply.headers.get("Content-Encoding", "identity").lower() != "identity"
        if declared and declared.isdigit() and not encoded and size < int(declared):
            raise FetchError(url, f"truncated download: {size} of {declared} bytes")
        validators = Validators(reply.headers.get("ETag"), reply.headers.get("Last-Modified"))
        content_type = reply.headers.get("Content-Type", "")
        return Download(url, reply.url, False, b"", content_type, validators)

    def _late(self, url: str, watch: Watch) -> FetchError:
        return FetchError(
            url,
            f"timed out {DURING[watch.phase]}: no complete answer within the "
            f"{watch.seconds:g} s deadline",
        )

    def _failure(
        self, url: str, error: requests.exceptions.RequestException, watch: Watch
    ) -> FetchError:
        """One clear sentence per way a download fails, naming the phase that failed (connect,
        TLS handshake, headers, body); a timeout is never "cannot connect"."""
        cause, phase = _cause(error), watch.phase
        if isinstance(error, requests.ReadTimeout) or isinstance(cause, ReadTimeoutError):
            if phase == TLS:  # the handshake runs under the connect timeout
                return FetchError(
                    url,
                    "timed out during the TLS handshake: no answer within the connect timeout "
                    f"({self.timeout[0]:g} s)",
                )
            return FetchError(
                url, f"timed out {DURING[phase]}: no data for {self.timeout[1]:g} s (read timeout)"
            )
        refused = isinstance(cause, NewConnectionError)  # a subclass of ConnectTimeoutError
        if isinstance(error, requests.ConnectTimeout) or (
            isinstance(cause, ConnectTimeoutError) and not refused
        ):
            return FetchError(url, f"timed out connecting (connect timeout {self.timeout[0]:g} s)")
        if isinstance(error, requests.exceptions.RetryError):
            return FetchError(url, f"server kept failing: {_reason(error)}")
        if isinstance(error, requests.exceptions.TooManyRedirects):
            return FetchError(url, f"too many redirects (more than {MAX_REDIRECTS})")
        if isinstance(error, requests.exceptions.InvalidSchema | requests.exceptions.InvalidURL):
            named = re.search(r"'([^']*)'", str(error))
            where = named.group(1) if named else "an address"
            return FetchError(
                url,
                f"the server sent it on to {where}, which is not http(s); "
                "only http and https are downloaded (give the file's http(s) address)",
            )
        if isinstance(error, requests.exceptions.ChunkedEncodingError):
            return FetchError(url, "truncated download: the connection closed early")
        if isinstance(error, requests.exceptions.ContentDecodingError):
            return FetchError(url, f"cannot decompress the download: {_reason(error)}")
        if refused:  # its message starts with the connection object's repr
            return FetchError(url, f"cannot connect: {str(cause).split(': ', 1)[-1]}")
        if isinstance(error, requests.exceptions.SSLError) or phase == TLS:
            return FetchError(url, f"the TLS handshake failed: {_innermost(error)}")
        if phase == HEADERS and isinstance(error, requests.exceptions.ConnectionError):
            return FetchError(url, f"no usable response headers: {_innermost(error)}")
        if phase == BODY:
            return FetchError(url, f"the download broke off in the body: {_innermost(error)}")
        if isinstance(error, requests.exceptions.ConnectionError):
            return FetchError(url, f"cannot connect: {_reason(error)}")
        return FetchError(url, f"download failed: {_reason(error)}")

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


def _cause(error: BaseException) -> object:
    """The innermost urllib3 error of a requests exception (``MaxRetryError.reason`` …)."""
    cause: object = error.args[0] if error.args else error
    return getattr(cause, "reason", cause)


def _reason(error: Exception) -> str:
    """The innermost useful message of a requests/urllib3 exception chain."""
    return str(_cause(error))


def _innermost(error: BaseException) -> str:
    """What went wrong at the bottom of a chain: ``('Connection aborted.', LineTooLong('got
    more than 65536 bytes when reading header line'))`` says the latter."""
    cause: object = _cause(error)
    while isinstance(cause, BaseException) and cause.args:
        inner = cause.args[-1]
        if not isinstance(inner, BaseException):
            break
        cause = inner
    if isinstance(cause, http.client.RemoteDisconnected):
        return "the server closed the connection without answering"
    if isinstance(cause, http.client.BadStatusLine):
        return f"not an HTTP status line: {str(cause).strip()[:60]!r}"
    return str(cause)
