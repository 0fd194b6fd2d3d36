"""The renderer reads the card art folder, the render cache's pictures and zcards' own files,
nothing else.

Card art is untrusted: an SVG saved as ``sprinter.png`` would be rendered as SVG by WeasyPrint,
and an SVG can name any file or host. Two walls: art reaches the renderer only after Pillow read
it as the picture its extension names (an SVG is not), and the renderer's fetcher refuses any
file outside its folders. Real renders, read back pixel by pixel: a picture from outside the
art folder (or through a symbolic link) never shows, and no request goes out. The HTML proxy
sheet carries its pictures inline, never an absolute ``file://`` path.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import lxml.html
from click.testing import CliRunner
from PIL import Image
from pytest_httpserver import HTTPServer

from zcards.cards.model import Card
from zcards.cli import cli
from zcards.publish.cardface import FAST_PDF, render_faces
from zcards.publish.raster import rasterise
from zcards.publish.rendering import render_document

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
    report = render_faces(chosen, tmp_path / "out", dpi=DPI, art_dir=art, cache_dir=None)
    colours = dict(
        zip(("sprinter", "dog", "spitter", "shotgun"), map(_art_colour, report.paths), strict=True)
    )
    for colour in colours.values():  # each card shows its placeholder, never the outside picture
        assert not any(_near(colour, other) for other in (RED, GREEN, BLUE)), colours
    assert [problem.split(":")[0] for problem in report.art_problems] == [
        "art sprinter.png",
        "art zombiedog.png",
        "art spitter.png",
    ]  # an SVG is not a PNG; the link out of the folder is not art at all
    assert httpserver.log == [], "the renderer made a network request"


def test_the_renderer_reads_no_file_outside_its_folders(tmp_path: Path) -> None:
    allowed, outside = tmp_path / "art", tmp_path / "private"
    for folder, colour in ((allowed, GREEN), (outside, RED)):
        folder.mkdir()
        Image.new("RGB", (30, 20), colour).save(folder / "picture.png")
    (allowed / "link.png").symlink_to(outside / "picture.png")

    def drawn(source: Path) -> tuple[int, int, int]:
        html = (
            "<style>@page { size: 100px 100px; margin: 0 }</style>"
            f'<img src="{source.as_uri()}" style="display: block; width: 100px; height: 100px">'
        )
        pdf = render_document(html, [allowed]).write_pdf(**FAST_PDF)
        (page,) = rasterise(pdf, 72)
        return page.getpixel((40, 40))

    assert _near(drawn(allowed / "picture.png"), GREEN)
    assert drawn(outside / "picture.png") == (255, 255, 255)
    assert drawn(allowed / "link.png") == (255, 255, 255)  # the link is resolved first


def test_the_html_sheet_holds_its_pictures_inline(sample_db_path: Path, tmp_path: Path) -> None:
    art = tmp_path / "card art"  # a name to escape
    art.mkdir()
    Image.new("RGB", (30, 20), BLUE).save(art / "sprinter.png")
    Image.new("RGB", (30, 20), GREEN).save(art / "zombiedog.png")
    sheet = tmp_path / "sheets" / "deck.html"
    result = CliRunner().invoke(
        cli,
        ["proxies", 'name:sprinter or name:"zombie dog"', "--art", str(art), "--out", str(sheet),
         "--db", str(sample_db_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = sheet.read_text(encoding="utf-8")
    assert "file:" not in html and str(tmp_path) not in html
    sources = lxml.html.fromstring(html).xpath("//img/@src")
    assert len(sources) == 2
    colours = set()
    for source in sources:
        assert source.startswith("data:image/jpeg;base64,")
        with Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))) as picture:
            colours.add(picture.convert("RGB").getpixel((5, 5)))
    assert any(_near(colour, BLUE) for colour in colours)
    assert any(_near(colour, GREEN) for colour in colours)
