"""Proxy sheets as HTML, laid out a run of sheets at a time: the sheets template's input, and
one WeasyPrint run with its text fitting and its cache entry.

A run (up to :data:`MAX_SHEETS_PER_RUN` sheets) is one WeasyPrint layout: its fixed cost, font
subsetting, is shared among its sheets, and its memory is given back before the next run. A
run whose HTML (every face's view, its art by content, the page notes) and renderer are
unchanged is read from the cache (:mod:`zcards.publish.facecache`), not laid out again; its
key is made from what the HTML is made from, so finding it writes no HTML.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from zcards.publish.cardart import Assets
from zcards.publish.cardface import (
    PlacedFace,
    card_document,
    lay_out_faces,
    placed,
    render_fitted,
    style_context,
)
from zcards.publish.facecache import Cache, cache_key, publish_code
from zcards.publish.facefit import Fit, overflowing, shrink
from zcards.publish.facelayout import FaceLayout
from zcards.publish.faceview import FaceView
from zcards.publish.layout import Grid, Line, Paper, Rect
from zcards.resources import jinja_env

TITLE = "Zombie CCG proxies"
MARK_LINE_MM = 0.2
MARK_HALO_MM = 0.8
# Sheets per WeasyPrint run: its fixed cost (~0.4 s CPU of font subsetting without
# HarfBuzz-Subset) is shared by all of them, and its memory (~5 MiB of layout per sheet) is
# given back before the next run.
MAX_SHEETS_PER_RUN = 16


@dataclass(frozen=True)
class Slot:
    rect: Rect
    face: PlacedFace | None  # None: a card back


@dataclass(frozen=True)
class Sheet:
    slots: tuple[Slot, ...]
    marks: tuple[Line, ...]  # cut marks for the slots used
    note: str


@dataclass(frozen=True)
class SheetLayout:
    """Turns pages of card indices into the sheets template's input (everything here pickles:
    runs go to worker processes)."""

    grid: Grid
    backs: bool
    assets: Assets

    @property
    def face_layout(self) -> FaceLayout:
        return FaceLayout.for_card(self.grid.card, self.grid.bleed_mm)

    def fit_alone(
        self, views: Mapping[int, FaceView], faces: set[int], fits: dict[int, Fit]
    ) -> None:
        """Shrink the text of ``faces`` on a document of just those faces until each fits."""
        layout = self.face_layout
        while faces:
            pages = [
                placed(views[i], i, fits.get(i, Fit()), layout, self.assets) for i in sorted(faces)
            ]
            document = lay_out_faces(card_document(pages, layout), layout, self.assets.readable)
            faces = shrink(fits, overflowing(document))

    def html(
        self,
        views: Mapping[int, FaceView],
        pages: Sequence[Sequence[int]],
        fits: dict[int, Fit],
        *,
        first: int,
        total: int,
        browser: bool = False,
        assets: Assets | None = None,
    ) -> str:
        """HTML for ``pages`` (card indices per sheet); ``first`` is the first sheet's number.

        ``browser`` adds what a browser needs to print backgrounds (WeasyPrint warns on it);
        ``assets`` replaces the layout's own (a standalone HTML file takes its art inline).
        """
        layout, pictures = self.face_layout, assets or self.assets
        sheets = []
        per_sheet = 2 if self.backs else 1
        for offset, page in enumerate(pages):
            number = (first + offset) * per_sheet + 1
            fronts = [self.grid.slot(i) for i in range(len(page))]
            faces = [placed(views[c], c, fits.get(c, Fit()), layout, pictures) for c in page]
            sheets.append(self._sheet(fronts, faces, self._note(number, total * per_sheet, None)))
            if self.backs:
                # Backs go behind their own fronts: an empty front slot leaves its back empty.
                behind = [self.grid.back_slot(i) for i in range(len(page))]
                note = self._note(number + 1, total * 2, number)
                sheets.append(self._sheet(behind, [None] * len(page), note))
        return (
            jinja_env()
            .get_template("proxies.html.j2")
            .render(
                title=TITLE,
                browser=browser,
                paper=self.grid.paper,
                **style_context(layout),
                marks={"line_mm": MARK_LINE_MM, "halo_mm": MARK_HALO_MM},
                note=self.grid.note,
                sheets=sheets,
            )
        )

    def _sheet(self, cuts: Sequence[Rect], faces: Sequence[PlacedFace | None], note: str) -> Sheet:
        slots = tuple(Slot(self._place(cut), face) for cut, face in zip(cuts, faces, strict=True))
        return Sheet(slots, self.grid.cut_marks(cuts), note)

    def _place(self, slot: Rect) -> Rect:
        printed = self.grid.bleed_rect(slot)
        return Rect(round(printed.x, 4), round(printed.y, 4), printed.width, printed.height)

    def _note(self, number: int, total: int, back_of: int | None) -> str:
        paper: Paper = self.grid.paper
        side = (
            f"backs of page {back_of}: print double-sided, flip on long edge"
            if back_of is not None
            else "fronts"
        )
        return (
            f"{TITLE} \u00b7 page {number} of {total} ({side}) \u00b7 {paper.label} \u00b7 "
            "print at 100% / actual size, no \u201cfit to page\u201d"
        )


@dataclass(frozen=True)
class Run:
    """One WeasyPrint run: a few sheets (everything here pickles: it may go to a worker)."""

    layout: SheetLayout
    views: dict[int, FaceView]  # the faces on these sheets, by their card's index in the job
    pages: list[list[int]]
    first: int  # the number of the first sheet, from 0
    total: int
    pdf: bool  # False: only the text fits are wanted (HTML output)
    store: Cache | None

    @property
    def faces(self) -> int:
        return sum(len(page) for page in self.pages)

    def html(self, fits: dict[int, Fit]) -> str:
        if not fits:
            return self.first_html
        return self.layout.html(self.views, self.pages, fits, first=self.first, total=self.total)

    @cached_property
    def first_html(self) -> str:
        """The sheets before any text shrinks (made once: the cache key and the first layout
        both need it; a worker gets it with the run)."""
        return self.layout.html(self.views, self.pages, {}, first=self.first, total=self.total)

    @cached_property
    def key(self) -> str:
        """What the run's output depends on: each face's view (art by its bytes) and place,
        the sheets' geometry and page numbers, the code and templates that write their HTML,
        and the PDF; not the HTML itself, so a run found in the cache costs no layout."""
        layout = self.layout
        return cache_key(
            "sheets",
            publish_code(),
            layout.grid,
            layout.backs,
            layout.assets.dpi,
            layout.face_layout,
            layout.face_layout.boxes,
            [[index, self.views[index].cache_data()] for index in sorted(self.views)],
            self.pages,
            self.first,
            self.total,
            self.pdf,
        )


@dataclass(frozen=True)
class RunResult:
    pdf: bytes
    fits: dict[int, Fit]
    overflow: set[int]
    rendered: bool  # False: read from the cache


def cached_run(run: Run) -> RunResult | None:
    """The run's result from the cache, if it is there."""
    if run.store is None:
        return None
    found = run.store.read("runs", run.key, ".json")
    pdf = run.store.read("runs", run.key, ".pdf") if run.pdf else b""
    if found is None or pdf is None:
        return None
    data = json.loads(found)
    fits = {int(index): fit for index, fit in data["fits"].items()}
    return RunResult(pdf, fits, set(data["overflow"]), rendered=False)


def render_run(run: Run) -> RunResult:
    """Lay out the run's sheets once; when text spills, fit the spilling faces on their own
    (cheaper than laying out all the sheets again per step) and lay the sheets out again.
    The result goes into the cache."""
    fits: dict[int, Fit] = {}
    layout, readable = run.layout.face_layout, run.layout.assets.readable
    document = lay_out_faces(run.first_html, layout, readable)
    spilled = overflowing(document)
    if shrink(fits, spilled):
        run.layout.fit_alone(run.views, set(spilled), fits)
        document, still = render_fitted(run.html, fits, layout, readable)
    else:
        still = set(spilled)
    result = RunResult(document.write_pdf() if run.pdf else b"", fits, still, rendered=True)
    if run.store is not None:
        if run.pdf:
            run.store.write("runs", run.key, ".pdf", result.pdf)
        data = {"fits": result.fits, "overflow": sorted(result.overflow)}
        run.store.write("runs", run.key, ".json", json.dumps(data, sort_keys=True).encode("utf-8"))
    return result
