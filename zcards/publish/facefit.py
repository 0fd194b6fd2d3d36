"""Text fitted to its box: which regions of a face shrink, by how much, and how WeasyPrint's own
layout tells that a region's text spills out of its box (no guessing from character counts).

A face's text regions are boxes of its layout; each has a full-size font and shrinks a step at a
time (:data:`FIT_SCALES`) while its text spills. Text that spills even at the smallest step is
reported by the renderers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import weasyprint

# Text scales tried in turn when a name or the rules text overflows its box.
FIT_SCALES: tuple[float, ...] = (1.0, 0.9, 0.8, 0.71, 0.63)
# Text regions (boxes of the face layout) that shrink on their own, with their full-size font
# (em of the card's font).
REGION_EM = {"title": 1.4, "typeline": 0.95, "text": 1.2, "foot": 0.8}
FIT_SIZES = {
    region: tuple(round(base * scale, 3) for scale in FIT_SCALES)
    for region, base in REGION_EM.items()
}
_OVERFLOW_TOLERANCE_PX = 0.5  # WeasyPrint lays out in CSS pixels

# Scale step (index into FIT_SCALES) per text region of one face; a missing region is step 0.
Fit = dict[str, int]


def overflowing(document: weasyprint.Document) -> dict[int, set[str]]:
    """Face index -> text regions (see REGION_EM) whose content spills out of their box."""
    found: dict[int, set[str]] = {}
    for page in document.pages:
        seen: set[int] = set()
        # placeholders=True walks into absolutely positioned boxes (every face box is one).
        for box in page._page_box.descendants(placeholders=True):
            element = getattr(box, "element", None)
            if element is None or id(element) in seen or element.get("data-fit") is None:
                continue
            seen.add(id(element))
            if _spills(box):
                found.setdefault(int(element.get("data-face")), set()).add(element.get("data-fit"))
    return found


def _spills(box) -> bool:
    right = box.content_box_x() + box.width + _OVERFLOW_TOLERANCE_PX
    bottom = box.content_box_y() + box.height + _OVERFLOW_TOLERANCE_PX
    for child in box.descendants(placeholders=True):
        if child is box:
            continue
        if child.position_x + child.margin_width() > right:
            return True
        if child.position_y + child.margin_height() > bottom:
            return True
    return False


def shrink(fits: dict[int, Fit], spilled: dict[int, set[str]]) -> set[int]:
    """Make every spilled text region one step smaller where it still can be; return the faces
    that changed (empty: nothing left to try)."""
    last = len(FIT_SCALES) - 1
    changed: set[int] = set()
    for index, regions in spilled.items():
        fit = fits.setdefault(index, Fit())
        for region in regions:
            if fit.get(region, 0) < last:
                fit[region] = fit.get(region, 0) + 1
                changed.add(index)
    return changed
