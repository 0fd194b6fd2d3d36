"""``plugin lint`` flags placeholder addresses (reserved example domains); ``--strict`` fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.plugin_exports import export_mini

from lackey_plugin.lint import WARNING, lint_plugin
from lackey_plugin.lint_urls import PLACEHOLDER_URL, is_placeholder_host
from zcards.cli import cli


@pytest.mark.parametrize(
    "host",
    [
        "example.com",
        "www.example.org",
        "EXAMPLE.NET",
        "cards.example",
        "example.invalid",
        "zombie.test",
        "localhost",
        "localhost.",
        "api.localhost",
    ],
)
def test_reserved_hosts_are_placeholders(host: str) -> None:
    assert is_placeholder_host(host)


@pytest.mark.parametrize(
    "host",
    ["lackeyccg.com", "examples.com", "myexample.org", "example.co", "test.com", "127.0.0.1"],
)
def test_real_hosts_are_not(host: str) -> None:
    assert not is_placeholder_host(host)


@pytest.fixture(scope="module")
def placeholder_plugin(tmp_path_factory: pytest.TempPathFactory, mini_db_path: Path) -> Path:
    out = tmp_path_factory.mktemp("placeholder")
    export_mini(mini_db_path, out, base_url=None)
    return out / "zombieccg"


def test_an_export_without_base_url_is_flagged_per_file(placeholder_plugin: Path) -> None:
    flagged = [f for f in lint_plugin(placeholder_plugin) if f.code == PLACEHOLDER_URL]
    assert [(f.file, f.line, f.severity) for f in flagged] == [
        ("updatelist.txt", 2, WARNING),
        ("version.txt", 3, WARNING),
    ]
    assert "example.invalid" in flagged[0].message


def test_a_published_address_is_not_flagged(mini_db_path: Path, tmp_path: Path) -> None:
    export_mini(mini_db_path, tmp_path, base_url="https://zombieccg.net/lackey/")
    assert lint_plugin(tmp_path / "zombieccg") == []


def test_cli_warns_and_strict_fails(placeholder_plugin: Path) -> None:
    runner = CliRunner()
    lenient = runner.invoke(cli, ["plugin", "lint", str(placeholder_plugin)])
    assert lenient.exit_code == 0, lenient.output
    assert "[placeholder-url]" in lenient.stdout
    strict = runner.invoke(
        cli, ["plugin", "lint", "--strict", "--format", "json", str(placeholder_plugin)]
    )
    assert strict.exit_code == 1
    assert {row["code"] for row in json.loads(strict.stdout)} == {PLACEHOLDER_URL}
    assert json.loads(strict.stderr)["exit_code"] == 1


def test_real_plugins_use_real_addresses(reference_dir: Path) -> None:
    for folder in sorted(p for p in reference_dir.iterdir() if p.is_dir()):
        assert [f for f in lint_plugin(folder) if f.code == PLACEHOLDER_URL] == [], folder.name
