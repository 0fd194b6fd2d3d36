"""PDF pages to JPEG images: the last step of every rendered card image (big batches are
rendered on every core by :func:`zcards.processes.map_in_processes`)."""

from __future__ import annotations

import io
from collections.abc import Iterator

JPEG_QUALITY = 90


def rasterise(pdf: bytes, dpi: int) -> Iterator:
    """Every page of a PDF as an RGB PIL image at ``dpi``, one at a time (a page's bitmap is
    ~0.6 MB at 150 dpi: holding a whole batch would cost a hundred times that)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            page = document[index]
            # pdfium rounds the bitmap up; crop to the nearest whole pixel of the real size.
            width, height = (round(side / 72 * dpi) for side in page.get_size())
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            page.close()
            yield image.crop((0, 0, width, height))
    finally:
        document.close()


def encode_jpeg(image, dpi: int) -> bytes:
    """A card image's JPEG bytes (the same pixels give the same bytes: no timestamps)."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, dpi=(dpi, dpi))
    return buffer.getvalue()
