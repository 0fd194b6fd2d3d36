"""``zcards plugin verify`` end to end: our export served over real HTTP, then broken on purpose."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from support.plugin_exports import serve_plugin as _serve

from lackey_plugin.verify import DEAD, MISMATCH, verify_plugin
from zcards.cli import cli


def test_a_correct_publication_verifies(httpserver: HTTPServer, published_mini: Path) -> None:
    _serve(httpserver, published_mini)
    report = verify_plugin(httpserver.url_for("/zombieccg/updatelist.txt"), images=True)
    assert report.name == "zombieccg"
    files = len([p for p in published_mini.rglob("*") if p.is_file()]) - 1
    cards = len(list((published_mini / "sets/setimages").glob("*/*")))  # each image checked
    assert len(report.checks) == files + cards
    assert report.problems == []


def test_dead_link_and_stale_checksum_are_reported(httpserver: HTTPServer, published_mini) -> None:
    _serve(httpserver, published_mini, skip="decks/mini-starter.dek", replace="sets/alpha.txt")
    report = verify_plugin(httpserver.url_for("/zombieccg/updatelist.txt"))
    problems = {(check.local_path, check.status) for check in report.problems}
    assert problems == {
        ("plugins/zombieccg/decks/mini-starter.dek", DEAD),
        ("plugins/zombieccg/sets/alpha.txt", MISMATCH),
    }
    (stale,) = [c for c in report.problems if c.status == MISMATCH]
    assert stale.actual == stale.listed + sum(b"stale")
    (dead,) = [c for c in report.problems if c.status == DEAD]
    assert dead.detail.startswith("HTTP 500")


def test_missing_card_image_is_found_with_images_option(httpserver, published_mini) -> None:
    _serve(httpserver, published_mini, missing="sets/setimages/alpha/grossghoul.jpg")
    runner = CliRunner()
    url = httpserver.url_for("/zombieccg/updatelist.txt")
    result = runner.invoke(cli, ["plugin", "verify", "--images", "--format", "json", url])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    paths = {problem["local_path"] for problem in report["problems"]}
    assert paths == {
        "plugins/zombieccg/sets/setimages/alpha/grossghoul.jpg",
        "alpha/grossghoul.jpg",
    }


def test_unreachable_updatelist_is_an_error(httpserver: HTTPServer) -> None:
    result = CliRunner().invoke(cli, ["plugin", "verify", httpserver.url_for("/nothing.txt")])
    assert result.exit_code == 2 and "cannot download the updatelist: HTTP 500" in result.stderr
    bad = CliRunner().invoke(cli, ["plugin", "verify", "ftp://x/updatelist.txt"])
    assert bad.exit_code == 2 and "is not an http(s) URL" in bad.stderr
