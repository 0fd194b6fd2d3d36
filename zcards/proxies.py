"""Printable proxy sheets (PDF or HTML) from the card-face template.

Geometry comes from :mod:`zcards.layout`; faces from :mod:`zcards.cardface`. Each sheet is
one WeasyPrint call (with its back page when asked), so progress is per sheet and memory
stays flat; the pages are joined into one PDF at the end.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from zcards.cardface import FaceView, Fit, Geometry, face_view, render_fitted
from zcards.db import iter_cards
from zcards.decks import read_deck, resolve_deck
from zcards.errors import UsageError
from zcards.files import atomic_write
from zcards.layout import Grid, Line, Paper, Rect, make_grid
from zcards.model import Card
from zcards.query import search
from zcards.resources import jinja_env

TITLE = "Zombie CCG proxies"
MARK_LINE_MM = 0.2
MARK_HALO_MM = 0.8


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
    deck = resolve_deck(read_deck(deck_path), db).require_ok()
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
) -> ProxyReport:
    """Lay ``copies`` of every card out on sheets and write a PDF (or HTML for ``.html``).

    ``progress`` is called with the number of card faces finished after each sheet.
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

    fits: dict[int, Fit] = {}
    documents = []
    spilled: set[int] = set()
    for number, page in enumerate(pages):
        document, still = render_fitted(
            lambda fits, page=page, number=number: layout.html(
                cards, [page], fits, first=number, total=len(pages)
            ),
            fits,
        )
        spilled |= still
        documents.append(document)
        if progress:
            progress(len(page))
    report.overflow = list(dict.fromkeys(cards[index].name for index in sorted(spilled)))

    target.parent.mkdir(parents=True, exist_ok=True)
    if as_html:
        html = layout.html(cards, pages, fits, first=0, total=len(pages), browser=True)
        atomic_write(target, html.encode("utf-8"))
    else:
        all_pages = [page for document in documents for page in document.pages]
        atomic_write(target, documents[0].copy(all_pages).write_pdf())
    return report


class _SheetLayout:
    """Turns pages of card indices into the sheets template's input."""

    def __init__(self, grid: Grid, images_dir: Path | None, backs: bool) -> None:
        self.grid = grid
        self.images_dir = images_dir
        self.backs = backs
        self.geometry = Geometry.for_card(grid.card, grid.bleed_mm)
        self.marks = Marks(grid.cut_marks)

    def html(
        self,
        cards: Sequence[Card],
        pages: Sequence[Sequence[int]],
        fits: dict[int, Fit],
        *,
        first: int,
        total: int,
        browser: bool = False,
    ) -> str:
        """HTML for ``pages`` (card indices per sheet); ``first`` is the first sheet's number.

        ``browser`` adds what a browser needs to print backgrounds (WeasyPrint warns on it).
        """
        sheets = []
        per_sheet = 2 if self.backs else 1
        for offset, page in enumerate(pages):
            number = (first + offset) * per_sheet + 1
            front = [
                Slot(
                    self._place(self.grid.slot(i)),
                    face_view(
                        cards[card], card, fits.get(card, Fit()), self.geometry, self.images_dir
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
                browser=browser,
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
