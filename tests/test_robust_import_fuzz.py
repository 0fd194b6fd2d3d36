"""Fuzzed card data (hypothesis): no traceback, no hang, no changed database on failure.

Every input is imported into a copy of a real card database. An import either succeeds
(the database stays consistent and searchable) or fails with a :class:`ZcardsError` that
names where, and then the database file is byte for byte what it was. Hypothesis' deadline
is the time budget: no input may take more than 10 s.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zcards.errors import ZcardsError
from zcards.importer import import_sources
from zcards.model import CARD_TYPES, FACTIONS, KEYWORDS, ZOMBIE_COLUMNS

HEADERS = [
    list(ZOMBIE_COLUMNS),
    ["Name", "Set", "ImageFile", "Type", "Power", "Text"],
    ["Name", "Set", "ImageFile", "Cost", "Cost", "Name", ""],
]
_CELL = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "alpha", *CARD_TYPES, *FACTIONS, *KEYWORDS, "C", "R", "2 Fast"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["1_000", "\u0663", "+3", "\x1b[31m", "\x00", "\u202e", "\ufeff", "\x85"]),
)
_ROW = st.lists(_CELL, min_size=0, max_size=16)
_BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\x85", "\u2028"])


@st.composite
def card_documents(draw: st.DrawFn) -> bytes:
    """Card data as it comes off the web: mostly right, then damaged in some way."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=600))
    header = draw(st.sampled_from(HEADERS))
    rows = draw(st.lists(_ROW, max_size=12))
    lines = ["\t".join(header)]
    for number, cells in enumerate(rows):
        name = draw(st.sampled_from([f"Card {number}", "Card 0", "", f"Z\x1b{number}"]))
        lines.append("\t".join([name, "alpha", "img", *cells]))
    text = draw(_BREAKS).join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))
    data = text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig"])), errors="surrogatepass")
    damage = draw(st.sampled_from(["none", "cut", "byte", "cp1252"]))
    if damage == "cut" and data:
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "byte" and data:
        position = draw(st.integers(0, len(data)))
        data = data[:position] + bytes([draw(st.integers(0x80, 0xFF))]) + data[position:]
    elif damage == "cp1252":
        data = text.encode("cp1252", errors="replace")
    return data


@pytest.fixture(scope="module")
def base_db(sample_db_path: Path) -> bytes:
    return sample_db_path.read_bytes()


@settings(
    max_examples=60,
    deadline=10_000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(document=card_documents(), skip_bad_rows=st.booleans())
def test_fuzzed_card_data_imports_or_fails_cleanly(
    base_db: bytes, document: bytes, skip_bad_rows: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db_path, source = Path(folder) / "cards.db", Path(folder) / "fuzz.txt"
        db_path.write_bytes(base_db)
        source.write_bytes(document)
        try:
            import_sources(db_path, [str(source)], skip_bad_rows=skip_bad_rows)
        except ZcardsError as error:
            assert str(error)
            assert db_path.read_bytes() == base_db
            return
        conn = sqlite3.connect(db_path)
        try:
            assert conn.execute("pragma integrity_check").fetchone() == ("ok",)
            assert conn.execute("select count(*) from cards").fetchone()[0] >= 100
            conn.execute("insert into cards_fts (cards_fts) values ('integrity-check')")
            controls = "select count(*) from cards where name glob '*[\x01-\x1f]*'"
            assert conn.execute(controls).fetchone() == (0,)
        finally:
            conn.close()
