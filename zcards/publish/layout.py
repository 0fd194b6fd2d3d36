"""Sheet geometry as data: paper sizes, card sizes, margins and gaps; the grid is derived.

Everything is in millimetres. Printers punish sloppy geometry, so the sheet writer and the
tests read the same numbers from here: card rectangles, their mirrored positions for the
back page, the cut marks of the slots a page uses, and where the "print at 100%" note goes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from zcards.errors import UsageError

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH

# A margin most printers can reach; nothing but cut marks is placed closer to the paper edge.
MIN_MARGIN_MM = 5.0
# Cards touch by default: one cut between neighbours. The gutter is blank paper between
# neighbours' bleeds, so cards sit 2 x bleed + gutter apart.
GUTTER_MM = 0.0
MAX_GUTTER_MM = 20.0
# Cut marks start this far outside the card (and its bleed) and run this long, into the margin.
MARK_OFFSET_MM = 1.0
MARK_LENGTH_MM = 3.5
# The note sits just beyond the marks, in the widest margin.
NOTE_GAP_MM = 1.0
NOTE_HEIGHT_MM = 2.6


@dataclass(frozen=True)
class Paper:
    key: str
    label: str
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class CardSize:
    key: str
    label: str
    width_mm: float
    height_mm: float


PAPERS: dict[str, Paper] = {
    "letter": Paper("letter", "US Letter (8.5 x 11 in)", 215.9, 279.4),
    "a4": Paper("a4", "A4 (210 x 297 mm)", 210.0, 297.0),
}

CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", "poker 63 x 88 mm", 63.0, 88.0),
    "bridge": CardSize("bridge", "bridge 57 x 89 mm", 57.15, 88.9),
    "mini": CardSize("mini", "mini 41 x 63 mm", 41.0, 63.0),
}


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Note:
    """Where the one-line note goes; ``rotated`` means it runs up the left margin."""

    rect: Rect
    rotated: bool


@dataclass(frozen=True)
class Grid:
    """A centred grid of equal card slots on one paper size."""

    paper: Paper
    card: CardSize
    bleed_mm: float
    gap_mm: float
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def pitch_x(self) -> float:
        return self.card.width_mm + self.gap_mm

    @property
    def pitch_y(self) -> float:
        return self.card.height_mm + self.gap_mm

    @property
    def origin_x(self) -> float:
        used = self.columns * self.card.width_mm + (self.columns - 1) * self.gap_mm
        return (self.paper.width_mm - used) / 2

    @property
    def origin_y(self) -> float:
        used = self.rows * self.card.height_mm + (self.rows - 1) * self.gap_mm
        return (self.paper.height_mm - used) / 2

    def slot(self, index: int) -> Rect:
        """The cut rectangle of slot ``index`` (row-major, from the top left) on a front page."""
        row, column = divmod(index, self.columns)
        return Rect(
            self.origin_x + column * self.pitch_x,
            self.origin_y + row * self.pitch_y,
            self.card.width_mm,
            self.card.height_mm,
        )

    def back_slot(self, index: int) -> Rect:
        """Where the back of slot ``index`` goes: mirrored left-right for long-edge duplex."""
        front = self.slot(index)
        return Rect(self.paper.width_mm - front.right, front.y, front.width, front.height)

    def bleed_rect(self, rect: Rect) -> Rect:
        """The printed area of a card: its cut rectangle grown by the bleed."""
        b = self.bleed_mm
        return Rect(rect.x - b, rect.y - b, rect.width + 2 * b, rect.height + 2 * b)

    def cut_marks(self, slots: Sequence[Rect]) -> tuple[Line, ...]:
        """Short lines continuing the cut lines of the cards in ``slots`` (the slots a page
        uses) into the paper around them, clear of every card and its bleed."""
        if not slots:
            return ()
        b = self.bleed_mm
        left, top = min(r.x for r in slots) - b, min(r.y for r in slots) - b
        right, bottom = max(r.right for r in slots) + b, max(r.bottom for r in slots) + b
        near, far = MARK_OFFSET_MM, MARK_OFFSET_MM + MARK_LENGTH_MM
        marks = []
        for x in sorted({round(x, 4) for r in slots for x in (r.x, r.right)}):
            marks.append(Line(x, top - far, x, top - near))
            marks.append(Line(x, bottom + near, x, bottom + far))
        for y in sorted({round(y, 4) for r in slots for y in (r.y, r.bottom)}):
            marks.append(Line(left - far, y, left - near, y))
            marks.append(Line(right + near, y, right + far, y))
        return tuple(marks)

    @property
    def note(self) -> Note:
        """The note goes beyond the marks, up the left margin or along the bottom one,
        whichever keeps it further from the paper edge."""
        reach = self.bleed_mm + MARK_OFFSET_MM + MARK_LENGTH_MM + NOTE_GAP_MM
        left = Note(
            Rect(
                self.origin_x - reach - NOTE_HEIGHT_MM,
                self.origin_y,
                NOTE_HEIGHT_MM,
                self.paper.height_mm - 2 * self.origin_y,
            ),
            rotated=True,
        )
        bottom = Note(
            Rect(
                self.origin_x,
                self.paper.height_mm - self.origin_y + reach,
                self.paper.width_mm - 2 * self.origin_x,
                NOTE_HEIGHT_MM,
            ),
            rotated=False,
        )
        return max((left, bottom), key=lambda note: self.edge_distance(note.rect))

    def edge_distance(self, rect: Rect) -> float:
        """How far ``rect`` stays from the nearest paper edge."""
        return min(
            rect.x, rect.y, self.paper.width_mm - rect.right, self.paper.height_mm - rect.bottom
        )


def make_grid(
    paper: str = "letter",
    card_size: str = "poker",
    bleed_mm: float = 0.0,
    gutter_mm: float = GUTTER_MM,
    min_margin_mm: float = MIN_MARGIN_MM,
) -> Grid:
    """As many cards as fit inside the minimum margins, with their bleed and the gutter between
    them."""
    if paper not in PAPERS:
        raise UsageError(f"unknown paper {paper!r} (choose from {', '.join(PAPERS)})")
    if card_size not in CARD_SIZES:
        raise UsageError(f"unknown card size {card_size!r} (choose from {', '.join(CARD_SIZES)})")
    if bleed_mm < 0 or bleed_mm > 10:
        raise UsageError(f"bleed must be between 0 and 10 mm, not {bleed_mm}")
    if gutter_mm < 0 or gutter_mm > MAX_GUTTER_MM:
        raise UsageError(f"gutter must be between 0 and {MAX_GUTTER_MM:g} mm, not {gutter_mm}")
    sheet, card = PAPERS[paper], CARD_SIZES[card_size]
    gap = 2 * bleed_mm + gutter_mm
    # Margins must hold the bleed and the cut marks, never less than the printable minimum.
    margin = max(min_margin_mm, bleed_mm + MARK_OFFSET_MM + MARK_LENGTH_MM)
    columns = _fit(sheet.width_mm - 2 * margin, card.width_mm, gap, 2 * bleed_mm)
    rows = _fit(sheet.height_mm - 2 * margin, card.height_mm, gap, 2 * bleed_mm)
    if columns < 1 or rows < 1:
        raise UsageError(
            f"a {card.label} card with {bleed_mm} mm bleed and {gutter_mm} mm gutter does not "
            f"fit on {sheet.label}"
        )
    grid = Grid(sheet, card, bleed_mm, gap, columns, rows)
    # The note needs printable room too; give up a row (then a column) rather than crowd it.
    while grid.edge_distance(grid.note.rect) < min_margin_mm and grid.per_page > 1:
        if grid.rows > 1:
            grid = dataclasses.replace(grid, rows=grid.rows - 1)
        else:
            grid = dataclasses.replace(grid, columns=grid.columns - 1)
    return grid


def _fit(space: float, size: float, gap: float, bleed_total: float) -> int:
    """How many ``size`` items with ``gap`` between them (plus the outer bleed) fit in ``space``."""
    return int((space - bleed_total + gap + 1e-9) // (size + gap))
