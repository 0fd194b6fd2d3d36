"""Helpers for the plugin tests: the five-card fixture files, a small export, file trees.

Card rendering is slow, so the fixtures built from these (``tests/conftest.py``) run once per
session: ``mini_db_path`` and ``sample_plugin``.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from pytest_httpserver import HTTPServer

from lackey_plugin.lint import LintFinding, lint_plugin
from lackey_plugin.lint_urls import PLACEHOLDER_URL
from zcards.publish.plugin_export import ExportReport, export_plugin

from .paths import TESTS

GOLDEN = TESTS / "plugin_golden"
MINI_CARDS = GOLDEN / "mini.txt"
MINI_DECK = GOLDEN / "mini-starter.txt"
RELEASE = date(2026, 11, 29)
SAMPLE_URL = "https://example.org/lackey/zombieccg/"  # where the sample plugin says it lives
TEST_DPI = 30


def serve_plugin(
    server: HTTPServer,
    plugin: Path,
    *,
    prefix: str = "/zombieccg/",
    skip: str = "",
    missing: str = "",
    replace: str = "",
) -> None:
    """Serve ``plugin`` under ``prefix``, but ``skip`` answers HTTP 500 (the test server's
    answer to a path it does not know, retried by the fetcher) and ``missing`` 404 (a file
    nobody uploaded)."""
    for path in sorted(p for p in plugin.rglob("*") if p.is_file()):
        relative = path.relative_to(plugin).as_posix()
        if relative == skip:
            continue
        if relative == missing:
            server.expect_request(f"{prefix}{relative}").respond_with_data("gone", 404)
            continue
        body = path.read_bytes() + (b"stale" if relative == replace else b"")
        server.expect_request(f"{prefix}{relative}").respond_with_data(body)


def hidden_files(folder: Path) -> list[str]:
    """Names of the hidden entries of ``folder`` (an export's build or swap leftovers)."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def export_mini(db_path: Path, out: Path, **options) -> ExportReport:
    settings = {
        "base_url": "https://example.org/zombieccg/",
        "release": date(2026, 1, 31),
        "dpi": TEST_DPI,
        "decks": [MINI_DECK],
    }
    settings.update(options)
    return export_plugin(db_path, out, **settings)


def lint_ignoring_placeholders(folder: Path) -> list[LintFinding]:
    """Lint findings other than the placeholder-URL warning: test exports use example.org."""
    return [finding for finding in lint_plugin(folder) if finding.code != PLACEHOLDER_URL]


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones too) with its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
