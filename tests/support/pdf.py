"""PDF pages read back as pictures (pdfium): what a printer would put on paper."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
from PIL import Image


def page_image(pdf: Path, page: int, dpi: int) -> Image.Image:
    """Page ``page`` (from 0) of ``pdf`` as an RGB picture at ``dpi``."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()
