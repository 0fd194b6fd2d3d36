"""Shared helpers for the plugin tests: card rendering is slow, so each export runs once."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lackey_plugin.lint import LintFinding, lint_plugin
from lackey_plugin.lint_urls import PLACEHOLDER_URL
from zcards.publish.plugin_export import ExportReport, export_plugin

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "plugin_golden"
MINI_CARDS = GOLDEN / "mini.txt"
MINI_DECK = GOLDEN / "mini-starter.txt"
RELEASE = date(2026, 11, 29)
TEST_DPI = 30

_cache: dict[tuple, tuple] = {}


def exported_sample(
    factory: pytest.TempPathFactory, db_path: Path, base_url: str
) -> tuple[Path, ExportReport]:
    """The bundled set exported once per test session for ``base_url``."""
    key = ("sample", base_url)
    if key not in _cache:
        out = factory.mktemp("plugin-out")
        report = export_plugin(db_path, out, base_url=base_url, release=RELEASE, dpi=TEST_DPI)
        _cache[key] = (out / "zombieccg", report)
    return _cache[key]


def mini_db(factory: pytest.TempPathFactory) -> Path:
    """A five-card, two-set database (non-ASCII name, markup characters in text)."""
    key = ("mini-db",)
    if key not in _cache:
        from zcards.ingest.importer import import_sources

        path = factory.mktemp("mini-db") / "cards.db"
        import_sources(path, [str(MINI_CARDS)])
        _cache[key] = (path, None)
    return _cache[key][0]


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
