"""Damaged and hostile spreadsheets: every one is a clear error naming the file (exit 2, no
traceback), nothing is written, no entity reaches a local file, and a ZIP bomb is refused
before it is unpacked."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import openpyxl
import pytest

from tests.support.processes import run, zcards_argv

SHEET = "xl/worksheets/sheet1.xml"
SECRET = "zcards-secret-4711"


def _good_xlsx(path: Path) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Name", "Set", "ImageFile", "Type", "Faction", "Cost", "Power", "Health"])
    sheet.append(["Gross Ghoul", "alpha", "grossghoul", "Zombie", "Horde", None, 2, None])
    book.save(path)
    return path


def _rewrite(source: Path, target: Path, parts: dict[str, bytes | None]) -> Path:
    """``source`` with some parts replaced (None: left out)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            if item.filename not in parts:
                new.writestr(item, old.read(item.filename))
        for name, data in parts.items():
            if data is not None:
                new.writestr(name, data)
    return target


def _inline_cell(text: str, doctype: str = "") -> bytes:
    return (
        f'<?xml version="1.0"?>{doctype}<worksheet xmlns="http://schemas.openxmlformats.org/'
        'spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>'
        f"{text}</t></is></c></row></sheetData></worksheet>"
    ).encode()


def _hostile(kind: str, good: Path, target: Path) -> Path:
    with zipfile.ZipFile(good) as archive:
        sheet = archive.read(SHEET)
        workbook = archive.read("xl/workbook.xml")
    secret = target.parent / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    laughs = '<!DOCTYPE w [<!ENTITY a "lol">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)
    )
    variants: dict[str, dict[str, bytes | None]] = {
        "no-part": {SHEET: None},
        "no-sheet": {"xl/workbook.xml": workbook.split(b"<sheets>")[0] + b"<sheets/></workbook>"},
        "cut-xml": {SHEET: sheet[: len(sheet) // 2]},
        "xxe": {SHEET: _inline_cell("&x;", f'<!DOCTYPE w [<!ENTITY x SYSTEM "file://{secret}">]>')},
        "laughs": {SHEET: _inline_cell("&j;", laughs + "]>")},
        "bomb": {"xl/sharedStrings.xml": b"<sst>" + b"<si><t>x</t></si>" * (5 << 20) + b"</sst>"},
    }
    return _rewrite(good, target, variants[kind])


KINDS = ["no-part", "no-sheet", "cut-xml", "xxe", "laughs", "bomb"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_or_hostile_xlsx_is_a_clear_error(kind: str, tmp_path: Path) -> None:
    good = _good_xlsx(tmp_path / "good.xlsx")
    bad = _hostile(kind, good, tmp_path / "cards.xlsx")
    db = tmp_path / "cards.db"
    result = run(zcards_argv("import", bad, "--db", db), tmp_path, timeout=120)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and str(bad) in result.stderr
    assert not db.exists() or SECRET not in str(
        sqlite3.connect(db).execute("select * from cards").fetchall()
    )
    assert SECRET not in result.stdout + result.stderr


def test_a_utf16_csv_says_it_is_utf16(tmp_path: Path) -> None:
    data = "Name,Set,ImageFile\nGross Ghoul,alpha,grossghoul\n".encode("utf-16")
    (tmp_path / "cards.csv").write_bytes(data)
    result = run(zcards_argv("import", tmp_path / "cards.csv", "--db", tmp_path / "c.db"), tmp_path)
    assert result.returncode == 2 and "UTF-16" in result.stderr and "UTF-8" in result.stderr
