"""The Lackey checksum against every Lackey-generated value we have (docs/lackey-formats.md §10)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from lackey_plugin.checksum import checksum_bytes, checksum_file
from zcards.cli import cli


def _rows(reference_dir: Path) -> list[dict[str, str]]:
    with (reference_dir / "CHECKSUMS.tsv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _literal(data: bytes) -> int:
    """The C loop of the forum post, transcribed literally (independent of the fast path)."""
    total = 0
    for byte in [*data, -1]:
        if byte in (10, 13):
            continue
        total += byte - 256 if byte >= 128 else byte
        total = int(abs(total) % 100_000_000) * (1 if total >= 0 else -1)
    return total


def test_every_golden_row_matches_the_value_lackey_listed(reference_dir: Path) -> None:
    golden = [row for row in _rows(reference_dir) if row["match"] == "yes"]
    assert len(golden) == 62
    for row in golden:
        path = reference_dir / row["plugin_folder"] / row["relative_file_path"]
        assert path.is_file(), path
        assert checksum_file(path) == int(row["checksum_listed_in_updatelist"]), path


def test_every_row_reproduces_the_recomputed_value(reference_dir: Path) -> None:
    rows = _rows(reference_dir)
    assert len(rows) == 156
    for row in rows:
        path = reference_dir / row["plugin_folder"] / row["relative_file_path"]
        assert checksum_file(path) == int(row["checksum_computed"]), path


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", -1),
        (b"A", 64),
        (b"AB\n", 130),
        (b"AB\r\n", 130),
        (b"\xff", -2),
        (b"\x80\x7f", -2),
        ("é".encode(), -149),
        (b"<plugin></plugin>", 1600),
        (b"x" * 2_000_000, 39_999_999),
    ],
)
def test_reference_vectors(data: bytes, expected: int, tmp_path: Path) -> None:
    assert checksum_bytes(data) == expected
    path = tmp_path / "file"
    path.write_bytes(data)
    assert checksum_file(path) == expected


def test_potter_values_named_by_the_lycee_fixtures(reference_dir: Path) -> None:
    # lycee-overture's fixtures 372237.txt and -20265.jpg are these potter files.
    assert checksum_file(reference_dir / "potter/packs/packdefinitions1.xml") == 372237
    assert checksum_file(reference_dir / "potter/packs/boosterchamber.jpg") == -20265


def test_missing_file_and_folder_give_zero(tmp_path: Path) -> None:
    assert checksum_file(tmp_path / "absent.txt") == 0
    assert checksum_file(tmp_path) == 0


def test_line_endings_do_not_change_the_checksum(reference_dir: Path, tmp_path: Path) -> None:
    original = (reference_dir / "lackey-example/sets/carddata.txt").read_bytes()
    assert b"\r" in original and b"\n" not in original  # CR-only, old Mac style
    converted = tmp_path / "carddata.txt"
    converted.write_bytes(original.replace(b"\r", b"\n"))
    assert checksum_file(converted) == checksum_bytes(original) == 58233
    crlf = (reference_dir / "lorcana/sets/carddata.txt").read_bytes()
    assert checksum_bytes(crlf.replace(b"\r\n", b"\n")) == 55915095


def test_wrapping_in_both_directions_matches_the_literal_loop() -> None:
    # Cross +10^8 and then -10^8 several times: the fast path must fall back to exact steps.
    data = (b"\x7f" * 900_000 + b"\x80" * 1_700_000) * 2 + b"x" * 1000
    assert checksum_bytes(data) == _literal(data)


@given(st.binary(max_size=2000))
def test_fast_path_equals_literal_loop(data: bytes) -> None:
    assert checksum_bytes(data) == _literal(data)


def test_cli_prints_checksums(reference_dir: Path, tmp_path: Path) -> None:
    target = reference_dir / "tribbles/bot.jpg"
    result = CliRunner().invoke(cli, ["plugin", "checksum", str(target)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"6383\t{target}"]
    missing = CliRunner().invoke(cli, ["plugin", "checksum", str(target), str(tmp_path / "nope")])
    assert missing.exit_code == 2 and f"no such file: {tmp_path / 'nope'}" in missing.stderr
    assert missing.stdout == ""
    result = CliRunner().invoke(cli, ["plugin", "checksum", "--format", "json", str(target)])
    assert json.loads(result.output) == [{"file": str(target), "checksum": 6383}]
