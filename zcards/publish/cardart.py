"""The picture in a face's art box: the card's own art from an art folder, else a placeholder.

The art folder is untrusted input. A card finds its file by ImageFile or by name (any case,
any common image format), looked up in an index of the folder's own files: nothing a card says
is joined into a path, and a link pointing out of the folder is not followed. Pillow opens only
the formats below (never, say, EPS, which would run Ghostscript) and refuses oversized images.
Art is cropped to the box's shape around its centre, never stretched: a JPEG about the box's
size is placed as it is and clipped by the box, other art is cropped and resized with Pillow to
the pixels it is printed at.

A card without art gets a placeholder drawn from the card itself -- its colours, its faction's
emblem (else its type's) and its type's silhouette -- as a small SVG, so it stays sharp in
print and is the same bytes on every run.

Pictures are written once into an assets folder (named by what they show) and given to the
renderer as ``file:`` URIs; a standalone HTML sheet gets them inline as ``data:`` URIs instead.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from zcards.cards.model import Card
from zcards.errors import Location, UsageError, ZcardsError
from zcards.publish.faceview import PALETTES, Art, FaceView
from zcards.publish.layout import MM_PER_INCH, Rect
from zcards.publish.safe_names import image_stem
from zcards.publish.seal import verified_file, write_verified
from zcards.resources import jinja_env

if TYPE_CHECKING:  # Pillow is imported where art is read: placeholders need none of it
    from PIL import Image

# File extensions read as art, and the one Pillow format each may be.
ART_FORMATS = {
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".jfif": "JPEG",
    ".png": "PNG",
    ".webp": "WEBP",
    ".gif": "GIF",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
}
MAX_ART_BYTES = 64 * 1024 * 1024
MAX_ART_PIXELS = 64_000_000  # a 9,000 x 7,000 scan; Pillow decodes a pixel in ~4 bytes
ART_JPEG = {"quality": 90, "optimize": False, "progressive": False}
# Art is resized once, for print; card images at a lower resolution scale the same picture down.
ART_DPI = 300


@dataclass
class ArtFolder:
    """The art files directly inside ``folder``, by lower-case file name without extension."""

    folder: Path
    problems: list[str] = field(default_factory=list)
    _files: dict[str, Path] = field(default_factory=dict, repr=False)
    _digests: dict[Path, Art | None] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, folder: str | os.PathLike[str]) -> ArtFolder:
        found = cls(art_folder(folder).resolve())
        with os.scandir(found.folder) as entries:
            for entry in sorted(entries, key=lambda entry: entry.name):
                stem, suffix = os.path.splitext(entry.name)
                path = Path(entry.path).resolve()
                inside = path.parent == found.folder
                if suffix.lower() in ART_FORMATS and inside and path.is_file():
                    found._files.setdefault(stem.casefold(), path)
        return found

    def find(self, card: Card) -> Art | None:
        """The card's art: the file named as its ImageFile, its safe image name or its name."""
        front = card.image_file.split(",")[0].strip()
        for stem in (front, image_stem(card), card.name):
            path = self._files.get(stem.casefold())
            if path is not None:
                return self._art(path)
        return None

    def _art(self, path: Path) -> Art | None:
        if path not in self._digests:
            self._digests[path] = self._checked(path)
        return self._digests[path]

    def _checked(self, path: Path) -> Art | None:
        """The file as art, or None with a problem noted (the card shows its placeholder)."""
        from PIL import ExifTags

        try:
            if path.stat().st_size > MAX_ART_BYTES:
                raise ArtError(f"larger than {MAX_ART_BYTES // 2**20} MiB")
            data = path.read_bytes()
            with _opened(io.BytesIO(data), path) as image:  # the header: a non-image fails
                upright = image.getexif().get(ExifTags.Base.Orientation, 1) == 1
                whole = data.endswith(b"\xff\xd9")  # ends in JPEG's end marker: not cut short
                plain = image.format == "JPEG" and image.mode in ("RGB", "L") and upright and whole
                width, height = image.size
        except (ArtError, OSError) as error:
            self.problems.append(f"art {path.name}: {error}; the card shows its placeholder")
            return None
        return Art(str(path), hashlib.sha256(data).hexdigest(), width, height, plain)


def art_folder(folder: str | os.PathLike[str]) -> Path:
    """``folder`` if it is a folder, else a usage error."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError(f"the art folder {str(root)!r} does not exist or is not a folder")
    return root


class ArtError(Exception):
    """An art file that cannot be used."""


@contextmanager
def _opened(source: io.BytesIO | Path, path: Path) -> Iterator[Image.Image]:
    from PIL import Image

    formats = [ART_FORMATS[path.suffix.lower()]]
    try:
        with Image.open(source, formats=formats) as image:
            width, height = image.size
            if width * height > MAX_ART_PIXELS:
                raise ArtError(f"{width} x {height} pixels is more than {MAX_ART_PIXELS:,}")
            yield image
    except Image.UnidentifiedImageError:
        raise ArtError(f"not a {formats[0]} image Pillow can read") from None
    except Image.DecompressionBombError as error:
        raise ArtError(str(error)) from None


def cropped(art: Art, width_px: int, height_px: int) -> bytes:
    """The art cut to the box's shape around its centre and resized to the box: a JPEG."""
    from PIL import ExifTags, Image, ImageOps

    path = Path(art.path)
    try:
        with _whole_images_only(), _opened(path, path) as image:
            image.draft("RGB", (width_px, height_px))  # JPEG: decode at a smaller scale
            if image.getexif().get(ExifTags.Base.Orientation, 1) != 1:
                image = ImageOps.exif_transpose(image)
            if image.mode not in ("RGB", "L"):
                image = _flattened(image.convert("RGBA"))
            box = _centred_crop(image.size, width_px / height_px)
            # Bilinear resampling in Pillow filters over the whole source footprint (no
            # aliasing) at half the cost of Lanczos; big art is first reduced by whole factors.
            fitted = image.resize(
                (width_px, height_px), Image.Resampling.BILINEAR, box=box, reducing_gap=2.0
            )
            buffer = io.BytesIO()
            fitted.convert("RGB").save(buffer, "JPEG", **ART_JPEG)
    except (ArtError, OSError) as error:
        raise ZcardsError(f"cannot read the card art: {error}", Location(str(path))) from None
    return buffer.getvalue()


@contextmanager
def _whole_images_only() -> Iterator[None]:
    """Decode strictly: WeasyPrint tells Pillow to accept truncated images (process-wide), but
    a damaged art file is an error to report, not a picture half filled with grey."""
    from PIL import ImageFile

    before = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = before


def _centred_crop(size: tuple[int, int], aspect: float) -> tuple[float, float, float, float]:
    """The largest box of width/height ``aspect`` in the middle of an image of ``size``."""
    width, height = size
    if width / height > aspect:  # too wide: cut the sides
        keep = height * aspect
        return ((width - keep) / 2, 0.0, (width + keep) / 2, float(height))
    keep = width / aspect
    return (0.0, (height - keep) / 2, float(width), (height + keep) / 2)


def _flattened(image: Image.Image) -> Image.Image:
    """Transparent art over the art box's dark background."""
    from PIL import Image

    backdrop = Image.new("RGBA", image.size, (29, 33, 38, 255))
    return Image.alpha_composite(backdrop, image).convert("RGB")


def placeholder_svg(view: FaceView) -> str:
    """The placeholder art for a card: a deterministic SVG document."""
    return _placeholder(view.palette, view.emblem, view.figure)


@lru_cache(maxsize=64)
def _placeholder(palette: str, emblem: str, figure: str) -> str:
    frame, dark = PALETTES.get(palette, PALETTES["card"])
    return (
        jinja_env()
        .get_template("placeholder.svg.j2")
        .render(
            light=frame,
            dark=dark,
            tint=_mixed(frame, "#ffffff"),
            emblem_name=emblem,
            figure_name=figure,
        )
    )


def _mixed(colour: str, other: str) -> str:
    """The colour halfway between two ``#rrggbb`` colours."""
    one, two = (bytes.fromhex(value.lstrip("#")) for value in (colour, other))
    return "#" + bytes((a + b) // 2 for a, b in zip(one, two, strict=True)).hex()


@dataclass(frozen=True)
class Assets:
    """Where the art box pictures go: ``folder`` (``file:`` URIs), or None for ``data:`` URIs.

    ``dpi``: the resolution art is resized to; ``art``: the art folder, whose files may be
    shown as they are. Everything here pickles, so render workers get the same folders.
    """

    folder: Path | None
    dpi: int = ART_DPI
    art: Path | None = None

    @property
    def readable(self) -> tuple[Path, ...]:
        """The folders the renderer may read pictures from (and nothing else)."""
        return tuple(folder for folder in (self.folder, self.art) if folder is not None)

    def picture(self, view: FaceView, box: Rect) -> str:
        """The URI of the picture for ``view``'s art box.

        A plain JPEG with at most twice the resolution the box needs at ``dpi`` (once scaled
        to cover the box) is used as it is, the template cropping it to the box (CSS
        ``object-fit: cover``); other art is cropped and resized here.
        """
        if view.art is None:
            svg = placeholder_svg(view).encode("utf-8")
            return self._stored(f"placeholder-{_digest(svg)}.svg", "image/svg+xml", lambda: svg)
        art = view.art
        width, height = (
            max(1, round(mm / MM_PER_INCH * self.dpi)) for mm in (box.width, box.height)
        )
        if art.plain_jpeg and min(art.width / width, art.height / height) <= 2:
            if self.folder is None:
                return _data_uri("image/jpeg", Path(art.path).read_bytes())
            return Path(art.path).as_uri()
        name = f"art-{art.digest[:40]}-{width}x{height}.jpg"
        return self._stored(name, "image/jpeg", lambda: cropped(art, width, height))

    def _stored(self, name: str, mime: str, make: Callable[[], bytes]) -> str:
        """The picture's URI: a file in the folder (written once), else inline data."""
        if self.folder is None:
            return _data_uri(mime, make())
        path = self.folder / name
        if verified_file(path):
            return path.as_uri()
        data = make()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_verified(path, data)
        except OSError:  # a folder that cannot be written costs speed, never the picture
            return _data_uri(mime, data)
        return path.as_uri()


def _data_uri(mime: str, data: bytes) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]
