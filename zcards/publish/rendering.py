"""One WeasyPrint layout, reading nothing but the folders it is given and zcards' own files.

WeasyPrint fetches every URL a document names: a card's art, and whatever that file names in
turn (an SVG saved as ``.png`` is read as SVG, and an SVG may point at any file or host). The
fetcher of :func:`render_document` refuses every URL but ``data:`` URLs and ``file:`` URLs
inside the folders named (the card art folder, the render cache's pictures) or zcards'
templates (symbolic links resolved first), so a folder of card art can neither pull another
local file into a sheet nor make the renderer go online. (Card art reaches the renderer only
after Pillow read it as a picture, see :mod:`zcards.publish.cardart`; this is the second wall.)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from zcards.resources import templates_dir

if TYPE_CHECKING:  # WeasyPrint takes ~0.5 s to import: only commands that render pay for it
    import weasyprint
    from weasyprint.text.fonts import FontConfiguration


def render_document(
    html: str, readable: Sequence[Path] = (), stylesheets: Sequence[weasyprint.CSS] = ()
) -> weasyprint.Document:
    """Lay out one HTML document (the expensive step), reading files from the ``readable``
    folders only, styled by ``stylesheets`` besides its own."""
    import weasyprint

    fetcher = _fetcher(tuple(folder.resolve() for folder in readable))
    document = weasyprint.HTML(string=html, url_fetcher=fetcher, base_url=".")
    return document.render(stylesheets=list(stylesheets), font_config=font_config())


@cache
def font_config() -> FontConfiguration:
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@cache
def _fetcher(folders: tuple[Path, ...]) -> weasyprint.URLFetcher:
    """Inline data, and local files inside the allowed folders: nothing else (one fetcher per
    set of folders, made once)."""
    import weasyprint

    roots = (templates_dir().resolve(), *folders)

    class LocalOnly(weasyprint.URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.lower().startswith("file:") and not inside(url, roots):
                raise ValueError(f"the renderer reads only the card art's folders, not {url}")
            return super().fetch(url, headers)

    return LocalOnly(allowed_protocols=("file", "data"))


def inside(url: str, roots: tuple[Path, ...]) -> bool:
    """Whether the ``file:`` URL names a file inside one of ``roots`` (links resolved)."""
    from urllib.request import url2pathname  # http.client, email...: only when drawing

    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        return False
    path = Path(url2pathname(parts.path)).resolve()
    return any(path.is_relative_to(root) for root in roots)
