"""PDF pages to JPEG files, written atomically: the last step of every rendered card image."""

from __future__ import annotations

import io
import os
import tempfile
from functools import cache
from pathlib import Path

import pypdfium2

JPEG_QUALITY = 90


@cache
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def rasterise(pdf: bytes, dpi: int) -> list:
    """Every page of a PDF as an RGB PIL image at ``dpi``."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        images = []
        for index in range(len(document)):
            page = document[index]
            # pdfium rounds the bitmap up; crop to the nearest whole pixel of the real size.
            width, height = (round(side / 72 * dpi) for side in page.get_size())
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            images.append(image.crop((0, 0, width, height)))
        return images
    finally:
        document.close()


def save_jpeg(image, path: Path, dpi: int) -> None:
    """Write atomically: a reader never sees half an image."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, dpi=(dpi, dpi))
    atomic_write(path, buffer.getvalue())


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        # mkstemp makes private files; give the result the usual permissions (0666 - umask).
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
