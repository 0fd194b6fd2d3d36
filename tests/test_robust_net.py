"""An HTTP fault server on 127.0.0.1 against import-by-URL and ``plugin verify``.

Every fault (404, 5xx with a long Retry-After, a slow drip of headers or body, a truncated
body, an oversize body, a gzip bomb, an HTML or "File not found." page, a redirect loop) must
give a clear error, in bounded time and memory, and change nothing. Time is bounded by the
fetcher's own limits, made small here (the drip servers give up after 30 s, so code without a
deadline fails instead of hanging); memory is measured on a real ``zcards`` subprocess.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from support.net_faults import (
    DRIP_GIVES_UP_S,
    RawServer,
    drip,
    gzip_bomb,
    http_response,
    run_measured,
    send_and_close,
)
from werkzeug import Request, Response

from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.errors import LackeyError
from lackey_plugin.fetch import Fetcher
from lackey_plugin.verify import DEAD, OK, NotAnUpdatelist, verify_plugin
from zcards.cli import cli
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET

ALPHA = BUNDLED_SET.read_bytes()
ERROR_PAGE = b"<!DOCTYPE html><html><head><title>Oops</title></head><body>Gone</body></html>"
UPDATELIST = b"fault\t01-31-26\nplugins/fault/a.txt\thttp://127.0.0.1:9/a.txt\t123\n"
MIB = 1 << 20
DEADLINE_S = 0.8  # of one download under small_limits(): what a drip runs into
BOMB_MIB = 300  # decompressed; about 300 KB on the wire


def small_limits() -> Fetcher:
    """Limits small enough that every fault ends in about a second."""
    return Fetcher(
        connect_timeout=1.0,
        read_timeout=1.0,
        retries=1,
        backoff=0.01,
        deadline=DEADLINE_S,
        max_retry_after=0.2,
        max_bytes=MIB,
    )


def _chunked_cut(body: bytes) -> bytes:
    """A chunked response whose last chunk stops half way, then the connection closes."""
    chunk = f"{len(body):x}\r\n".encode() + body[: len(body) // 2]
    return http_response(chunk, "Transfer-Encoding: chunked")


def _drip_body(body: bytes):
    response = http_response(body, f"Content-Length: {len(body)}")
    return drip(response, head=response.index(b"\r\n\r\n") + 5)


def _redirect_loop(server: HTTPServer, stack: contextlib.ExitStack, body: bytes) -> str:
    first, second = server.url_for("/loop-a.txt"), server.url_for("/loop-b.txt")
    server.expect_request("/loop-a.txt").respond_with_response(
        Response(status=302, headers={"Location": second})
    )
    server.expect_request("/loop-b.txt").respond_with_response(
        Response(status=302, headers={"Location": first})
    )
    return first


def _busy_then_gone(server: HTTPServer, stack: contextlib.ExitStack, body: bytes) -> str:
    """503 with ``Retry-After: 120``; a client that really waits that long finds the file gone
    (410), so obeying the header in full fails the test instead of only slowing it."""
    first: list[float] = []

    def handler(request: Request) -> Response:
        first.append(time.monotonic())
        if first[-1] - first[0] > DRIP_GIVES_UP_S:
            return Response(b"gone", 410)
        return Response(b"busy", 503, {"Retry-After": "120"})

    server.expect_request("/busy.txt").respond_with_handler(handler)
    return server.url_for("/busy.txt")


Serve = Callable[[HTTPServer, contextlib.ExitStack, bytes], str]


def _on_httpserver(respond: Callable[[bytes], Response]) -> Serve:
    """The fault at its own path of the test server (several faults may share a server)."""

    def serve(server: HTTPServer, stack: contextlib.ExitStack, body: bytes) -> str:
        path = f"/fault-{id(respond)}.txt"
        server.expect_request(path).respond_with_response(respond(body))
        return server.url_for(path)

    return serve


def _on_raw(make_response: Callable[[bytes], Callable]) -> Serve:
    def serve(server: HTTPServer, stack: contextlib.ExitStack, body: bytes) -> str:
        return stack.enter_context(RawServer(make_response(body))).url("/fault.txt")

    return serve


def _fifty_megabytes(body: bytes) -> Response:
    return Response(body + b"\n" * MIB for _ in range(50))  # streamed, no Content-Length


FAULTS: dict[str, tuple[Serve, str]] = {
    "404": (_on_httpserver(lambda b: Response(ERROR_PAGE, status=404)), "HTTP 404"),
    "503-retry-after-120": (_busy_then_gone, "HTTP 503"),
    "drip-headers": (_on_raw(lambda b: drip(http_response(b))), f"{DEADLINE_S} s deadline"),
    "drip-body": (_on_raw(_drip_body), f"{DEADLINE_S} s deadline"),
    "truncated": (
        _on_raw(lambda b: send_and_close(http_response(b[:40], f"Content-Length: {len(b)}"))),
        "truncated",
    ),
    "truncated-chunked": (_on_raw(lambda b: send_and_close(_chunked_cut(b))), "truncated"),
    "oversize-declared": (
        _on_httpserver(lambda b: Response(b"x" * 2 * MIB)),
        "too large: 2097152 bytes",
    ),
    "oversize-streamed": (_on_httpserver(_fifty_megabytes), "too large: more than"),
    "gzip-bomb": (
        _on_httpserver(
            lambda b: Response(gzip_bomb(BOMB_MIB), headers={"Content-Encoding": "gzip"})
        ),
        "too large: more than",
    ),
    "redirect-loop": (_redirect_loop, "too many redirects"),
}

# Faults in what the server says rather than how: the answer arrives, but is no card list /
# no updatelist. (import message, verify message)
WRONG_CONTENT: dict[str, tuple[bytes, str, str, str]] = {
    "html-page": (ERROR_PAGE, "text/html", "got an HTML page", "an HTML page"),
    "file-not-found-200": (
        b"File not found.",
        "text/plain",
        "not card data",
        "line 1 is 'File not found.'",
    ),
}


@pytest.fixture
def stack() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as servers:
        yield servers


def assert_import_unchanged(db_path: Path, url: str, match: str) -> LackeyError:
    before = db_path.read_bytes()
    with pytest.raises(LackeyError, match=match) as caught:
        import_sources(db_path, [url], fetcher=small_limits())
    assert caught.value.location is not None and caught.value.location.file == url
    assert db_path.read_bytes() == before
    return caught.value


def _alternate(names: Iterable[str], offset: int) -> list:
    """Every other name for this test in the default run, the rest in the slow run: over the
    import and the verify tests the default run meets each fault once, the slow run all."""
    return [
        pytest.param(name, marks=() if index % 2 == offset else pytest.mark.slow)
        for index, name in enumerate(names)
    ]


@pytest.mark.parametrize("fault", _alternate(FAULTS, 0))
def test_import_by_url_under_fault(
    fault: str, httpserver: HTTPServer, stack: contextlib.ExitStack, sample_db_copy: Path
) -> None:
    serve, message = FAULTS[fault]
    assert_import_unchanged(sample_db_copy, serve(httpserver, stack, ALPHA), message)


@pytest.mark.parametrize("fault", _alternate(FAULTS, 1))
def test_verify_under_fault(
    fault: str, httpserver: HTTPServer, stack: contextlib.ExitStack
) -> None:
    serve, message = FAULTS[fault]
    url = serve(httpserver, stack, UPDATELIST)
    with pytest.raises(NotAnUpdatelist, match=f"cannot download the updatelist: .*({message})"):
        verify_plugin(url, fetcher=small_limits())


@pytest.mark.parametrize("fault", WRONG_CONTENT)
def test_wrong_content_is_refused(fault: str, httpserver: HTTPServer, sample_db_copy: Path) -> None:
    body, content_type, import_message, verify_message = WRONG_CONTENT[fault]
    httpserver.expect_request("/cards.txt").respond_with_data(body, content_type=content_type)
    url = httpserver.url_for("/cards.txt")
    assert_import_unchanged(sample_db_copy, url, import_message)
    result = CliRunner().invoke(cli, ["plugin", "verify", url])
    assert result.exit_code == 2 and verify_message in result.stderr, result.output


def test_card_data_is_not_an_updatelist(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/updatelist.txt").respond_with_data(ALPHA)
    with pytest.raises(NotAnUpdatelist, match=r"line 1 is 'Name\\tSet\\tImageFile"):
        verify_plugin(httpserver.url_for("/updatelist.txt"), fetcher=small_limits())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"fault\t13-45-26\n", "not '<plugin folder><TAB><MM-DD-YY>'"),
        (b"../up\t01-31-26\nx\ty\t1\n", "not '<plugin folder><TAB><MM-DD-YY>'"),
        (b"fault\t01-31-26\nplugins/fault/a.txt\thttp://x/a.txt\tlots\n", "line 2.*not an int"),
        (b"fault\t01-31-26\n", "lists no files"),
    ],
)
def test_updatelist_must_parse(httpserver: HTTPServer, body: bytes, message: str) -> None:
    httpserver.expect_request("/updatelist.txt").respond_with_data(body)
    with pytest.raises(NotAnUpdatelist, match=message):
        verify_plugin(httpserver.url_for("/updatelist.txt"), fetcher=small_limits())


def test_faulty_listed_files_are_dead_links(
    httpserver: HTTPServer, stack: contextlib.ExitStack
) -> None:
    """A good updatelist whose files misbehave: each is reported, and the run still ends."""
    body = b"card data\n"
    lines = [b"fault\t01-31-26"]
    for fault in ("404", "drip-headers", "drip-body", "gzip-bomb", "redirect-loop"):
        url = FAULTS[fault][0](httpserver, stack, body)
        lines.append(f"plugins/fault/{fault}.txt\t{url}\t{checksum_bytes(body)}".encode())
    httpserver.expect_request("/good.txt").respond_with_data(body)
    good = httpserver.url_for("/good.txt")
    lines.append(f"plugins/fault/good.txt\t{good}\t{checksum_bytes(body)}".encode())
    lines.append(b"plugins/fault/local.txt\tfile:///etc/passwd\t1")
    httpserver.expect_request("/updatelist.txt").respond_with_data(b"\n".join(lines))
    report = verify_plugin(httpserver.url_for("/updatelist.txt"), fetcher=small_limits())
    status = {check.local_path.rsplit("/", 1)[1]: check for check in report.checks}
    assert status["good.txt"].status == OK
    expected = {
        "404.txt": "HTTP 404",
        "drip-headers.txt": "deadline",
        "drip-body.txt": "deadline",
        "gzip-bomb.txt": "too large",
        "redirect-loop.txt": "too many redirects",
        "local.txt": "not an http(s) URL",
    }
    for name, detail in expected.items():
        assert status[name].status == DEAD and detail in status[name].detail, status[name]


def test_read_timeout_is_not_cannot_connect(stack: contextlib.ExitStack) -> None:
    """A server that accepts and then says nothing timed out; it did not refuse."""
    server = stack.enter_context(RawServer(drip(http_response(b"late"), every_s=20)))
    fetcher = Fetcher(read_timeout=0.3, retries=0, deadline=10)
    expected = r"timed out waiting for the response headers: no data for 0\.3 s \(read timeout\)"
    with pytest.raises(LackeyError, match=expected):
        fetcher.get(server.url("/slow.txt"))


def test_html_content_type_does_not_override_content(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    """Hosts label plain .txt files text/html; card data is recognised by its content."""
    httpserver.expect_request("/alpha.txt").respond_with_data(ALPHA, content_type="text/html")
    report = import_sources(
        tmp_path / "cards.db", [httpserver.url_for("/alpha.txt")], fetcher=small_limits()
    )
    assert report.added == 100


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
@pytest.mark.parametrize("command", ["verify", "import"])
@pytest.mark.parametrize("fault", ["gzip-bomb", "oversize-streamed"])
def test_memory_stays_bounded(
    command: str, fault: str, httpserver: HTTPServer, tmp_path: Path
) -> None:
    """The real command with its default limits: a 300 MiB bomb or a 50 MB body is refused
    without ever being held (before: verify peaked at ~2x the decompressed size)."""
    url = FAULTS[fault][0](httpserver, contextlib.ExitStack(), UPDATELIST)
    db_path = tmp_path / "cards.db"
    args = (
        ["import", url, "--db", str(db_path)] if command == "import" else ["plugin", "verify", url]
    )
    finished = run_measured(args, tmp_path)
    assert finished.exit_code != 0 and "too large" in finished.stderr, finished.stderr
    assert finished.peak_mib < 200, f"{finished.peak_mib:.0f} MiB"
    assert not db_path.exists()


def _silent(connection: socket.socket, stopped: threading.Event) -> None:
    stopped.wait(DRIP_GIVES_UP_S)


def _answer_in_plain_http(connection: socket.socket, stopped: threading.Event) -> None:
    connection.recv(65536)  # a TLS client's hello
    connection.sendall(http_response(b"hi", "Content-Length: 2"))


# fault -> (server handler, read the request first, scheme, fetcher limits, message)
PHASES: dict[str, tuple[Callable, bool, str, dict[str, float], str]] = {
    "refused": (_silent, True, "http", {}, "cannot connect: "),
    "TLS handshake stalls": (
        _silent, False, "https", {"connect_timeout": 0.3},
        "timed out during the TLS handshake: no answer within the connect timeout (0.3 s)",
    ),
    "TLS handshake stalls past the deadline": (
        # a TLS record header announcing 16 KiB of handshake, then a byte every 0.1 s
        drip(b"\x16\x03\x03\x3f\xff" + bytes(200), every_s=0.1, head=5), False, "https",
        {"deadline": 1.0},
        "timed out during the TLS handshake: no complete answer within the 1 s deadline",
    ),
    "not TLS": (
        _answer_in_plain_http, False, "https", {},
        "the TLS handshake failed: [SSL: WRONG_VERSION_NUMBER]",
    ),
    "header line too long": (
        send_and_close(b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n"),
        True, "http", {},
        "no usable response headers: got more than 65536 bytes when reading header line",
    ),
    "too many headers": (
        send_and_close(http_response(b"", *(f"X-{n}: 1" for n in range(150)))),
        True, "http", {},
        "no usable response headers: got more than 100 headers",
    ),
    "not HTTP": (
        send_and_close(b"SSH-2.0-OpenSSH_9.6\r\n\r\n"), True, "http", {},
        "no usable response headers: not an HTTP status line: 'SSH-2.0-OpenSSH_9.6'",
    ),
    "no answer": (
        send_and_close(b""), True, "http", {},
        "no usable response headers: the server closed the connection without answering",
    ),
    "headers never end": (
        drip(http_response(b"x")), True, "http", {"deadline": 1.0},
        "timed out waiting for the response headers: no complete answer within the 1 s",
    ),
    "body stalls": (
        _drip_body(b"x" * 100), True, "http", {"deadline": 1.0},
        "timed out reading the body: no complete answer within the 1 s deadline",
    ),
}  # fmt: skip


def _one_wait(phases: dict) -> list:
    """Every phase; of those that wait out a deadline or a timeout (a second each), the
    default run takes the first, the slow run the others."""
    waits = [name for name in sorted(phases) if phases[name][3]]
    return [
        pytest.param(name, marks=pytest.mark.slow if name in waits[1:] else ())
        for name in sorted(phases)
    ]


@pytest.mark.parametrize("fault", _one_wait(PHASES))
def test_network_errors_name_the_phase_that_failed(fault: str, stack: contextlib.ExitStack) -> None:
    handler, read_request, scheme, limits, message = PHASES[fault]
    server = stack.enter_context(RawServer(handler, read_request=read_request))
    url = server.url("/file.txt", scheme)
    if fault == "refused":
        url = "http://127.0.0.1:9/file.txt"  # the discard port: nothing listens there
    fetcher = Fetcher(**{"retries": 0, "read_timeout": 5.0, "deadline": 10.0, **limits})
    with pytest.raises(LackeyError) as caught:
        fetcher.get(url)
    assert message in str(caught.value)
