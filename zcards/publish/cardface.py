"""Card faces from one Jinja HTML/CSS template: JPEG card images, the card back, spawned cards.

WeasyPrint lays faces out (many per call: it is the slow part), :mod:`zcards.publish.raster` turns
pages into JPEG files. Long text shrinks step by step; text that still does not fit is reported
by card name, detected from WeasyPrint's own layout boxes rather than guessed from character
counts. Image file names follow :mod:`zcards.publish.safe_names`, the rule the plugin's card
data uses.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from zcards.cards.model import FACTIONS, RARITY_NAMES, Card
from zcards.errors import Location, ZcardsError
from zcards.publish.layout import CARD_SIZES, PT_PER_MM, CardSize
from zcards.publish.raster import cpu_count, map_in_processes, rasterise, save_jpeg
from zcards.publish.rendering import render_document
from zcards.publish.safe_names import UniqueNames, image_stem
from zcards.resources import jinja_env

if TYPE_CHECKING:  # WeasyPrint takes ~0.5 s to import: only commands that render pay for it
    import weasyprint

log = logging.getLogger(__name__)

# Text scales tried in turn when a name or the rules text overflows its box.
FIT_SCALES: tuple[float, ...] = (1.0, 0.9, 0.8, 0.71, 0.63)
# Text regions that shrink on their own, with their full-size font (em of the card's font).
REGION_EM = {"name": 1.3, "typeline": 0.95, "text": 1.0, "foot": 0.8}
TEXT_ONLY_EM = 1.12  # a card without art has room for larger rules text
BASE_FONT_PT = 7.0  # for a poker-width card; other sizes scale with the card width
BORDER_MM = 2.2
ART_SHARE = 0.4  # of the height inside the frame, when the card has art
ART_EXTENSIONS = (".jpg", ".jpeg", ".png", ".webp", ".gif")
# Cards per WeasyPrint call: big enough to amortise the call, small enough for progress.
BATCH = 18
FLUSH = 180  # pages per intermediate PDF
# The intermediate PDF is rasterised at once: skip font subsetting and compression.
FAST_PDF = {"full_fonts": True, "uncompressed_pdf": True}
# Worker processes take ~1 s to start; below this many faces one process finishes sooner.
PARALLEL_MIN = 200
CHUNK = 180  # most faces per worker task: progress every few seconds
_OVERFLOW_TOLERANCE_PX = 0.5  # WeasyPrint lays out in CSS pixels


@dataclass(frozen=True)
class Row:
    top_mm: float
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class Geometry:
    """A face's outer box: the card (plus bleed, which widens the coloured frame).

    The rows of a face are placed in millimetres here rather than left to CSS flex layout,
    so WeasyPrint and a browser put every region in the same place.
    """

    width_mm: float
    height_mm: float
    border_mm: float
    font_pt: float

    @classmethod
    def for_card(cls, card: CardSize, bleed_mm: float = 0.0) -> Geometry:
        return cls(
            round(card.width_mm + 2 * bleed_mm, 4),
            round(card.height_mm + 2 * bleed_mm, 4),
            round(BORDER_MM * card.width_mm / 63 + bleed_mm, 4),
            round(BASE_FONT_PT * card.width_mm / 63, 3),
        )

    def rows(self, has_art: bool) -> dict[str, Row]:
        """Title, art, type line, text box and footer, top to bottom inside the frame."""
        em = self.font_pt / PT_PER_MM
        inner = self.height_mm - 2 * self.border_mm
        width = round(self.width_mm - 2 * self.border_mm, 3)
        heights = {
            "title": 2.2 * em,
            "art": ART_SHARE * inner if has_art else 0.0,
            "typeline": 1.55 * em,
        }
        foot = 2.0 * em
        heights["box"] = inner - sum(heights.values()) - foot
        heights["foot"] = foot
        rows, top = {}, 0.0
        for name, height in heights.items():
            rows[name] = Row(round(top, 3), width, round(height, 3))
            top += height
        return rows


# Scale step (index into FIT_SCALES) per text region of one face; a missing region is step 0.
Fit = dict[str, int]


@dataclass(frozen=True)
class FaceView:
    """What the template shows of one card; built here so the template stays declarative."""

    index: int
    name: str
    kind: str
    faction_class: str
    cost: str
    power: str
    health: str
    type_line: str
    keywords: str
    requires: str
    symbols: tuple[str, ...]
    paragraphs: tuple[str, ...]
    setinfo: str
    art: str
    rows: dict[str, Row]
    em: dict[str, float]  # font size per text region


@dataclass
class FaceReport:
    """Rendered card images, the names of cards whose text did not fit even when shrunk, and
    the ImageFile values that had to be renamed."""

    paths: list[Path] = field(default_factory=list)
    overflow: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)


def find_art(card: Card, images_dir: Path | None) -> Path | None:
    """The card's own image in ``images_dir`` (only directly inside it), if one exists."""
    if images_dir is None:
        return None
    stem = image_stem(card)
    for extension in ART_EXTENSIONS:
        candidate = images_dir / f"{stem}{extension}"
        if candidate.is_file():
            return candidate
    return None


def face_view(
    card: Card,
    index: int,
    fit: Fit,
    geometry: Geometry,
    images_dir: Path | None = None,
    links_from: Path | None = None,
) -> FaceView:
    """What the template shows of ``card``. Its art is a ``file:`` URL for the renderer, or
    with ``links_from`` (the folder an HTML file is saved in) a link relative to it."""
    faction = card.faction if card.faction in FACTIONS else ""
    kind = (card.type or "card").lower()
    art = find_art(card, images_dir)
    rarity = RARITY_NAMES.get(card.rarity, card.rarity)
    return FaceView(
        index=index,
        name=card.name,
        kind=kind if kind in ("zombie", "survivor", "item") else "other",
        faction_class=faction.lower(),
        cost=_number(card.cost),
        power=_number(card.power),
        health=_number(card.health),
        type_line=" \u2014 ".join(part for part in (card.type or "Card", card.faction) if part),
        keywords=" \u00b7 ".join(card.keywords),
        requires=", ".join(f"{count} {keyword}" for keyword, count in card.requirements.items()),
        symbols=tuple(card.symbols),
        paragraphs=tuple(line.strip() for line in card.text.splitlines() if line.strip()),
        setinfo=" \u00b7 ".join(part for part in (card.set_name, rarity) if part),
        art=_art_link(art, links_from) if art else "",
        rows=geometry.rows(art is not None),
        em={
            region: round(
                base
                * FIT_SCALES[fit.get(region, 0)]
                * (TEXT_ONLY_EM if region == "text" and not art else 1.0),
                3,
            )
            for region, base in REGION_EM.items()
        },
    )


def _art_link(art: Path, links_from: Path | None) -> str:
    if links_from is None:
        return art.resolve().as_uri()
    return quote(Path(os.path.relpath(art.resolve(), links_from.resolve())).as_posix())


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def overflowing(document: weasyprint.Document) -> dict[int, set[str]]:
    """Face index -> text regions (see REGION_EM) whose content spills out of their box."""
    found: dict[int, set[str]] = {}
    for page in document.pages:
        seen: set[int] = set()
        # placeholders=True walks into absolutely positioned boxes (every face row is one).
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


def render_fitted(
    build: Callable[[dict[int, Fit]], str], fits: dict[int, Fit], art_dir: Path | None
) -> tuple[weasyprint.Document, set[int]]:
    """Render, shrinking every overflowing region one step per pass until it fits or the
    smallest step is reached. Returns the final document and the faces that still overflow."""
    while True:
        document = render_document(build(fits), art_dir)
        spilled = overflowing(document)
        if not shrink(fits, spilled):
            return document, set(spilled)


def card_document(pages: Sequence[FaceView | str], geometry: Geometry) -> str:
    """HTML with one face (or ``"back"`` / ``"spawned"``) per page, each page the card's size."""
    return jinja_env().get_template("cardface_pages.html.j2").render(pages=pages, geometry=geometry)


def render_faces(
    cards: Sequence[Card],
    out_dir: str | os.PathLike[str],
    *,
    dpi: int = 150,
    images_dir: str | os.PathLike[str] | None = None,
    card_size: str = "poker",
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> FaceReport:
    """One JPEG per card at ``<out_dir>/<safe ImageFile>.jpg``, plus the overflow report.

    Names come from :class:`zcards.publish.safe_names.UniqueNames`, as in the plugin's card data.
    Cards sharing an ImageFile share one image (the first card's face); two different ImageFile
    values that would become the same file name get ``-2``, ``-3``… and a message instead of
    overwriting each other.

    ``workers``: processes to render in; by default one per core once there are
    :data:`PARALLEL_MIN` faces (fewer render sooner in this process). The images and the report
    are the same either way; ``progress`` then advances a chunk of faces at a time.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    art_dir = Path(images_dir) if images_dir is not None else None
    geometry = Geometry.for_card(CARD_SIZES[card_size])
    report = FaceReport()
    names = UniqueNames()
    unique: dict[Path, Card] = {}
    for card in cards:
        path = out / f"{names.image(card, report.renamed)}.jpg"
        report.paths.append(path)
        unique.setdefault(path, card)
    jobs = list(unique.items())
    if workers is None:
        workers = cpu_count() if len(jobs) >= PARALLEL_MIN else 1
    if workers <= 1 or len(jobs) <= 1:
        report.overflow = _render_chunk(_Chunk(jobs, geometry, art_dir, dpi), progress)
        return report
    count = -(-len(jobs) // CHUNK)
    count += -count % workers  # every worker gets as many chunks, of about equal size
    size = -(-len(jobs) // count)
    chunks = [
        _Chunk(jobs[start : start + size], geometry, art_dir, dpi)
        for start in range(0, len(jobs), size)
    ]
    results = map_in_processes(_render_chunk, chunks, workers)
    for chunk, overflow in zip(chunks, results, strict=True):
        report.overflow.extend(overflow)
        if progress:
            progress(len(chunk.jobs))
    return report


@dataclass(frozen=True)
class _Chunk:
    """Faces to render in one go (in a worker process: everything here pickles)."""

    jobs: list[tuple[Path, Card]]  # image path and the card whose face it shows
    geometry: Geometry
    art_dir: Path | None
    dpi: int


def _render_chunk(chunk: _Chunk, progress: Callable[[int], None] | None = None) -> list[str]:
    """Write the chunk's images; return the names of its cards whose text does not fit."""
    jobs, geometry = chunk.jobs, chunk.geometry
    overflow: list[str] = []
    pending: list[tuple[Path, weasyprint.Page]] = []
    for start in range(0, len(jobs), BATCH):
        batch = jobs[start : start + BATCH]
        fits: dict[int, Fit] = {}

        def build(fits: dict[int, Fit], batch=batch) -> str:
            views = [
                face_view(card, i, fits.get(i, Fit()), geometry, chunk.art_dir)
                for i, (_, card) in enumerate(batch)
            ]
            return card_document(views, geometry)

        document, spilled = render_fitted(build, fits, chunk.art_dir)
        overflow.extend(batch[i][1].name for i in sorted(spilled))
        pending.extend(zip((path for path, _ in batch), document.pages, strict=True))
        if len(pending) >= FLUSH or start + BATCH >= len(jobs):
            # One PDF for many batches: fonts are embedded once per PDF, a fixed cost.
            pdf = document.copy([page for _, page in pending]).write_pdf(**FAST_PDF)
            for (path, _), image in zip(pending, rasterise(pdf, chunk.dpi), strict=True):
                _save_image(image, path, chunk.dpi)
            pending.clear()
        if progress:
            progress(len(batch))
    return overflow


def _save_image(image, path: Path, dpi: int) -> None:
    try:
        save_jpeg(image, path, dpi)
    except OSError as error:
        reason = error.strerror or str(error)  # the path is the location, not the temp file
        raise ZcardsError(f"cannot write the card image: {reason}", Location(str(path))) from None


def render_card_images(
    cards: Sequence[Card],
    out_dir: str | os.PathLike[str],
    *,
    dpi: int = 150,
    images_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Path]:
    """One JPEG per card (``<out_dir>/<safe ImageFile>.jpg``), in card order.

    Renamed ImageFile values and cards whose text does not fit are logged as warnings; use
    :func:`render_faces` to get them as data.
    """
    report = render_faces(cards, out_dir, dpi=dpi, images_dir=images_dir, progress=progress)
    for message in report.renamed:
        log.warning("%s", message)
    for name in report.overflow:
        log.warning("text of card %r does not fit on the card face", name)
    return report.paths


def render_cardback(path: str | os.PathLike[str], dpi: int = 150) -> Path:
    """The card back: a generic zombie, as face-down cards are generic zombies."""
    return _render_single("back", path, dpi)


def render_spawned(path: str | os.PathLike[str], dpi: int = 150) -> Path:
    """The picture Lackey shows for spawned cards and cards whose image is missing."""
    return _render_single("spawned", path, dpi)


def _render_single(kind: str, path: str | os.PathLike[str], dpi: int) -> Path:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    html = card_document([kind], Geometry.for_card(CARD_SIZES["poker"]))
    (image,) = rasterise(render_document(html).write_pdf(**FAST_PDF), dpi)
    save_jpeg(image, target, dpi)
    return target
