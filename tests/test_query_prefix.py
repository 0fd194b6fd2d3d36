"""Anchored name regexes (``name:/^Rusty Crow/``) read the name index and find what the
regex finds, case twins (``ſ`` for ``s``, ``İ`` and ``ı`` for ``i``, the Kelvin sign for
``k``) included."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from zcards.ingest.importer import import_sources
from zcards.query.prefix import CASE_TWINS, MAX_RANGES, like_ranges, literal_prefix
from zcards.query.search import search_rows, search_sql
from zcards.store.db import open_connection

NAMES = [
    "Rusty Crow", "RUSTY CROW 2", "rusty crow 3", "Ru\u017fty Crow", "Rusty Crown",
    "Rusty", "Xrusty Crow", "Ivy", "\u0130vy", "\u0131vy", "ivy league", "\u212aelvin",
    "Kelvin", "50% Off", "50_ Off", "500 Off", "a|b", "Sister Sasha", "\u00c9clair", "\u00e9clair",
]  # fmt: skip
HEADER = "Name\tSet\tImageFile\tType\tFaction\tCost\tPower\tHealth\tKeywords\tRequirements\t"
HEADER += "Symbols\tRarity\tText"


@pytest.fixture(scope="module")
def names_db(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    """Items named :data:`NAMES`, imported into a real database."""
    folder = tmp_path_factory.mktemp("prefix")
    source = folder / "cards.txt"
    rows = [
        f"{name}\tbeta\titem{n}\tItem\t\t1\t\t\t\t\t\tC\tPermanent." for n, name in enumerate(NAMES)
    ]
    source.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    import_sources(folder / "cards.db", [str(source)])
    return open_connection(folder / "cards.db")


def plan(db: sqlite3.Connection, query: str) -> list[str]:
    sql, params = search_sql(db, query)
    return [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]


@pytest.mark.parametrize("query", ["name:/^Gross Gh/", "name:/^gross ghoul$/", "name=/^Fire/"])
def test_an_anchored_name_regex_searches_the_name_index(sample_db_path: Path, query: str):
    steps = plan(open_connection(sample_db_path), query)
    assert "SEARCH cards USING INDEX idx_cards_name_nocase (name>? AND name<?)" in steps, steps
    assert "SCAN cards" not in steps, steps


@pytest.mark.parametrize("query", ["name:/gross/", "name:/^(a|b)c/", "name:/^a|b/", "/^gross/"])
def test_other_regexes_still_scan(sample_db_path: Path, query: str):
    assert "SCAN cards" in plan(open_connection(sample_db_path), query)


@pytest.mark.parametrize(
    "pattern",
    [
        "^rusty crow", "^Rusty Crow$", "^rusty crow \\d", "^RUSTY", "^ivy", "^Ivy$", "^kelvin",
        "^50%", "^50_", "^50\\d", "^a\\|b", "^sister s", "^\u00e9clair", "^Rusty Crown?$",
        "^Rusty C(row|rown)$", "^Rus+ty", "^R[uv]sty", "^ruſty",
    ],
)  # fmt: skip
def test_a_prefix_search_finds_what_the_regex_finds(names_db: sqlite3.Connection, pattern: str):
    found = sorted(row.name for row in search_rows(names_db, f"name:/{pattern}/"))
    assert found == sorted(name for name in NAMES if re.search(pattern, name, re.IGNORECASE))


@pytest.mark.parametrize(
    ("pattern", "prefix", "whole"),
    [
        ("^Rusty Crow", "Rusty Crow", True),
        ("^Rusty Crow \\d+", "Rusty Crow ", False),
        ("^ab*", "a", False),
        ("^ab?c", "a", False),
        ("^ab{2}", "a", False),
        ("^a\\.b", "a.b", True),
        ("^a\\db", "a", False),
        ("^a(b|c)", "a", False),
        ("^a[|]b", "a", False),
        ("^a|b", "", False),
        ("^a[]|]|b", "", False),
        ("a^b", "", False),
        ("\\Aab", "", False),
    ],
)
def test_the_literal_prefix_of_a_regex(pattern: str, prefix: str, whole: bool):
    assert literal_prefix(pattern) == (prefix, whole)


def test_like_ranges_escape_and_stop_where_they_would_grow_too_many():
    assert like_ranges("50%_\\") == (["50\\%\\_\\\\%"], True)
    assert like_ranges("sk") == (["sk%", "s\u212a%", "\u017fk%", "\u017f\u212a%"], True)
    ranges, complete = like_ranges("sissies")
    assert not complete and 1 < len(ranges) <= MAX_RANGES
    assert like_ranges("\u00e9clair") == ([], False)
    assert like_ranges("caf\u00e9") == (["caf%"], False)
    assert like_ranges("") == ([], False)


def test_the_case_twins_are_all_there_are():
    """Every non-ASCII character Python's case-blind regexes match with an ASCII one."""
    printable = [chr(code) for code in range(32, 127)]
    ascii_class = re.compile("[\\x20-\\x7e]", re.IGNORECASE)
    found: dict[str, set[str]] = {}
    for char in map(chr, range(128, 0x110000)):
        if ascii_class.fullmatch(char):
            for twin in printable:
                if re.fullmatch(re.escape(twin), char, re.IGNORECASE):
                    found.setdefault(twin.lower(), set()).add(char)
    assert found == {letter: set(twins) for letter, twins in CASE_TWINS.items()}
