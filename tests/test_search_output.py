"""Search output written as rows arrive: CSV/TSV cells, JSON texts and the text table say
what the decoded card says, and the table is laid out from its first rows."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from zcards.cli import main
from zcards.cli.output import TABLE_SAMPLE, cell, emit_table
from zcards.query.compiler import EXTRA_COLUMNS_SQL, extra_columns
from zcards.query.search import search_rows
from zcards.store.db import open_connection
from zcards.store.rows import CSV_COLUMNS, CardRow


@pytest.mark.parametrize(("output_format", "delimiter"), [("csv", ","), ("tsv", "\t")])
def test_csv_cells_are_the_decoded_fields(sample_db_path: Path, capsys, output_format, delimiter):
    main(["search", "o:a or t:zombie", "--db", str(sample_db_path), "--format", output_format])
    table = list(csv.reader(io.StringIO(capsys.readouterr().out), delimiter=delimiter))
    rows = list(search_rows(open_connection(sample_db_path), "o:a or t:zombie"))
    assert table[0] == list(CSV_COLUMNS)
    expected = [[cell(row.to_dict()[name]) for name in CSV_COLUMNS] for row in rows]
    assert table[1:] == expected and len(expected) > 50
    assert any(", " in line[CSV_COLUMNS.index("keywords")] for line in table[1:])  # lists
    assert any(line[CSV_COLUMNS.index("requirements")][:1].isdigit() for line in table[1:])


def test_json_text_is_the_decoded_row():
    awkward = CardRow(
        ("Zo\u00eb's \"Bat\"", "beta", None, "Item", None, None, 3, "x", '["Fast"]', '{"Fast": 2}',
         "[]", None, "line\nbreak\ttab \\ \u2603", '{"Lore": "2"}')
    )  # fmt: skip
    assert json.loads(awkward.to_json()) == awkward.to_dict()
    assert "\u00eb" in awkward.to_json()  # non-ASCII kept as it is


def test_the_table_takes_its_widths_from_the_first_rows(capsys):
    rows = [["a", "1"]] * TABLE_SAMPLE + [["a much longer cell", "2"]]
    emit_table(rows, ["name", "n"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["name  n", "----  -", "a     1"]
    assert lines[-1] == "a much longer cell  2"  # written whole, the rest of its line shifted
    assert len(lines) == TABLE_SAMPLE + 3


def test_other_games_columns_are_found_through_their_index(sample_db_path: Path):
    conn = open_connection(sample_db_path)
    assert extra_columns(conn) == []
    steps = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {EXTRA_COLUMNS_SQL}")]
    assert "SCAN cards USING INDEX idx_cards_extra" in steps, steps
