"""One download's deadline and phase, and the connections that report to them.

A :class:`Watch` covers one download: past its deadline it shuts down every socket the
download uses, which wakes a blocked read at once (a read timeout alone restarts with every
byte), and it knows the phase the download is in (connect, TLS handshake, headers, body), so
that an error can say which one failed. :class:`WatchedAdapter` gives a ``requests`` session
connections that hand their sockets to the current watch as soon as they are connected.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

# The phases of a download, as its error messages name them.
CONNECT, TLS, HEADERS, BODY = "connect", "TLS handshake", "headers", "body"
DURING = {
    CONNECT: "connecting",
    TLS: "during the TLS handshake",
    HEADERS: "waiting for the response headers",
    BODY: "reading the body",
}


class Watch:
    """One download's deadline and phase. Past the deadline, every socket the download uses is
    shut down, which wakes a blocked read at once (a read timeout alone restarts with every
    byte); the phase (connect, TLS handshake, headers, body) names what failed."""

    def __init__(self, seconds: float, retry_after_cap: float) -> None:
        self.seconds = seconds
        self.phase = CONNECT
        self.retry_after_cap = retry_after_cap
        self.expires = time.monotonic() + seconds
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._copies: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def remaining(self) -> float:
        return max(0.0, self.expires - time.monotonic())

    def track(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut_down(sock)

    def track_connecting(self, sock: socket.socket) -> None:
        """A socket about to be wrapped for TLS: the wrap takes its descriptor over, so a copy
        of it is watched (a shut-down copy stops the handshake just as well)."""
        copy = sock.dup()
        self._copies.append(copy)
        self.track(copy)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut_down(sock)

    def __enter__(self) -> Watch:
        _current.watch = self
        self._timer.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._timer.cancel()
        _current.watch = None
        for copy in self._copies:
            copy.close()


_current = threading.local()


def current_watch() -> Watch | None:
    """The watch of the download running in this thread, if any."""
    return getattr(_current, "watch", None)


def enter(phase: str) -> None:
    """The download running in this thread is now in ``phase``."""
    watch = current_watch()
    if watch is not None:
        watch.phase = phase


def _shut_down(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # the plain socket's, also for TLS: it wakes the reader
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _Watched:
    """Connection mixin: hands every socket to the current watch as soon as it is connected
    (so the deadline also cuts a stalled TLS handshake) and tells it the download's phase."""

    sock: socket.socket | None

    def _new_conn(self) -> socket.socket:
        enter(CONNECT)
        sock = super()._new_conn()  # type: ignore[misc]
        watch = current_watch()
        if watch is not None:
            watch.track_connecting(sock)
        enter(TLS if isinstance(self, HTTPSConnection) else HEADERS)
        return sock

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        enter(HEADERS)

    def getresponse(self, *args, **kwargs):
        watch = current_watch()
        if watch is not None:
            watch.track(self.sock)
            watch.phase = HEADERS
        return super().getresponse(*args, **kwargs)  # type: ignore[misc]


class _WatchedHTTPConnection(_Watched, HTTPConnection):
    pass


class _WatchedHTTPSConnection(_Watched, HTTPSConnection):
    pass


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class WatchedAdapter(HTTPAdapter):
    """An adapter whose connections report their sockets to the current download's watch."""

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _WatchedHTTPPool,
            "https": _WatchedHTTPSPool,
        }
