"""Print-ready sheets read back from the PDF's own drawing: with --bleed each card's background
runs past its trim, cut marks continue the trim lines of the cards printed, the gutter stays
blank, the back page mirrors the fronts; page and card sizes exact to 0.1 mm."""

from __future__ import annotations

import math
from pathlib import Path

import pypdf
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from support.pdf import page_image

from zcards.cards.model import Card
from zcards.cli import main
from zcards.publish.layout import Grid, Rect, make_grid
from zcards.publish.proxies import write_proxies
from zcards.store.db import iter_cards, open_db

MM = 72 / 25.4  # points per millimetre
EXACT_MM = 0.1


@pytest.fixture(scope="module")
def cards(sample_db_path: Path) -> list[Card]:
    return list(iter_cards(open_db(sample_db_path)))


def _drawn_rects(pdf: Path, page: int) -> list[Rect]:
    """Every filled or stroked path on a page, as a rectangle in millimetres from the top left."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        sheet = document[page]
        height = sheet.get_height()
        rects = []
        for item in sheet.get_objects(max_depth=8):
            if item.type == pdfium_c.FPDF_PAGEOBJ_PATH:
                left, bottom, right, top = item.get_bounds()
                rects.append(
                    Rect(left / MM, (height - top) / MM, (right - left) / MM, (top - bottom) / MM)
                )
        return rects
    finally:
        document.close()


def _same(a: Rect, b: Rect) -> bool:
    return all(
        abs(x - y) <= EXACT_MM
        for x, y in ((a.x, b.x), (a.y, b.y), (a.width, b.width), (a.height, b.height))
    )


def _marks(rects: list[Rect]) -> tuple[list[float], list[float]]:
    """Where the cut marks are: x of the vertical ones, y of the horizontal ones (mm, sorted;
    a mark's white halo and black line count once)."""
    xs = {round(r.x + r.width / 2, 2) for r in rects if r.width < 1 and 3 < r.height < 4}
    ys = {round(r.y + r.height / 2, 2) for r in rects if r.height < 1 and 3 < r.width < 4}
    return sorted(xs), sorted(ys)


def _at(values: set[float]) -> object:
    return pytest.approx(sorted(values), abs=EXACT_MM)


def _pixel(image: Image.Image, x_mm: float, y_mm: float, dpi: int) -> tuple[int, int, int]:
    return image.getpixel((round(x_mm * dpi / 25.4), round(y_mm * dpi / 25.4)))


@pytest.mark.parametrize(("bleed", "gutter"), [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)])
def test_cards_and_their_bleed_are_exact_with_marks_at_the_trim(
    cards: list[Card], tmp_path: Path, bleed: float, gutter: float
) -> None:
    out = tmp_path / "p.pdf"
    chosen = cards[:4]  # a partly filled page
    report = write_proxies(chosen, out, paper="a4", bleed_mm=bleed, gutter_mm=gutter)
    page = pypdf.PdfReader(out).pages[0]
    assert float(page.mediabox.width) / MM == pytest.approx(210, abs=EXACT_MM)
    assert float(page.mediabox.height) / MM == pytest.approx(297, abs=EXACT_MM)
    grid: Grid = make_grid("a4", "poker", bleed, gutter)
    assert report.per_page == grid.per_page
    rects = _drawn_rects(out, 0)
    used = [grid.slot(i) for i in range(len(chosen))]
    for slot in used:
        printed = grid.bleed_rect(slot)
        assert printed.width == pytest.approx(63 + 2 * bleed)
        assert any(_same(rect, printed) for rect in rects), (slot, bleed)
    xs, ys = _marks(rects)
    assert xs == _at({x for slot in used for x in (slot.x, slot.right)})
    assert ys == _at({y for slot in used for y in (slot.y, slot.bottom)})


def test_a_miss_cut_shows_the_cards_own_colour_and_the_gutter_stays_blank(
    cards: list[Card], tmp_path: Path
) -> None:
    out = tmp_path / "p.pdf"
    write_proxies(cards[:2], out, paper="a4", bleed_mm=3, gutter_mm=2)
    grid = make_grid("a4", "poker", 3, 2)
    dpi = 200
    image = page_image(out, 0, dpi)
    for index in range(2):
        slot = grid.slot(index)
        middle_y = slot.y + slot.height / 2
        frame = _pixel(image, slot.x + 0.6, middle_y, dpi)  # just inside the trim
        assert sum(frame) < 600, "the frame is coloured"
        for miss in (0.5, 1.5, 2.5):  # cut that far outside the trim, left and right
            assert _pixel(image, slot.x - miss, middle_y, dpi) == pytest.approx(frame, abs=12)
            assert _pixel(image, slot.right + miss, middle_y, dpi) == pytest.approx(frame, abs=12)
    gutter = (grid.bleed_rect(grid.slot(0)).right + grid.bleed_rect(grid.slot(1)).x) / 2
    assert _pixel(image, gutter, grid.slot(0).y + 40, dpi) == (255, 255, 255)


def test_the_back_page_mirrors_the_fronts_bleed_and_marks(
    cards: list[Card], tmp_path: Path
) -> None:
    out = tmp_path / "p.pdf"
    write_proxies(cards[:2], out, paper="letter", bleed_mm=3, backs=True)
    grid = make_grid("letter", "poker", 3)
    rects = _drawn_rects(out, 1)
    for index in range(2):
        back = grid.bleed_rect(grid.back_slot(index))
        assert any(_same(rect, back) for rect in rects)
        mirror = grid.paper.width_mm - grid.bleed_rect(grid.slot(index)).right
        assert back.x == pytest.approx(mirror)
    xs, _ = _marks(rects)
    front_xs, _ = _marks(_drawn_rects(out, 0))
    assert xs == _at({grid.paper.width_mm - x for x in front_xs})


def test_cli_takes_bleed_and_gutter(sample_db_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "rage.pdf"
    main(["proxies", "f:rage", "--db", str(sample_db_path), "--out", str(out), "--bleed", "3",
          "--gutter", "2", "--paper", "a4", "--format", "json"])  # fmt: skip
    grid = make_grid("a4", "poker", 3, 2)
    rage = [card for card in iter_cards(open_db(sample_db_path)) if card.faction == "Rage"]
    assert len(pypdf.PdfReader(out).pages) == math.ceil(len(rage) / grid.per_page)
    printed = grid.bleed_rect(grid.slot(0))
    assert any(_same(rect, printed) for rect in _drawn_rects(out, 0))
