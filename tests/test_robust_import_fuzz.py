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

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zcards.cards.model import CARD_TYPES, FACTIONS, KEYWORDS, ZOMBIE_COLUMNS
from zcards.errors import ZcardsError
from zcards.ingest.importer import import_sources

# Headers with a valid row each: the rows are mutated a few cells at a time, so most of them
# get past validation and reach the database.
TEMPLATES = [
    (
        list(ZOMBIE_COLUMNS),
        ["Card", "alpha", "img", "Zombie", "Rage", "", "2", "", "Fast", "1 Tough", "", "C", "Grr."],
    ),
    (
        ["Name", "Set", "ImageFile", "Type", "Power", "Text"],
        ["Card", "s1", "img", "Elf", "3", "Hi"],
    ),
    (
        ["Name", "Set", "ImageFile", "Cost", "Cost", "Name", ""],
        ["Card", "s1", "img", "1", "2", "x"],
    ),
]
_CELL = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", "alpha", *CARD_TYPES, *FACTIONS, *KEYWORDS, "C", "R", "2 Fast"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["1_000", "\u0663", "+3", "\x1b[31m", "\x00", "\u202e", "\ufeff", "\x85"]),
)
_BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\x85", "\u2028"])


@st.composite
def card_rows(draw: st.DrawFn, template: list[str], number: int) -> list[str]:
    """The template row under a new name, with up to three cells replaced or dropped/added."""
    cells = [f"{template[0]} {number}", *template[1:]]
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(cells)))
        if position == len(cells):
            cells.append(draw(_CELL))
        else:
            cells[position] = draw(_CELL)
    if draw(st.integers(0, 9)) == 0:
        cells = cells[: draw(st.integers(0, len(cells)))]
    return cells


@st.composite
def card_documents(draw: st.DrawFn) -> bytes:
    """Card data as it comes off the web: mostly right, then damaged in some way."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=600))
    header, template = draw(st.sampled_from(TEMPLATES))
    count = draw(st.integers(0, 12))
    rows = [draw(card_rows(template, draw(st.integers(0, count)))) for _ in range(count)]
    lines = ["\t".join(header), *("\t".join(cells) for cells in rows)]
    text = draw(_BREAKS).join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))
    data = text.encode(draw(st.sampled_from(["utf-8", "utf-8-sig"])), errors="surrogatepass")
    damage = draw(st.sampled_from(["none", "none", "cut", "byte", "cp1252"]))
    if damage == "cut" and data:
        data = data[: draw(st.integers(0, len(data)))]
    elif damage == "byte" and data:
        position = draw(st.integers(0, len(data)))
        data = data[:position] + bytes([draw(st.integers(0x80, 0xFF))]) + data[position:]
    elif damage == "cp1252":
        data = text.encode("cp1252", errors="replace")
    return data


@settings(
    max_examples=60,
    deadline=10_000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
@given(document=card_documents(), skip_bad_rows=st.booleans())
def test_fuzzed_card_data_imports_or_fails_cleanly(
    sample_db_path: Path, document: bytes, skip_bad_rows: bool
) -> None:
    before = sample_db_path.read_bytes()
    with tempfile.TemporaryDirectory() as folder:
        db_path, source = Path(folder) / "cards.db", Path(folder) / "fuzz.txt"
        db_path.write_bytes(before)
        source.write_bytes(document)
        try:
            import_sources(db_path, [str(source)], skip_bad_rows=skip_bad_rows)
        except ZcardsError as error:
            assert str(error)
            assert db_path.read_bytes() == before, "a failed import changed the database"
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
