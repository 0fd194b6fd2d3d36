"""Card data from spreadsheets: the bundled set saved as CSV (comma, semicolon) and XLSX
imports to the same database as the TAB-separated file, and a bad row is reported at the
same line and column whichever form it comes in."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import openpyxl
import pytest

from lackey_plugin.carddata import read_card_data
from zcards.cards.normalise import CardDataError
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET


def _table() -> list[list[str]]:
    parsed = read_card_data(BUNDLED_SET.read_bytes())
    return [parsed.header, *(list(row.values) for row in parsed.rows)]


def _write_csv(path: Path, rows: list[list[str]], delimiter: str) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(rows)
    return path


def _write_xlsx(path: Path, rows: list[list[str]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:  # numbers as numbers, the way a spreadsheet holds them
        sheet.append([int(v) if v.isdigit() else v for v in row])
    book.save(path)
    return path


def _cards(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("select * from cards order by set_name, name").fetchall()


@pytest.mark.parametrize("form", ["comma", "semicolon", "xlsx"])
def test_a_spreadsheet_export_imports_like_the_tab_separated_file(
    tmp_path: Path, form: str
) -> None:
    rows = _table()
    if form == "xlsx":
        source = _write_xlsx(tmp_path / "cards.xlsx", rows)
    else:
        source = _write_csv(tmp_path / "cards.csv", rows, "," if form == "comma" else ";")
    import_sources(tmp_path / "tsv.db", [str(BUNDLED_SET)])
    report = import_sources(tmp_path / "sheet.db", [str(source)])

    assert report.added == len(rows) - 1 == 100
    expected = [row[:-1] for row in _cards(tmp_path / "tsv.db")]  # source_id aside
    assert [row[:-1] for row in _cards(tmp_path / "sheet.db")] == expected


@pytest.mark.parametrize("suffix", [".txt", ".csv", ".xlsx"])
def test_a_bad_row_is_reported_at_the_same_place(tmp_path: Path, suffix: str) -> None:
    rows = _table()
    power = rows[0].index("Power")
    rows[5][power] = "lots"
    path = tmp_path / f"cards{suffix}"
    if suffix == ".txt":
        path.write_text("\n".join("\t".join(row) for row in rows) + "\n", encoding="utf-8")
    elif suffix == ".csv":
        _write_csv(path, rows, ",")
    else:
        _write_xlsx(path, rows)
    with pytest.raises(CardDataError) as caught:
        import_sources(tmp_path / "cards.db", [str(path)])
    [problem] = caught.value.problems
    assert (problem.location.file, problem.location.line, problem.location.column) == (
        str(path),
        6,
        "Power",
    )
    assert "lots" in problem.message
    assert not (tmp_path / "cards.db").exists()


def test_a_quoted_line_break_keeps_the_line_numbers_true(tmp_path: Path) -> None:
    rows = _table()[:4]
    rows[1][rows[0].index("Text")] = "first line\nsecond line"
    rows[3][rows[0].index("Cost")] = "x"
    path = _write_csv(tmp_path / "cards.csv", rows, ",")
    with pytest.raises(CardDataError) as caught:
        import_sources(tmp_path / "cards.db", [str(path)])
    assert caught.value.problems[0].location.line == 5  # record 4 starts on line 5
