"""CSV and TSV outputs never hand a spreadsheet a formula: a cell starting with = + - @ (or
TAB, CR) is written with a leading ' (OWASP's advice; quoting alone does not stop a
spreadsheet from running it), unless ``--raw-cells`` asks for the cells as they are."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from zcards.cli import main
from zcards.ingest.importer import import_sources

HEADER = "\t".join(
    ["Name", "Set", "ImageFile", "Type", "Faction", "Cost", "Power", "Health", "Keywords"]
    + ["Requirements", "Symbols", "Rarity", "Text"]
)
FORMULAS = {
    '=HYPERLINK("http://x/","Click")': "@SUM(1+1)*cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0": "-2+3",
    "Plain Ghoul": "=1+1",
}


@pytest.fixture
def formula_db(tmp_path: Path) -> Path:
    lines = [HEADER]
    for index, (name, text) in enumerate(FORMULAS.items()):
        lines.append(f"{name}\talpha\timg{index}\tZombie\tHorde\t\t2\t\t\t\t\tC\t{text}")
    source = tmp_path / "formulas.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "cards.db"
    import_sources(db, [str(source)])
    return db


def _cells(text: str, delimiter: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]


@pytest.mark.parametrize(("output_format", "delimiter"), [("csv", ","), ("tsv", "\t")])
@pytest.mark.parametrize("command", ["search", "changes"])
def test_formula_cells_are_written_as_text(
    formula_db: Path, capsys, command: str, output_format: str, delimiter: str
) -> None:
    query = ["search", "set:alpha"] if command == "search" else ["changes"]
    main([*query, "--db", str(formula_db), "--format", output_format])
    cells = _cells(capsys.readouterr().out, delimiter)
    runnable = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert runnable == []
    names = [f"'{name}" for name in FORMULAS if name != "Plain Ghoul"] + ["Plain Ghoul"]
    texts = [f"'{text}" for text in FORMULAS.values()]
    assert set(names) <= set(cells)
    assert set(texts) <= set(cells) or command == "changes"  # a new card's fields: its name


def test_raw_cells_are_written_as_they_are(formula_db: Path, capsys) -> None:
    main(["search", "set:alpha", "--db", str(formula_db), "--format", "csv", "--raw-cells"])
    cells = _cells(capsys.readouterr().out, ",")
    assert set(FORMULAS) | set(FORMULAS.values()) <= set(cells)


def test_a_plain_negative_number_stays_a_number() -> None:
    from zcards.cli.output import spreadsheet_text

    assert spreadsheet_text(["-3", "-1.5", "-3-2", 4, None]) == ["-3", "-1.5", "'-3-2", 4, None]
