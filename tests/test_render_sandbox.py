"""The renderer reads the card art folder and zcards' own files, nothing else.

Card art is untrusted: an SVG saved as ``sprinter.png`` is rendered as SVG, and an SVG can
name any file or host. Real renders, read back pixel by pixel: a picture the SVG pulls in from
outside the art folder (or through a symbolic link) never shows, and no request goes out. The
HTML proxy sheet links its art relatively, never by an absolute ``file://`` path.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import lxml.html
from click.testing import CliRunner
from PIL import Image
from pytest_httpserver import HTTPServer

from zcards.cards.model import Card
from zcards.cli import cli
from zcards.publish.cardface import render_card_images

DPI = 60
POKER_PX = (round(63 / 25.4 * DPI), round(88 / 25.4 * DPI))
BLUE, RED, GREEN = (0, 60, 255), (255, 0, 0), (0, 200, 0)


def _svg_over_blue(href: str) -> str:
    """Blue, with the picture at ``href`` drawn over all of it."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="300" height="200">'
        f'<rect width="300" height="200" fill="rgb{BLUE}"/>'
        f'<image xlink:href="{href}" href="{href}" width="300" height="200"/></svg>'
    )


def _art_colour(path: Path) -> tuple[int, int, int]:
    with Image.open(path) as image:
        return image.convert("RGB").getpixel((POKER_PX[0] // 2, round(POKER_PX[1] * 0.3)))


def _near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 40 for a, b in zip(colour, wanted, strict=True))


def test_art_cannot_pull_in_files_outside_the_art_folder_or_go_online(
    bundled_by_name: dict[str, Card], tmp_path: Path, httpserver: HTTPServer
) -> None:
    art, outside = tmp_path / "art", tmp_path / "private"
    art.mkdir()
    outside.mkdir()
    Image.new("RGB", (30, 20), RED).save(outside / "secret.png")
    Image.new("RGB", (30, 20), GREEN).save(art / "green.png")
    httpserver.expect_request("/spy.png").respond_with_data(b"", status=404)
    svgs = {
        "sprinter.png": (outside / "secret.png").as_uri(),  # an SVG named .png
        "zombiedog.png": "green.png",  # a picture beside it, in the art folder: allowed
        "spitter.png": httpserver.url_for("/spy.png"),
    }
    for name, href in svgs.items():
        (art / name).write_text(_svg_over_blue(href), encoding="utf-8")
    (art / "shotgun.png").symlink_to(outside / "secret.png")
    chosen = [bundled_by_name[name] for name in ("Sprinter", "Zombie Dog", "Spitter", "Shotgun")]
    paths = render_card_images(chosen, tmp_path / "out", dpi=DPI, images_dir=art)
    colours = dict(
        zip(("sprinter", "dog", "spitter", "shotgun"), map(_art_colour, paths), strict=True)
    )
    assert _near(colours["sprinter"], BLUE), colours  # drawn without the outside picture
    assert _near(colours["dog"], GREEN), colours
    assert _near(colours["spitter"], BLUE), colours
    assert not _near(colours["shotgun"], RED), colours  # a link out of the folder is refused
    assert httpserver.log == [], "the renderer made a network request"


def test_the_html_sheet_links_its_art_relatively(sample_db_path: Path, tmp_path: Path) -> None:
    art = tmp_path / "card art"  # a name to escape
    art.mkdir()
    Image.new("RGB", (30, 20), BLUE).save(art / "sprinter.png")
    Image.new("RGB", (30, 20), GREEN).save(art / "zombiedog.png")
    sheet = tmp_path / "sheets" / "deck.html"
    result = CliRunner().invoke(
        cli,
        ["proxies", 'name:sprinter or name:"zombie dog"', "--images", str(art), "--out", str(sheet),
         "--db", str(sample_db_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = sheet.read_text(encoding="utf-8")
    assert "file:" not in html
    sources = lxml.html.fromstring(html).xpath("//img/@src")
    assert sorted(sources) == ["../card%20art/sprinter.png", "../card%20art/zombiedog.png"]
    for source in sources:
        assert (sheet.parent / unquote(source)).resolve().is_file()
