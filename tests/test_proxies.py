"""Proxy sheets read back from the real PDF: page size, page count, names, geometry, marks."""

from __future__ import annotations

import dataclasses
import io
import json
import math
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest
import weasyprint
from lxml import html as lxml_html
from PIL import Image, ImageDraw
from support.pdf import page_image

from zcards.cards.model import Card
from zcards.cli import main
from zcards.errors import UsageError
from zcards.publish.build import BuildContext, proxies_step
from zcards.publish.layout import Rect, make_grid
from zcards.publish.proxies import ProxyReport, select_cards, write_proxies
from zcards.store.db import iter_cards, open_db

MM = 72 / 25.4  # points per millimetre


def _raster(pdf: Path, page: int, dpi: int) -> Image.Image:
    return page_image(pdf, page, dpi).convert("L")


def _box(rect: Rect, dpi: int, inset_mm: float = 0.0) -> tuple[int, int, int, int]:
    px = dpi / 25.4
    return (
        math.ceil((rect.x + inset_mm) * px),
        math.ceil((rect.y + inset_mm) * px),
        math.floor((rect.right - inset_mm) * px),
        math.floor((rect.bottom - inset_mm) * px),
    )


def _ink(image: Image.Image, threshold: int = 200) -> Image.Image:
    """A mask: 255 where the page is visibly not white."""
    return image.point(lambda value: 255 if value < threshold else 0)


@pytest.fixture(scope="module")
def eleven_cards(
    sample_cards: list[Card], tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], tuple[Path, ProxyReport]]:
    """Eleven cards (a full page, then two) on a paper, written once per paper and only read."""
    written: dict[str, tuple[Path, ProxyReport]] = {}

    def sheets(paper: str) -> tuple[Path, ProxyReport]:
        if paper not in written:
            out = tmp_path_factory.mktemp(paper) / "p.pdf"
            written[paper] = (out, write_proxies(sample_cards[:11], out, paper=paper))
        return written[paper]

    return sheets


@pytest.fixture(scope="module")
def one_card(sample_cards: list[Card], tmp_path_factory) -> Path:
    """One card on a Letter page, written once: the other eight slots must stay blank."""
    out = tmp_path_factory.mktemp("one") / "p.pdf"
    write_proxies(sample_cards[:1], out)
    return out


@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("a4", (595.28, 841.89))])
def test_page_size_and_count(eleven_cards, paper, size) -> None:
    out, report = eleven_cards(paper)
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == report.pages == math.ceil(11 / 9)
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.01)


def test_each_card_name_is_text_on_its_own_page(sample_cards: list[Card], eleven_cards) -> None:
    cards = sample_cards[:11]
    pages = [page.extract_text() for page in pypdf.PdfReader(eleven_cards("letter")[0]).pages]
    assert len(pages) == 2
    for index, card in enumerate(cards):
        assert card.name in pages[index // 9]
        assert card.name not in pages[1 - index // 9]
    assert "print at 100% / actual size" in pages[0] and "page 2 of 2" in pages[1]


def test_card_rectangles_are_exact_and_where_the_layout_says(one_card: Path) -> None:
    out = one_card
    dpi = 254  # 10 pixels per millimetre
    grid = make_grid("letter", "poker")
    slot = grid.slot(0)
    search = Rect(slot.x - 0.5, slot.y - 0.5, slot.width + 1, slot.height + 1)
    area = _box(search, dpi)
    found = _ink(_raster(out, 0, dpi).crop(area), threshold=235).getbbox()
    assert found is not None
    left, top, right, bottom = (value / 10 for value in found)
    assert right - left == pytest.approx(63, abs=0.2)
    assert bottom - top == pytest.approx(88, abs=0.2)
    assert search.x + left == pytest.approx(slot.x, abs=0.2)
    assert search.y + top == pytest.approx(slot.y, abs=0.2)


def test_cut_marks_only_for_the_slots_used_and_never_on_a_card(one_card: Path) -> None:
    out = one_card  # one card: the other eight slots must stay blank
    dpi = 150
    grid = make_grid("letter", "poker")
    page = _ink(_raster(out, 0, dpi))
    for index in range(1, 9):
        assert page.crop(_box(grid.slot(index), dpi)).getbbox() is None
    # The used slot's marks are there, and nothing outside the cards is ink but them and the
    # note: no marks for the eight empty slots' cut lines.
    marks = grid.cut_marks([grid.slot(0)])
    assert len(marks) == 8 < len(grid.cut_marks([grid.slot(i) for i in range(9)]))
    allowed = Image.new("L", page.size, 0)
    draw = ImageDraw.Draw(allowed)
    px = dpi / 25.4
    for line in marks:
        x = (line.x1 + line.x2) / 2 * px
        y = (line.y1 + line.y2) / 2 * px
        assert page.crop((int(x) - 2, int(y) - 2, int(x) + 3, int(y) + 3)).getextrema()[1] == 255
        draw.line([(line.x1 * px, line.y1 * px), (line.x2 * px, line.y2 * px)], 255, width=5)
    for rect in [grid.note.rect, *(grid.slot(i) for i in range(grid.per_page))]:
        draw.rectangle(_box(rect, dpi, inset_mm=-0.5), fill=255)
    stray = Image.composite(page, Image.new("L", page.size, 0), allowed.point(lambda v: 255 - v))
    assert stray.getbbox() is None


def test_backs_follow_each_front_page_mirrored(sample_cards: list[Card], tmp_path: Path) -> None:
    out = tmp_path / "p.pdf"
    report = write_proxies(sample_cards[:13], out, backs=True)
    assert report.pages == len(pypdf.PdfReader(out).pages) == 2 * math.ceil(13 / 9)
    dpi = 50
    grid = make_grid("letter", "poker")
    back = _raster(out, 3, dpi)  # the backs of page 3 (4 cards)
    inked = set()
    for index in range(grid.per_page):
        cell = back.crop(_box(grid.slot(index), dpi, inset_mm=1))
        mean = sum(cell.histogram()[i] * i for i in range(256)) / (cell.width * cell.height)
        if mean < 128:  # a dark card back
            inked.add(index)
    mirrored = {r * 3 + (2 - c) for r, c in (divmod(i, 3) for i in range(4))}
    assert inked == mirrored == {0, 1, 2, 5}


def test_a_long_text_card_is_reported(sample_cards: list[Card], tmp_path: Path) -> None:
    text = " ".join(f"Clause {i}: this card says far too much." for i in range(70))
    long = dataclasses.replace(sample_cards[0], name="Rambling Corpse", image_file="r", text=text)
    report = write_proxies([sample_cards[1], long], tmp_path / "p.pdf")
    assert report.overflow == ["Rambling Corpse"]
    assert "Rambling Corpse" in pypdf.PdfReader(tmp_path / "p.pdf").pages[0].extract_text()


def test_html_output_has_the_same_geometry(sample_cards: list[Card], tmp_path: Path) -> None:
    hostile = dataclasses.replace(sample_cards[0], name="<script>alert(1)</script> & Co")
    out = tmp_path / "sheets.html"
    report = write_proxies([hostile, *sample_cards[1:3]], out, paper="a4", backs=True)
    assert report.pages == 2
    source = out.read_text(encoding="utf-8")
    assert "@page { size: 210.0mm 297.0mm; margin: 0; }" in source
    assert "<script>" not in source and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in source
    tree = lxml_html.fromstring(source)
    grid = make_grid("a4", "poker")
    sheets = tree.find_class("sheet")
    assert len(sheets) == 2
    fronts = [slot.get("style") for slot in sheets[0].find_class("slot")]
    backs = [slot.get("style") for slot in sheets[1].find_class("slot")]
    for index in range(3):
        front, back = grid.slot(index), grid.back_slot(index)
        assert fronts[index] == f"left: {round(front.x, 4)}mm; top: {round(front.y, 4)}mm"
        assert backs[index] == f"left: {round(back.x, 4)}mm; top: {round(back.y, 4)}mm"
    # Printed from the HTML (WeasyPrint standing in for a browser): the same pages.
    printed = pypdf.PdfReader(io.BytesIO(weasyprint.HTML(filename=out).write_pdf()))
    assert len(printed.pages) == 2
    assert float(printed.pages[0].mediabox.width) == pytest.approx(595.28, abs=0.01)
    assert "Co" in printed.pages[0].extract_text()


def test_select_cards_by_query_deck_or_both(sample_db_path: Path, tmp_path: Path) -> None:
    db = open_db(sample_db_path)
    assert len(select_cards(db)) == len(list(iter_cards(db)))
    rage = select_cards(db, "f:rage")
    assert rage and {card.faction for card in rage} == {"Rage"}
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Sprinter\n2 Old Pete\n", encoding="utf-8")
    assert [c.name for c in select_cards(db, deck_path=deck)] == ["Sprinter"] * 3 + ["Old Pete"] * 2
    assert [c.name for c in select_cards(db, "t:survivor", deck)] == ["Old Pete"] * 2


def test_cli_writes_sheets_for_a_query(sample_db_path: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "rage.pdf"
    main(["proxies", "f:rage", "--db", str(sample_db_path), "--out", str(out), "--paper", "a4",
          "--format", "json"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    rage = select_cards(open_db(sample_db_path), "f:rage")
    assert report["pages"] == len(pypdf.PdfReader(out).pages) == math.ceil(len(rage) / 9)
    assert report["overflow"] == []


def test_cli_rejects_an_unknown_output_type(sample_db_path: Path, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["proxies", "--db", str(sample_db_path), "--out", str(tmp_path / "x.png")])
    assert exit_info.value.code == UsageError.exit_code
    assert "must end in .pdf or .html" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_build_step_writes_proxies_for_the_built_database(
    mini_db_copy: Path, tmp_path: Path
) -> None:
    context = BuildContext(tmp_path / "build")
    context.out_dir.mkdir()
    mini_db_copy.replace(context.db_path)
    result = proxies_step(context)
    count = len(list(iter_cards(open_db(context.db_path))))
    assert result.outputs == (context.out_dir / "proxies.pdf",)
    assert len(pypdf.PdfReader(result.outputs[0]).pages) == math.ceil(count / 9)
