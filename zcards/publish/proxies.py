"""Printable proxy sheets (PDF or HTML) from the card-face template.

Geometry comes from :mod:`zcards.publish.layout`; faces from :mod:`zcards.publish.cardface`,
laid out on sheets by :mod:`zcards.publish.sheets`. Sheets are laid out a run at a time, by
several processes for big jobs, runs found in the cache are not laid out again, and each run's
PDF is appended to the output as it arrives, so memory does not grow with the number of cards.
The joined PDF is cached too, keyed on its runs: when every run comes from the cache, so does
the output, and nothing is joined (pdfium is not even loaded).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import sqlite_utils

from lackey_plugin.dek import read_deck
from lackey_plugin.files import atomic_write
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.processes import cpu_count, map_in_processes
from zcards.publish.cardart import ArtFolder, Assets
from zcards.publish.cardface import assets_folder
from zcards.publish.facecache import FROM_ENVIRONMENT, CacheChoice, cache_key, open_cache
from zcards.publish.facefit import Fit
from zcards.publish.faceview import face_view
from zcards.publish.layout import GUTTER_MM, make_grid
from zcards.publish.sheets import (
    MAX_SHEETS_PER_RUN,
    Run,
    RunResult,
    SheetLayout,
    cached_run,
    render_run,
)
from zcards.store.db import iter_cards

if TYPE_CHECKING:  # pdfium joins the sheets only when a run was laid out (see _JoinedPdf)
    import pypdfium2

# Runs below which one process finishes sooner than worker processes (~1.5 s to start each).
PARALLEL_MIN_RUNS = 4


@dataclass
class ProxyReport:
    """What was written: pages, card faces placed, cards whose text did not fit, art that could
    not be used, and how many faces were laid out (``rendered``) or read from the cache."""

    path: Path
    pages: int = 0
    cards: int = 0
    per_page: int = 0
    overflow: list[str] = field(default_factory=list)
    art_problems: list[str] = field(default_factory=list)
    rendered: int = 0
    reused: int = 0


def select_cards(
    db: sqlite_utils.Database,
    query: str | None = None,
    deck_path: str | os.PathLike[str] | None = None,
) -> list[Card]:
    """The cards to print: a deck (each card as often as the deck has it), the cards matching
    ``query``, both (the deck's cards that match), or with neither every card in the database.
    """
    from zcards.query.decks import resolve_deck  # a build prints every card: no query, no deck
    from zcards.query.search import search

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
    gutter_mm: float = GUTTER_MM,
    copies: int = 1,
    backs: bool = False,
    art_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
    cache_dir: CacheChoice = FROM_ENVIRONMENT,
) -> ProxyReport:
    """Lay ``copies`` of every card out on sheets and write a PDF (or HTML for ``.html``).

    ``bleed_mm`` of each card's background is printed past its cut lines, ``gutter_mm`` of
    blank paper separates neighbours' bleeds; cut marks continue the cut lines of the slots a
    page uses. ``art_dir``: the card art (:class:`zcards.publish.cardart.ArtFolder`).
    ``progress`` is called with the number of card faces finished after each run of sheets.
    ``workers``: processes to lay sheets out in (default: one per core for big jobs).
    ``cache_dir``: the render cache (default: from the environment; None: no cache).
    """
    target = Path(out_path)
    as_html = target.suffix.lower() in (".html", ".htm")
    if not as_html and target.suffix.lower() != ".pdf":
        raise UsageError(f"proxy output must end in .pdf or .html, not {target.name!r}")
    if copies < 1:
        raise UsageError("--copies must be at least 1")
    if not cards:
        raise UsageError("no cards to print")
    grid = make_grid(paper, card_size, bleed_mm, gutter_mm)
    art = ArtFolder.open(art_dir) if art_dir is not None else None
    views = [face_view(card, art.find(card) if art else None) for card in cards]
    faces = [index for index in range(len(cards)) for _ in range(copies)]
    pages = [faces[start : start + grid.per_page] for start in range(0, len(faces), grid.per_page)]
    report = ProxyReport(target, len(pages) * (2 if backs else 1), len(faces), grid.per_page)
    report.art_problems = art.problems if art else []
    store = open_cache(cache_dir)
    count = -(-len(pages) // MAX_SHEETS_PER_RUN)
    if workers is None:
        workers = cpu_count() if count >= PARALLEL_MIN_RUNS else 1
    count += -count % max(1, workers)  # every worker gets as many runs, of about equal size
    size = -(-len(pages) // count)
    fits: dict[int, Fit] = {}
    spilled: set[int] = set()
    with assets_folder(store) as folder, contextlib.closing(_JoinedPdf()) as joined:
        layout = SheetLayout(grid, backs, Assets(folder, art=art.folder if art else None))
        runs = [
            Run(
                layout,
                {index: views[index] for page in chunk for index in page},
                chunk,
                first,
                len(pages),
                pdf=not as_html,
                store=store,
            )
            for first in range(0, len(pages), size)
            for chunk in [pages[first : first + size]]
        ]
        whole_key = cache_key("proxies", [run.key for run in runs])
        whole = store.read("runs", whole_key, ".pdf") if store and not as_html else None
        for run, result in zip(runs, _results(runs, workers), strict=True):
            fits.update(result.fits)
            spilled |= result.overflow
            if result.rendered:
                report.rendered += run.faces
            else:
                report.reused += run.faces
            if run.pdf and whole is None:
                joined.append(result.pdf)
            if progress:
                progress(run.faces)
        target.parent.mkdir(parents=True, exist_ok=True)
        if as_html:
            html = layout.html(
                dict(enumerate(views)),
                pages,
                fits,
                first=0,
                total=len(pages),
                browser=True,
                assets=Assets(None),
            )
            atomic_write(target, html.encode("utf-8"))
        else:
            if whole is None:
                whole = joined.to_bytes()
                if store is not None:
                    store.write("runs", whole_key, ".pdf", whole)
            atomic_write(target, whole)
    report.overflow = list(dict.fromkeys(cards[index].name for index in sorted(spilled)))
    if store is not None:
        store.prune()
    return report


def _results(runs: Sequence[Run], workers: int) -> Iterator[RunResult]:
    """Every run's result in order: cached ones read here, the others laid out (by workers
    when there are enough of them)."""
    found = [cached_run(run) for run in runs]
    missing = [run for run, result in zip(runs, found, strict=True) if result is None]
    rendered: Iterator[RunResult] = (
        map(render_run, missing)
        if workers <= 1 or len(missing) <= 1
        else map_in_processes(render_run, missing, workers)
    )
    for result in found:
        yield result if result is not None else next(rendered)


class _JoinedPdf:
    """The output PDF, joined from the runs' PDFs as they arrive: a few kilobytes a sheet, where
    the runs' layouts take megabytes (the first run's document keeps its title)."""

    def __init__(self) -> None:
        self.document: pypdfium2.PdfDocument | None = None

    def append(self, pdf: bytes) -> None:
        import pypdfium2

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
        return _stable_id(buffer.getvalue())

    def close(self) -> None:
        if self.document is not None:
            self.document.close()


_FILE_ID = re.compile(rb"/ID\s*\[\s*<[0-9A-Fa-f]{32}>\s*<[0-9A-Fa-f]{32}>\s*\]")


def _stable_id(pdf: bytes) -> bytes:
    """pdfium gives each saved file a random ``/ID``: make it the digest of what precedes it,
    so the same sheets give the same bytes (same length: no offset moves)."""
    found = list(_FILE_ID.finditer(pdf))
    if not found:
        return pdf
    last = found[-1]
    digest = hashlib.md5(pdf[: last.start()], usedforsecurity=False).hexdigest().upper()
    stable = f"/ID[<{digest}><{digest}>]".encode("ascii")
    return pdf[: last.start()] + stable.ljust(len(last.group())) + pdf[last.end() :]
