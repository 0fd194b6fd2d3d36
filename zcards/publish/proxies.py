"""Printable proxy sheets (PDF or HTML) from the card-face template.

Geometry comes from :mod:`zcards.publish.layout`; faces from :mod:`zcards.publish.cardface`.
Sheets are laid out up to :data:`MAX_SHEETS_PER_RUN` at a time (one WeasyPrint run shares its
fixed cost, font subsetting, among them and holds only their layout), by several processes for
big jobs, and each run's PDF is appended to the output as it arrives, so memory does not grow
with the number of cards.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2
import sqlite_utils

from lackey_plugin.dek import read_deck
from lackey_plugin.files import atomic_write
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.publish.cardface import (
    FaceView,
    Fit,
    Geometry,
    card_document,
    face_view,
    overflowing,
    render_fitted,
    shrink,
)
from zcards.publish.layout import Grid, Line, Paper, Rect, make_grid
from zcards.publish.raster import cpu_count, map_in_processes
from zcards.publish.rendering import render_document
from zcards.query.decks import resolve_deck
from zcards.query.search import search
from zcards.resources import jinja_env
from zcards.store.db import iter_cards

TITLE = "Zombie CCG proxies"
MARK_LINE_MM = 0.2
MARK_HALO_MM = 0.8
# Sheets per WeasyPrint run: its fixed cost (~0.4 s CPU of font subsetting without
# HarfBuzz-Subset) is shared by all of them, and its memory (~5 MiB of layout per sheet) is
# given back before the next run.
MAX_SHEETS_PER_RUN = 16
# Runs below which one process finishes sooner than worker processes (~1.5 s to start each).
PARALLEL_MIN_RUNS = 4


@dataclass
class ProxyReport:
    """What was written: pages, card faces placed, and cards whose text did not fit."""

    path: Path
    pages: int = 0
    cards: int = 0
    per_page: int = 0
    overflow: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Slot:
    rect: Rect
    face: FaceView | None  # None: a card back


@dataclass(frozen=True)
class Sheet:
    slots: tuple[Slot, ...]
    note: str


@dataclass(frozen=True)
class Marks:
    lines: tuple[Line, ...]
    line_mm: float = MARK_LINE_MM
    halo_mm: float = MARK_HALO_MM


def select_cards(
    db: sqlite_utils.Database,
    query: str | None = None,
    deck_path: str | os.PathLike[str] | None = None,
) -> list[Card]:
    """The cards to print: a deck (each card as often as the deck has it), the cards matching
    ``query``, both (the deck's cards that match), or with neither every card in the database.
    """
    matching = search(db, query) if query else None
    if deck_path is None:
        return matching if matching is not None else list(iter_cards(db))
    deck = resolve_deck(read_deck(Path(deck_path)), db).require_ok()
    keys = None if matching is None else {card.key for card in matching}
    return [
        entry.card
        for entry in deck.entries
        if keys is None or entry.card.key in keys
        for _ in range(entry.count)
    ]


def write_proxies(
    cards: Sequence[Card],
    out_path: str | os.PathLike[str],
    *,
    paper: str = "letter",
    card_size: str = "poker",
    bleed_mm: float = 0,
    copies: int = 1,
    backs: bool = False,
    images_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> ProxyReport:
    """Lay ``copies`` of every card out on sheets and write a PDF (or HTML for ``.html``).

    ``progress`` is called with the number of card faces finished after each run of sheets.
    ``workers``: processes to lay sheets out in (default: one per core for big jobs).
    """
    target = Path(out_path)
    as_html = target.suffix.lower() in (".html", ".htm")
    if not as_html and target.suffix.lower() != ".pdf":
        raise UsageError(f"proxy output must end in .pdf or .html, not {target.name!r}")
    if copies < 1:
        raise UsageError("--copies must be at least 1")
    if not cards:
        raise UsageError("no cards to print")
    grid = make_grid(paper, card_size, bleed_mm)
    layout = _SheetLayout(grid, Path(images_dir) if images_dir is not None else None, backs)
    faces = [index for index in range(len(cards)) for _ in range(copies)]
    pages = [faces[start : start + grid.per_page] for start in range(0, len(faces), grid.per_page)]
    report = ProxyReport(target, len(pages) * (2 if backs else 1), len(faces), grid.per_page)
    count = -(-len(pages) // MAX_SHEETS_PER_RUN)
    if workers is None:
        workers = cpu_count() if count >= PARALLEL_MIN_RUNS else 1
    count += -count % max(1, workers)  # every worker gets as many runs, of about equal size
    size = -(-len(pages) // count)
    runs = [
        _Run(
            layout,
            {index: cards[index] for page in chunk for index in page},
            chunk,
            first,
            len(pages),
            pdf=not as_html,
        )
        for first in range(0, len(pages), size)
        for chunk in [pages[first : first + size]]
    ]
    fits: dict[int, Fit] = {}
    spilled: set[int] = set()
    with contextlib.closing(_JoinedPdf()) as joined:
        for run, result in zip(runs, _render_runs(runs, workers), strict=True):
            fits.update(result.fits)
            spilled |= result.overflow
            if run.pdf:
                joined.append(result.pdf)
            if progress:
                progress(sum(len(page) for page in run.pages))
        target.parent.mkdir(parents=True, exist_ok=True)
        if as_html:
            everything = dict(enumerate(cards))
            html = layout.html(
                everything, pages, fits, first=0, total=len(pages), links_from=target.parent
            )
            atomic_write(target, html.encode("utf-8"))
        else:
            atomic_write(target, joined.to_bytes())
    report.overflow = list(dict.fromkeys(cards[index].name for index in sorted(spilled)))
    return report


class _JoinedPdf:
    """The output PDF, joined from the runs' PDFs as they arrive: a few kilobytes a sheet, where
    the runs' layouts take megabytes (the first run's document keeps its title)."""

    def __init__(self) -> None:
        self.document: pypdfium2.PdfDocument | None = None

    def append(self, pdf: bytes) -> None:
        part = pypdfium2.PdfDocument(pdf)
        if self.document is None:
            self.document = part
            return
        self.document.import_pages(part)
        part.close()

    def to_bytes(self) -> bytes:
        assert self.document is not None, "no sheets were rendered"
        buffer = io.BytesIO()
        self.document.save(buffer)
        return buffer.getvalue()

    def close(self) -> None:
        if self.document is not None:
            self.document.close()


@dataclass(frozen=True)
class _Run:
    """One WeasyPrint run: a few sheets (everything here pickles: it may go to a worker)."""

    layout: _SheetLayout
    cards: dict[int, Card]  # the cards on these sheets, by their index in the whole job
    pages: list[list[int]]
    first: int  # the number of the first sheet, from 0
    total: int
    pdf: bool  # False: only the text fits are wanted (HTML output)


@dataclass(frozen=True)
class _RunResult:
    pdf: bytes
    fits: dict[int, Fit]
    overflow: set[int]


def _render_runs(runs: Sequence[_Run], workers: int) -> Iterator[_RunResult]:
    if workers <= 1 or len(runs) <= 1:
        return map(_render_run, runs)
    return map_in_processes(_render_run, runs, workers)


def _render_run(run: _Run) -> _RunResult:
    """Lay out the run's sheets once; when text spills, fit the spilling faces on their own
    (cheaper than laying out all the sheets again per step) and lay the sheets out again."""
    fits: dict[int, Fit] = {}

    def build(fits: dict[int, Fit]) -> str:
        return run.layout.html(run.cards, run.pages, fits, first=run.first, total=run.total)

    art_dir = run.layout.images_dir
    document = render_document(build(fits), art_dir)
    spilled = overflowing(document)
    if shrink(fits, spilled):
        run.layout.fit_alone(run.cards, set(spilled), fits)
        document, still = render_fitted(build, fits, art_dir)
    else:
        still = set(spilled)
    return _RunResult(document.write_pdf() if run.pdf else b"", fits, still)


class _SheetLayout:
    """Turns pages of card indices into the sheets template's input."""

    def __init__(self, grid: Grid, images_dir: Path | None, backs: bool) -> None:
        self.grid = grid
        self.images_dir = images_dir
        self.backs = backs
        self.geometry = Geometry.for_card(grid.card, grid.bleed_mm)
        self.marks = Marks(grid.cut_marks)

    def fit_alone(self, cards: Mapping[int, Card], faces: set[int], fits: dict[int, Fit]) -> None:
        """Shrink the text of ``faces`` on a document of just those faces until each fits."""
        while faces:
            views = [
                face_view(
                    cards[index], index, fits.get(index, Fit()), self.geometry, self.images_dir
                )
                for index in sorted(faces)
            ]
            document = render_document(card_document(views, self.geometry), self.images_dir)
            faces = shrink(fits, overflowing(document))

    def html(
        self,
        cards: Mapping[int, Card],
        pages: Sequence[Sequence[int]],
        fits: dict[int, Fit],
        *,
        first: int,
        total: int,
        links_from: Path | None = None,
    ) -> str:
        """HTML for ``pages`` (card indices per sheet); ``first`` is the first sheet's number.

        ``links_from``: the HTML is for a browser, saved in this folder: art is linked
        relative to it, and the page gets what a browser needs to print backgrounds
        (WeasyPrint warns on it). Without it the HTML is for the renderer.
        """
        sheets = []
        per_sheet = 2 if self.backs else 1
        for offset, page in enumerate(pages):
            number = (first + offset) * per_sheet + 1
            front = [
                Slot(
                    self._place(self.grid.slot(i)),
                    face_view(
                        cards[card],
                        card,
                        fits.get(card, Fit()),
                        self.geometry,
                        self.images_dir,
                        links_from,
                    ),
                )
                for i, card in enumerate(page)
            ]
            sheets.append(Sheet(tuple(front), self._note(number, total * per_sheet, None)))
            if self.backs:
                # Backs go behind their own fronts: an empty front slot leaves its back empty.
                back = [Slot(self._place(self.grid.back_slot(i)), None) for i in range(len(page))]
                sheets.append(Sheet(tuple(back), self._note(number + 1, total * 2, number)))
        return (
            jinja_env()
            .get_template("proxies.html.j2")
            .render(
                title=TITLE,
                browser=links_from is not None,
                paper=self.grid.paper,
                geometry=self.geometry,
                marks=self.marks,
                note=self.grid.note,
                sheets=sheets,
            )
        )

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
