"""Importing over real HTTP (pytest-httpserver): failures are clear and leave the db untouched."""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path

import pytest
import sqlite_utils
from pytest_httpserver import HTTPServer
from support.reference_plugins import EXPECTED_ROWS
from werkzeug import Request, Response

from lackey_plugin.errors import LackeyError
from lackey_plugin.fetch import Fetcher, is_url
from zcards.ingest.download import USER_AGENT, zcards_fetcher
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET

ALPHA = BUNDLED_SET.read_bytes()
ERROR_PAGE = b"<!DOCTYPE html><html><head><title>404</title></head><body>Not here</body></html>"


def quick_fetcher(**limits) -> Fetcher:
    return zcards_fetcher(**{"backoff": 0.01, "read_timeout": 5.0, **limits})


def assert_fails_cleanly(db_path: Path, url: str, match: str, **limits) -> LackeyError:
    before = db_path.read_bytes()
    with pytest.raises(LackeyError, match=match) as caught:
        import_sources(db_path, [url], fetcher=quick_fetcher(**limits))
    assert caught.value.location is not None and caught.value.location.file == url
    assert db_path.read_bytes() == before
    return caught.value


def test_url_import_records_provenance(httpserver: HTTPServer, tmp_path: Path) -> None:
    httpserver.expect_request("/alpha.txt").respond_with_data(
        ALPHA, headers={"ETag": '"v1"', "Last-Modified": "Sun, 01 Nov 2026 10:00:00 GMT"}
    )
    url = httpserver.url_for("/alpha.txt")
    report = import_sources(tmp_path / "cards.db", [url], fetcher=quick_fetcher())
    assert report.added == 100
    source = next(sqlite_utils.Database(tmp_path / "cards.db")["sources"].rows)
    assert (source["location"], source["etag"], source["row_count"]) == (url, '"v1"', 100)
    assert source["last_modified"] == "Sun, 01 Nov 2026 10:00:00 GMT"
    request, _ = httpserver.log[-1]
    assert request.headers["User-Agent"] == USER_AGENT


def test_unchanged_reimport_costs_one_304(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    def conditional(request: Request) -> Response:
        if request.headers.get("If-None-Match") == '"v1"':
            return Response(status=304, headers={"ETag": '"v1"'})
        return Response(ALPHA, headers={"ETag": '"v1"'})

    httpserver.expect_request("/alpha.txt").respond_with_handler(conditional)
    url = httpserver.url_for("/alpha.txt")
    first = import_sources(sample_db_copy, [url], fetcher=quick_fetcher())
    assert first.unchanged == 100  # same cards as the bundled file: they move to this source
    cards_before = sorted(map(repr, sqlite_utils.Database(sample_db_copy)["cards"].rows))
    httpserver.clear_log()
    second = import_sources(sample_db_copy, [url], fetcher=quick_fetcher())
    assert [status for _, response in httpserver.log for status in [response.status_code]] == [304]
    assert second.sources[0].not_modified and second.changes == []
    assert sorted(map(repr, sqlite_utils.Database(sample_db_copy)["cards"].rows)) == cards_before


def test_404_is_a_clear_error(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    httpserver.expect_request("/gone.txt").respond_with_data(ERROR_PAGE, status=404)
    assert_fails_cleanly(sample_db_copy, httpserver.url_for("/gone.txt"), "HTTP 404 NOT FOUND")


def test_500_then_success_is_retried(httpserver: HTTPServer, tmp_path: Path) -> None:
    url = httpserver.url_for("/flaky.txt")
    httpserver.expect_ordered_request("/flaky.txt").respond_with_data("oops", status=500)
    httpserver.expect_ordered_request("/flaky.txt").respond_with_data("oops", status=503)
    httpserver.expect_ordered_request("/flaky.txt").respond_with_data(ALPHA)
    report = import_sources(tmp_path / "cards.db", [url], fetcher=quick_fetcher())
    assert report.added == 100
    assert [response.status_code for _, response in httpserver.log] == [500, 503, 200]


def test_500_forever_gives_up(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    httpserver.expect_request("/down.txt").respond_with_data("down", status=500)
    assert_fails_cleanly(sample_db_copy, httpserver.url_for("/down.txt"), "500", retries=2)
    assert len(httpserver.log) == 3


def test_timeout(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    def slow(request: Request) -> Response:
        time.sleep(1.0)
        return Response(ALPHA)

    httpserver.expect_request("/slow.txt").respond_with_handler(slow)
    url = httpserver.url_for("/slow.txt")
    assert_fails_cleanly(sample_db_copy, url, "timed out", read_timeout=0.2)


def test_truncated_body(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    body = Response(iter([ALPHA[:500]]), headers={"Content-Length": str(len(ALPHA))})
    httpserver.expect_request("/cut.txt").respond_with_response(body)
    assert_fails_cleanly(sample_db_copy, httpserver.url_for("/cut.txt"), "truncated")


@pytest.mark.parametrize("streamed", [False, True])
def test_oversize_body(httpserver: HTTPServer, sample_db_copy: Path, streamed: bool) -> None:
    """Refused from Content-Length, or while streaming when the server does not say."""
    payload = iter([ALPHA[:4096], ALPHA[4096:]]) if streamed else ALPHA
    httpserver.expect_request("/big.txt").respond_with_response(Response(payload))
    url = httpserver.url_for("/big.txt")
    assert_fails_cleanly(sample_db_copy, url, "too large", max_bytes=5000)


def test_html_instead_of_card_data(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    httpserver.expect_request("/cards.txt").respond_with_data(ERROR_PAGE, content_type="text/html")
    error = assert_fails_cleanly(sample_db_copy, httpserver.url_for("/cards.txt"), "HTML page")
    assert "expected Lackey card data" in error.message


def test_html_page_without_cards_is_an_error(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    httpserver.expect_request("/").respond_with_data(ERROR_PAGE, content_type="text/html")
    assert_fails_cleanly(sample_db_copy, httpserver.url_for("/"), "no card table")


def test_html_page_linking_to_an_error_page(httpserver: HTTPServer, sample_db_copy: Path) -> None:
    page = b'<html><body><a href="sets/core.txt">core</a></body></html>'
    httpserver.expect_request("/index.html").respond_with_data(page, content_type="text/html")
    httpserver.expect_request("/sets/core.txt").respond_with_data(ERROR_PAGE, status=200)
    before = sample_db_copy.read_bytes()
    with pytest.raises(LackeyError, match="got an HTML page") as caught:
        import_sources(sample_db_copy, [httpserver.url_for("/index.html")], fetcher=quick_fetcher())
    assert caught.value.location.file == httpserver.url_for("/sets/core.txt")
    assert sample_db_copy.read_bytes() == before


def test_html_page_with_links_to_card_data(httpserver: HTTPServer, tmp_path: Path) -> None:
    page = b"""<html><body><p><a href="files/alpha.txt">Alpha set</a> <a href="/x.png">x</a>
        <a href="/readme.txt">read me</a></body>"""
    httpserver.expect_request("/cards/").respond_with_data(page, content_type="text/html")
    httpserver.expect_request("/cards/files/alpha.txt").respond_with_data(ALPHA)
    httpserver.expect_request("/readme.txt").respond_with_data("Just notes.\n")
    report = import_sources(
        tmp_path / "c.db", [httpserver.url_for("/cards/")], fetcher=quick_fetcher()
    )
    assert report.added == 100
    assert report.sources[1].parent == httpserver.url_for("/cards/")
    (warning,) = report.warnings
    assert warning.location.file == httpserver.url_for("/readme.txt")
    assert "not card data" in warning.message and "skipped" in warning.message


def test_html_page_with_a_card_table(httpserver: HTTPServer, tmp_path: Path) -> None:
    page = """<html><body><h1>Spoiler</h1>
<table><thead><tr><th>Name</th><th>Set</th><th>Type</th><th>Faction</th><th>Power</th>
<th>Keywords</th><th>Rarity</th><th>Text</th></tr></thead><tbody>
<tr><td>Web Walker</td><td>beta</td><td>Zombie</td><td>Weird</td><td>2</td>
<td>Sentient</td><td>U</td><td>Reads &amp; walks.</td></tr>
<tr><td>Web Crawler</td><td>beta</td><td>Zombie</td><td>Wierd</td><td>1</td>
<td></td><td>C</td><td>Crawls.</td></tr>
</tbody></table></body></html>"""
    httpserver.expect_request("/spoiler").respond_with_data(page, content_type="text/html")
    url = httpserver.url_for("/spoiler")
    report = import_sources(tmp_path / "c.db", [url], fetcher=quick_fetcher(), skip_bad_rows=True)
    assert [c.name for c in report.changes if c.action == "added"] == ["Web Walker"]
    (skipped,) = report.skipped
    assert (skipped.location.file, skipped.location.line) == (url, 6)
    assert "did you mean 'Weird'?" in skipped.message
    row = next(sqlite_utils.Database(tmp_path / "c.db")["cards"].rows)
    assert (row["text"], row["keywords"]) == ("Reads & walks.", '["Sentient"]')


def test_unreachable_host(sample_db_copy: Path) -> None:
    url = "http://127.0.0.1:9/cards.txt"
    assert_fails_cleanly(sample_db_copy, url, "cannot connect", retries=1, connect_timeout=0.5)


@pytest.fixture
def plugin_server(httpserver: HTTPServer, reference_dir: Path, tmp_path: Path) -> HTTPServer:
    """Serves the reference plugin folders at /<plugin>/<path>, as their hosts would.

    Files written under ``tmp_path/served`` take precedence (rewritten updatelists).
    """
    overlay = tmp_path / "served"
    overlay.mkdir()

    def serve(request: Request) -> Response:
        relative = request.path.lstrip("/")
        for root in (overlay.resolve(), reference_dir.resolve()):
            path = (root / relative).resolve()
            if root in path.parents and path.is_file():
                etag = f'"{hashlib.sha256(path.read_bytes()).hexdigest()[:16]}"'
                if request.headers.get("If-None-Match") == etag:
                    return Response(status=304, headers={"ETag": etag})
                return Response(path.read_bytes(), headers={"ETag": etag})
        return Response("not found", status=404)

    httpserver.expect_request(re.compile("^/.*")).respond_with_handler(serve)
    return httpserver


def serve_updatelist(server: HTTPServer, reference_dir: Path, plugin: str, overlay: Path) -> str:
    """The plugin's updatelist with every file URL pointing at the test server."""
    text = (reference_dir / plugin / "updatelist.txt").read_bytes().decode("utf-8")

    def local_url(match: re.Match) -> str:
        return f"{match.group(1)}\t{server.url_for(f'/{plugin}/{match.group(2)}')}\t"

    text = re.sub(r"^(plugins/[^/]+/+(\S+))\t\S+\t", local_url, text, flags=re.M)
    (overlay / plugin).mkdir()
    (overlay / plugin / "updatelist.txt").write_text(text, encoding="utf-8", newline="")
    return server.url_for(f"/{plugin}/updatelist.txt")


@pytest.mark.parametrize(
    "plugin", ["dbztcg", "lackey-example", "lorcana", "potter", "tribbles", "vtes"]
)
def test_updatelist_is_followed_over_http(
    plugin_server: HTTPServer, reference_dir: Path, tmp_path: Path, plugin: str
) -> None:
    url = serve_updatelist(plugin_server, reference_dir, plugin, tmp_path / "served")
    report = import_sources(tmp_path / "cards.db", [url], fetcher=quick_fetcher())
    rows = sum(n for name, n in EXPECTED_ROWS.items() if name.startswith(f"{plugin}/"))
    assert report.added + report.variants == rows
    assert {"updatelist", "card-data"} <= {record.kind for record in report.sources}
    assert all(is_url(record.location) for record in report.sources)
    db = sqlite_utils.Database(tmp_path / "cards.db")
    assert db.execute("select count(*) from cards where image_url = ''").fetchone()[0] == 0


def test_unchanged_updatelist_reimport_costs_one_304(
    plugin_server: HTTPServer, reference_dir: Path, tmp_path: Path
) -> None:
    url = serve_updatelist(plugin_server, reference_dir, "tribbles", tmp_path / "served")
    db_path = tmp_path / "cards.db"
    first = import_sources(db_path, [url], fetcher=quick_fetcher())
    assert first.added == 147
    plugin_server.clear_log()
    second = import_sources(db_path, [url], fetcher=quick_fetcher())
    assert [(r.path, response.status_code) for r, response in plugin_server.log] == [
        ("/tribbles/updatelist.txt", 304)
    ]
    assert second.changes == [] and sqlite_utils.Database(db_path)["cards"].count == 147


def test_card_file_dropped_from_updatelist_removes_its_cards(
    plugin_server: HTTPServer, reference_dir: Path, tmp_path: Path
) -> None:
    overlay = tmp_path / "served"
    url = serve_updatelist(plugin_server, reference_dir, "tribbles", overlay)
    db_path = tmp_path / "cards.db"
    import_sources(db_path, [url], fetcher=quick_fetcher())
    updatelist = overlay / "tribbles" / "updatelist.txt"
    kept = [ln for ln in updatelist.read_text().split("\n") if "sets/trouble.txt" not in ln]
    updatelist.write_text("\n".join(kept))
    before = db_path.read_bytes()
    with pytest.raises(LackeyError, match="20 of its 147 cards") as refused:
        import_sources(db_path, [url], fetcher=quick_fetcher())
    assert "--prune" in str(refused.value) and db_path.read_bytes() == before
    report = import_sources(db_path, [url], fetcher=quick_fetcher(), prune=True)
    assert report.removed == 20 and {c.action for c in report.changes} == {"removed"}
    assert [r.not_modified for r in report.sources if r.location.endswith("tribbles.txt")] == [True]
    assert sqlite_utils.Database(db_path)["cards"].count == 127
    kinds = {row["location"]: row["kind"] for row in sqlite_utils.Database(db_path)["sources"].rows}
    assert [kind for location, kind in kinds.items() if location.endswith("trouble.txt")] == [
        "dropped"
    ]


def test_new_image_base_refreshes_unchanged_card_files(
    plugin_server: HTTPServer, reference_dir: Path, tmp_path: Path
) -> None:
    """Only the updatelist's CardGeneralURLs changes: the card files answer 304, and their
    cards' image URLs follow the new base all the same, logged as changes."""
    overlay = tmp_path / "served"
    url = serve_updatelist(plugin_server, reference_dir, "tribbles", overlay)
    db_path = tmp_path / "cards.db"
    import_sources(db_path, [url], fetcher=quick_fetcher())
    old_base = "https://raw.githubusercontent.com/lackeyccg-stccg/tribbles/master/sets/setimages/"
    new_base = "https://images.example.org/tribbles/"
    updatelist = overlay / "tribbles" / "updatelist.txt"
    text = updatelist.read_text(encoding="utf-8")
    assert f"\n{old_base}general/" in text
    updatelist.write_text(text.replace(f"\n{old_base}general/", f"\n{new_base}"))
    db = sqlite_utils.Database(db_path)
    query = "select set_name, name, image_url from cards"
    before = {(set_name, name): image for set_name, name, image in db.execute(query)}
    assert all(image.startswith(old_base) for image in before.values())
    plugin_server.clear_log()
    report = import_sources(db_path, [url], fetcher=quick_fetcher())
    card_files = [
        (request.headers.get("If-None-Match") is not None, response.status_code)
        for request, response in plugin_server.log
        if request.path.startswith("/tribbles/sets/") and request.path.endswith(".txt")
    ]
    assert card_files == [(True, 304), (True, 304)]
    after = {(set_name, name): image for set_name, name, image in db.execute(query)}
    assert after == {key: new_base + old.rsplit("/", 1)[1] for key, old in before.items()}
    assert report.changed == len(report.changes) == 147 and report.added == report.removed == 0
    for change in report.changes:
        key = (change.set_name, change.name)
        assert change.fields == {"image_url": [before[key], after[key]]}
    logged = db.execute("select count(*) from changes where run_id = ?", [report.run_id])
    assert logged.fetchone()[0] == 147
    again = import_sources(db_path, [url], fetcher=quick_fetcher())
    assert again.changes == []


def test_downloaded_page_cannot_point_at_local_files(
    httpserver: HTTPServer, sample_db_copy: Path
) -> None:
    page = f'<html><body><a href="file://{BUNDLED_SET}">alpha</a></body></html>'
    httpserver.expect_request("/evil.html").respond_with_data(page, content_type="text/html")
    assert_fails_cleanly(sample_db_copy, httpserver.url_for("/evil.html"), "only point to http")
