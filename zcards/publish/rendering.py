"""One WeasyPrint layout, reading nothing but the card art folder and zcards' own files.

WeasyPrint fetches every URL a document names: a card's art, and whatever that file names in
turn (an SVG saved as ``.png`` is read as SVG, and an SVG may point at any file or host). The
fetcher of :func:`render_document` refuses every URL but ``data:`` URLs and ``file:`` URLs
inside the art folder or zcards' templates (symbolic links resolved first), so a folder of
card art can neither pull another local file into a sheet nor make the renderer go online.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from zcards.resources import templates_dir

if TYPE_CHECKING:  # WeasyPrint takes ~0.5 s to import: only commands that render pay for it
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration


def render_document(html: str, art_dir: Path | None = None) -> weasyprint.Document:
    """Lay out one HTML document (the expensive step), showing art from ``art_dir`` only."""
    import weasyprint

    document = weasyprint.HTML(string=html, url_fetcher=_fetcher(art_dir), base_url=".")
    return document.render(font_config=_font_config())


@cache
def _font_config() -> FontConfiguration:
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@cache
def _fetcher(art_dir: Path | None) -> weasyprint.URLFetcher:
    """Inline data, and local files inside the allowed folders: nothing else (one fetcher per
    art folder, made once)."""
    import weasyprint

    roots = tuple(folder.resolve() for folder in (templates_dir(), art_dir) if folder)

    class LocalOnly(weasyprint.URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.lower().startswith("file:") and not inside(url, roots):
                raise ValueError(f"the renderer reads only the card art folder, not {url}")
            return super().fetch(url, headers)

    return LocalOnly(allowed_protocols=("file", "data"))


def inside(url: str, roots: tuple[Path, ...]) -> bool:
    """Whether the ``file:`` URL names a file inside one of ``roots`` (links resolved)."""
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        return False
    path = Path(url2pathname(parts.path)).resolve()
    return any(path.is_relative_to(root) for root in roots)
