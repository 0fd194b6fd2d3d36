"""Card faces from one Jinja HTML/CSS template: JPEG card images, the card back, spawned cards.

What a face shows is its view (:mod:`zcards.publish.faceview`), where each box goes its layout
(:mod:`zcards.publish.facelayout`). WeasyPrint lays faces out (many per call: it is the slow
part), :mod:`zcards.publish.raster` turns pages into JPEG files. Long text shrinks step by step
(:mod:`zcards.publish.facefit`); text that still does not fit is reported by card name. A face
whose view, layout, resolution and renderer are unchanged is copied from the cache
(:mod:`zcards.publish.facecache`), not drawn. Image file names follow
:mod:`zcards.publish.safe_names`, the rule the plugin's card data uses.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from lackey_plugin.files import OutputError, atomic_write
from zcards.cards.model import Card
from zcards.errors import ZcardsError
from zcards.processes import cpu_count, map_in_processes
from zcards.publish import rendering
from zcards.publish.cardart import ART_DPI, ArtFolder, Assets
from zcards.publish.facecache import (
    FROM_ENVIRONMENT,
    Cache,
    CacheChoice,
    cache_key,
    open_cache,
)
from zcards.publish.facefit import FIT_SIZES, Fit, overflowing, shrink
from zcards.publish.facelayout import FaceLayout
from zcards.publish.faceview import PALETTES, FaceView, face_view
from zcards.publish.layout import CARD_SIZES
from zcards.publish.raster import encode_jpeg, rasterise
from zcards.publish.rendering import font_config
from zcards.publish.safe_names import UniqueNames
from zcards.resources import jinja_env

if TYPE_CHECKING:  # WeasyPrint takes ~0.5 s to import: only commands that render pay for it
    import weasyprint

log = logging.getLogger(__name__)

# Cards per WeasyPrint call: big enough to amortise the call, small enough for progress.
BATCH = 18
FLUSH = 180  # pages per intermediate PDF
# The intermediate PDF is rasterised at once: skip font subsetting and compression.
FAST_PDF = {"full_fonts": True, "uncompressed_pdf": True}
# Worker processes take ~1 s to start; below this many faces one process finishes sooner.
PARALLEL_MIN = 200
CHUNK = 180  # most faces per worker task: progress every few seconds


@dataclass(frozen=True)
class PlacedFace:
    """A view as the template draws it: its index in the document (to find its text regions
    in WeasyPrint's layout), the size step of each text region, and the URI of its art box
    picture."""

    view: FaceView
    index: int
    fit: Fit
    art: str


def placed(view: FaceView, index: int, fit: Fit, layout: FaceLayout, assets: Assets) -> PlacedFace:
    picture = assets.picture(view, layout.boxes["art"])
    return PlacedFace(view, index, dict(fit), picture)


@dataclass
class FaceReport:
    """Rendered card images, the names of cards whose text did not fit even when shrunk, the
    ImageFile values that had to be renamed, art that could not be used, and how many faces
    were drawn (``rendered``) or copied from the cache (``reused``)."""

    paths: list[Path] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)
    art_problems: list[str] = field(default_factory=list)
    rendered: int = 0
    reused: int = 0


def face_key(view: FaceView, layout: FaceLayout, dpi: int) -> str:
    """What a card image depends on: its view, layout, resolution and the renderer."""
    return cache_key("face", view.cache_data(), layout, layout.boxes, dpi, FIT_SIZES)


def style_context(layout: FaceLayout) -> dict[str, object]:
    """What the face stylesheet (cardface.css.j2) is made from."""
    return {"geometry": layout, "palettes": PALETTES, "fit_sizes": FIT_SIZES}


@lru_cache(maxsize=8)
def _stylesheet(layout: FaceLayout) -> weasyprint.CSS:
    """The face stylesheet for ``layout``, parsed once rather than in every document."""
    import weasyprint

    css = jinja_env().get_template("cardface.css.j2").render(**style_context(layout))
    return weasyprint.CSS(string=css, font_config=font_config())


def lay_out_faces(
    html: str, layout: FaceLayout, readable: Sequence[Path] = ()
) -> weasyprint.Document:
    """Lay out one HTML document of faces, backs or sheets of ``layout`` (the expensive step),
    reading pictures from the ``readable`` folders only (:mod:`zcards.publish.rendering`)."""
    return rendering.render_document(html, readable, [_stylesheet(layout)])


def render_fitted(
    build: Callable[[dict[int, Fit]], str],
    fits: dict[int, Fit],
    layout: FaceLayout,
    readable: Sequence[Path],
) -> tuple[weasyprint.Document, set[int]]:
    """Render, shrinking every overflowing region one step per pass until it fits or the
    smallest step is reached. Returns the final document and the faces that still overflow."""
    while True:
        document = lay_out_faces(build(fits), layout, readable)
        spilled = overflowing(document)
        if not shrink(fits, spilled):
            return document, set(spilled)


def card_document(pages: Sequence[PlacedFace | str], layout: FaceLayout) -> str:
    """HTML with one face (or ``"back"`` / ``"spawned"``) per page, each page the card's size."""
    return (
        jinja_env()
        .get_template("cardface_pages.html.j2")
        .render(pages=pages, **style_context(layout))
    )


@contextmanager
def assets_folder(store: Cache | None) -> Iterator[Path]:
    """Where art box pictures go: the cache's folder, else a folder for this run only."""
    if store is not None:
        yield store.assets
        return
    with tempfile.TemporaryDirectory(prefix="zcards-art-") as folder:
        yield Path(folder)


def render_faces(
    cards: Sequence[Card],
    out_dir: str | os.PathLike[str],
    *,
    dpi: int = 150,
    art_dir: str | os.PathLike[str] | None = None,
    card_size: str = "poker",
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
    cache_dir: CacheChoice = FROM_ENVIRONMENT,
) -> FaceReport:
    """One JPEG per card at ``<out_dir>/<safe ImageFile>.jpg``, plus the report.

    Names come from :class:`zcards.publish.safe_names.UniqueNames`, as in the plugin's card data.
    Cards sharing an ImageFile share one image (the first card's face); two different ImageFile
    values that would become the same file name get ``-2``, ``-3``… and a message instead of
    overwriting each other. ``art_dir``: the card art (see :class:`ArtFolder`).

    ``cache_dir``: the render cache (default: from the environment; None: no cache). Faces found
    there are copied, the others drawn. ``workers``: processes to draw in; by default one per
    core once there are :data:`PARALLEL_MIN` faces to draw. The images and the report are the
    same either way; ``progress`` then advances a chunk of faces at a time.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    art = ArtFolder.open(art_dir) if art_dir is not None else None
    layout = FaceLayout.for_card(CARD_SIZES[card_size])
    report = FaceReport()
    names = UniqueNames()
    unique: dict[Path, FaceView] = {}
    for card in cards:
        path = out / f"{names.image(card, report.renamed)}.jpg"
        report.paths.append(path)
        if path not in unique:
            unique[path] = face_view(card, art.find(card) if art else None)
    report.art_problems = art.problems if art else []
    store = open_cache(cache_dir)
    jobs, spilled = [], set()
    for path, view in unique.items():
        key = face_key(view, layout, dpi)
        found = _cached(store, key, path)
        if found is None:
            jobs.append(_Job(path, view, key))
            continue
        report.reused += 1
        if found:
            spilled.add(path)
    if progress and report.reused:
        progress(report.reused)
    with assets_folder(store) as folder:
        assets = Assets(folder, max(dpi, ART_DPI), art.folder if art else None)
        spilled |= _draw(jobs, _Context(layout, assets, dpi, store), progress, workers)
    report.rendered = len(jobs)
    report.overflow = [view.name for path, view in unique.items() if path in spilled]
    if store is not None:
        store.prune()
    return report


def _cached(store: Cache | None, key: str, path: Path) -> bool | None:
    """Copy a cached face to ``path``: None if there is none, else whether its text spilled."""
    if store is None:
        return None
    for suffix, spilled in ((".jpg", False), (".overflow.jpg", True)):
        data = store.read("faces", key, suffix)
        if data is not None:
            _write_image(path, data)
            return spilled
    return None


@dataclass(frozen=True)
class _Job:
    path: Path  # where the image goes
    view: FaceView
    key: str  # its cache key


@dataclass(frozen=True)
class _Context:
    """How faces are drawn (everything here pickles: it may go to a worker process)."""

    layout: FaceLayout
    assets: Assets
    dpi: int
    store: Cache | None


def _draw(
    jobs: list[_Job],
    context: _Context,
    progress: Callable[[int], None] | None,
    workers: int | None,
) -> set[Path]:
    """Draw the faces of ``jobs``; return the paths of those whose text does not fit."""
    if workers is None:
        workers = cpu_count() if len(jobs) >= PARALLEL_MIN else 1
    if workers <= 1 or len(jobs) <= 1:
        return _draw_chunk((jobs, context), progress)
    count = -(-len(jobs) // CHUNK)
    count += -count % workers  # every worker gets as many chunks, of about equal size
    size = -(-len(jobs) // count)
    chunks = [(jobs[start : start + size], context) for start in range(0, len(jobs), size)]
    spilled: set[Path] = set()
    for (chunk, _), result in zip(
        chunks, map_in_processes(_draw_chunk, chunks, workers), strict=True
    ):
        spilled |= result
        if progress:
            progress(len(chunk))
    return spilled


def _draw_chunk(
    task: tuple[list[_Job], _Context], progress: Callable[[int], None] | None = None
) -> set[Path]:
    """Write the chunk's images (and cache them); return those whose text does not fit."""
    jobs, context = task
    layout, spilled_paths = context.layout, set()
    pending: list[tuple[_Job, bool, weasyprint.Page]] = []
    for start in range(0, len(jobs), BATCH):
        batch = jobs[start : start + BATCH]

        def build(fits: dict[int, Fit], batch=batch) -> str:
            return card_document(
                [
                    placed(job.view, i, fits.get(i, Fit()), layout, context.assets)
                    for i, job in enumerate(batch)
                ],
                layout,
            )

        document, spilled = render_fitted(build, {}, layout, context.assets.readable)
        pending.extend(
            (job, i in spilled, page)
            for i, (job, page) in enumerate(zip(batch, document.pages, strict=True))
        )
        if len(pending) >= FLUSH or start + BATCH >= len(jobs):
            # One PDF for many batches: fonts are embedded once per PDF, a fixed cost.
            pdf = document.copy([page for _, _, page in pending]).write_pdf(**FAST_PDF)
            for (job, spills, _), image in zip(pending, rasterise(pdf, context.dpi), strict=True):
                data = encode_jpeg(image, context.dpi)
                _write_image(job.path, data)
                if context.store is not None:
                    suffix = ".overflow.jpg" if spills else ".jpg"
                    context.store.write("faces", job.key, suffix, data)
                if spills:
                    spilled_paths.add(job.path)
            pending.clear()
        if progress:
            progress(len(batch))
    return spilled_paths


def _write_image(path: Path, data: bytes) -> None:
    try:
        atomic_write(path, data)
    except OutputError as error:  # named after the image, never its temporary file
        raise ZcardsError(f"cannot write the card image: {error.message}", error.location) from None


def render_extras(
    targets: dict[str, Path], dpi: int = 150, cache_dir: CacheChoice = FROM_ENVIRONMENT
) -> None:
    """The card back (``"back"``: a generic zombie, as face-down cards are generic zombies)
    and the picture Lackey shows for spawned cards (``"spawned"``) to the paths ``targets``
    names, drawn together in one document unless the cache has them."""
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    store = open_cache(cache_dir)
    keys = {kind: cache_key("extra", kind, layout, layout.boxes, dpi) for kind in targets}
    missing = []
    for kind, path in targets.items():
        data = store.read("faces", keys[kind], ".jpg") if store else None
        if data is None:
            missing.append(kind)
        else:
            _write_image(path, data)
    if not missing:
        return
    pdf = lay_out_faces(card_document(missing, layout), layout).write_pdf(**FAST_PDF)
    for kind, image in zip(missing, rasterise(pdf, dpi), strict=True):
        data = encode_jpeg(image, dpi)
        targets[kind].parent.mkdir(parents=True, exist_ok=True)
        _write_image(targets[kind], data)
        if store is not None:
            store.write("faces", keys[kind], ".jpg", data)
