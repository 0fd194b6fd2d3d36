"""Sheet geometry from layout data: grids, mirrored backs, cut marks and the note (no rendering)."""

from __future__ import annotations

import itertools

import pytest

from zcards.errors import UsageError
from zcards.publish.layout import CARD_SIZES, MIN_MARGIN_MM, PAPERS, Grid, Rect, make_grid

COMBINATIONS = list(itertools.product(PAPERS, CARD_SIZES, (0.0, 3.0)))


def _overlaps(a: Rect, b: Rect, tolerance: float = 1e-6) -> bool:
    return (
        a.x < b.right - tolerance
        and b.x < a.right - tolerance
        and a.y < b.bottom - tolerance
        and b.y < a.bottom - tolerance
    )


def _line_rect(line, width: float = 0.0) -> Rect:
    half = width / 2
    x, y = min(line.x1, line.x2) - half, min(line.y1, line.y2) - half
    return Rect(x, y, abs(line.x2 - line.x1) + width, abs(line.y2 - line.y1) + width)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_cards_are_nine_per_page_and_centred(paper: str) -> None:
    grid = make_grid(paper, "poker")
    assert (grid.columns, grid.rows, grid.per_page) == (3, 3, 9)
    first, last = grid.slot(0), grid.slot(8)
    assert first.width == 63 and first.height == 88
    assert first.x == pytest.approx(grid.paper.width_mm - last.right)
    assert first.y == pytest.approx(grid.paper.height_mm - last.bottom)


def test_grid_is_derived_from_the_data_not_fixed() -> None:
    assert make_grid("letter", "mini").per_page == 20
    assert make_grid("a4", "mini").per_page == 16
    bled = make_grid("letter", "poker", bleed_mm=3)
    assert bled.gap_mm == 6 and bled.per_page < 9


@pytest.mark.parametrize(("paper", "card", "bleed"), COMBINATIONS)
def test_cards_stay_inside_the_printable_margin(paper: str, card: str, bleed: float) -> None:
    grid = make_grid(paper, card, bleed)
    page = grid.paper
    printed = [grid.bleed_rect(grid.slot(i)) for i in range(grid.per_page)]
    for rect in printed:
        assert rect.x >= MIN_MARGIN_MM - 1e-6 and rect.y >= MIN_MARGIN_MM - 1e-6
        assert rect.right <= page.width_mm - MIN_MARGIN_MM + 1e-6
        assert rect.bottom <= page.height_mm - MIN_MARGIN_MM + 1e-6
    for a, b in itertools.combinations(printed, 2):
        assert not _overlaps(a, b), "bleeds of neighbouring cards must not overlap"


@pytest.mark.parametrize(("paper", "card", "bleed"), COMBINATIONS)
def test_backs_mirror_fronts_left_right(paper: str, card: str, bleed: float) -> None:
    grid = make_grid(paper, card, bleed)
    for index in range(grid.per_page):
        front, back = grid.slot(index), grid.back_slot(index)
        assert back.y == front.y
        assert back.x == pytest.approx(grid.paper.width_mm - front.right)
        # The mirror of a slot is another slot of the same grid: backs never leave the grid.
        row, column = divmod(index, grid.columns)
        mirror = grid.slot(row * grid.columns + grid.columns - 1 - column)
        assert back.x == pytest.approx(mirror.x)


@pytest.mark.parametrize(("paper", "card", "bleed"), COMBINATIONS)
def test_cut_marks_and_note_stay_off_every_card(paper: str, card: str, bleed: float) -> None:
    grid = make_grid(paper, card, bleed)
    page = Rect(0, 0, grid.paper.width_mm, grid.paper.height_mm)
    every = [grid.slot(i) for i in range(grid.per_page)]
    all_marks = []
    # A full page, and a page with a full first row and one card below (backs: mirrored).
    for used in (every, every[: grid.columns + 1], [grid.back_slot(i) for i in range(2)]):
        printed = [grid.bleed_rect(slot) for slot in used]
        marks = grid.cut_marks(used)
        assert marks
        for line in marks:
            drawn = _line_rect(line, width=0.8)  # with its white halo
            assert not any(_overlaps(drawn, rect) for rect in printed)
            assert drawn.x >= 0 and drawn.right <= page.right and drawn.bottom <= page.bottom
        all_marks += marks
    note = grid.note.rect
    assert not any(_overlaps(note, grid.bleed_rect(slot)) for slot in every)
    assert not any(_overlaps(note, _line_rect(line, 0.8)) for line in all_marks)
    assert grid.edge_distance(note) >= MIN_MARGIN_MM


def test_every_cut_line_has_a_mark_at_both_ends() -> None:
    grid: Grid = make_grid("letter", "poker")
    marks = grid.cut_marks([grid.slot(i) for i in range(grid.per_page)])
    xs = {round(x, 6) for line in marks if line.x1 == line.x2 for x in (line.x1,)}
    expected = {round(grid.slot(c).x, 6) for c in range(3)} | {round(grid.slot(2).right, 6)}
    assert xs == expected
    assert len(marks) == 2 * 4 + 2 * 4


def test_a_partly_filled_page_marks_only_the_cut_lines_of_its_cards() -> None:
    grid: Grid = make_grid("letter", "poker", bleed_mm=3, gutter_mm=2)
    used = [grid.slot(i) for i in range(4)]  # a full first row and one card below
    marks = grid.cut_marks(used)
    xs = {line.x1 for line in marks if line.x1 == line.x2}
    ys = {line.y1 for line in marks if line.y1 == line.y2}
    assert xs == {round(x, 4) for slot in used[:3] for x in (slot.x, slot.right)}
    assert ys == {round(y, 4) for slot in used for y in (slot.y, slot.bottom)}
    assert len(ys) == 4 and len(marks) == 2 * len(xs) + 2 * len(ys)
    # The back page's marks are the front's, mirrored with the cards.
    backs = grid.cut_marks([grid.back_slot(i) for i in range(4)])
    width = grid.paper.width_mm
    assert sorted(round(width - line.x1, 4) for line in marks if line.x1 == line.x2) == sorted(
        round(line.x1, 4) for line in backs if line.x1 == line.x2
    )


def test_the_gutter_is_blank_paper_between_neighbours_bleeds() -> None:
    grid = make_grid("a4", "mini", bleed_mm=3, gutter_mm=4)
    first, second = grid.bleed_rect(grid.slot(0)), grid.bleed_rect(grid.slot(1))
    assert second.x - first.right == pytest.approx(4)
    assert grid.slot(1).x - grid.slot(0).right == pytest.approx(2 * 3 + 4)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"paper": "legal"}, "unknown paper"),
        ({"card_size": "tarot"}, "unknown card size"),
        ({"bleed_mm": -1}, "bleed"),
        ({"gutter_mm": 25}, "gutter"),
    ],
)
def test_bad_layout_options_are_usage_errors(options: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make_grid(**options)
