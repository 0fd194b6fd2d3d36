"""The download session on its own: conditional requests, redirects, headers."""

from __future__ import annotations

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from lackey_plugin.fetch import DEFAULT_USER_AGENT, Fetcher, Validators


def test_conditional_request_and_not_modified(httpserver: HTTPServer) -> None:
    seen: list[dict[str, str]] = []

    def handler(request: Request) -> Response:
        seen.append(dict(request.headers))
        if request.headers.get("If-Modified-Since") == "Sun, 01 Nov 2026 10:00:00 GMT":
            return Response(status=304)
        return Response(b"data", headers={"Last-Modified": "Sun, 01 Nov 2026 10:00:00 GMT"})

    httpserver.expect_request("/f.txt").respond_with_handler(handler)
    with Fetcher() as fetcher:
        first = fetcher.get(httpserver.url_for("/f.txt"))
        second = fetcher.get(httpserver.url_for("/f.txt"), first.validators)
    assert (first.not_modified, first.content) == (False, b"data")
    assert (second.not_modified, second.content) == (True, b"")
    assert "If-Modified-Since" not in seen[0] and seen[1]["User-Agent"] == DEFAULT_USER_AGENT


def test_redirect_is_followed(httpserver: HTTPServer) -> None:
    target = httpserver.url_for("/new.txt")
    httpserver.expect_request("/old.txt").respond_with_response(
        Response(status=301, headers={"Location": target})
    )
    httpserver.expect_request("/new.txt").respond_with_data(b"moved", headers={"ETag": '"e"'})
    with Fetcher() as fetcher:
        download = fetcher.get(httpserver.url_for("/old.txt"), Validators())
    assert (download.final_url, download.content) == (target, b"moved")
    assert download.validators == Validators('"e"', None)
