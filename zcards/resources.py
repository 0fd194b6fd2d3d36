"""Where the bundled data and templates live, in a source checkout and in an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

PACKAGE_DIR = Path(__file__).resolve().parent
DATA_DIR = PACKAGE_DIR / "data"
BUNDLED_SET = DATA_DIR / "alpha.txt"
STARTER_DECKS_DIR = DATA_DIR / "decks"


def templates_dir() -> Path:
    """The wheel ships templates inside the package; a checkout keeps them at the top level."""
    for candidate in (PACKAGE_DIR / "templates", PACKAGE_DIR.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("zcards templates folder not found")


@cache
@cache
def jinja_env() -> jinja2.Environment:
    """One environment for every template, made once a process so each template is compiled
    once; HTML and XML templates are autoescaped. (jinja2 is imported here: a search that
    reads the bundled set renders nothing.)"""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=jinja2.select_autoescape(["html", "xml", "svg", "html.j2", "xml.j2", "svg.j2"]),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def starter_decks() -> list[Path]:
    """The bundled starter deck lists, in a stable order."""
    return sorted(STARTER_DECKS_DIR.glob("*.txt"))
