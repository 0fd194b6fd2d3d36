"""Regenerate the README's pictures from the bundled set: a card face, a proxy sheet and the
replay page.

* ``docs/images/card-face.png``: one card as the plugin draws it (150 dpi), beside the same
  card 100 pixels wide, as Lackey shows it on the table;
* ``docs/images/proxy-sheet-letter.png``: the first page of the bundled set's proxy sheets
  as ``zcards build`` writes them (US Letter, nine cards, cut marks), at 100 dpi;
* ``docs/images/replay-page.png``: ``zcards replay examples/game.txt`` in Chromium (the
  system's, driven by playwright), stepped to the game's violation with the ``n`` key;
* ``docs/images/generic-face.png``: another game's card (made up, with Lorcana's columns and
  symbols) on the generic face, full size and 100 pixels wide.

No art folder is used, so the art boxes show the placeholders drawn from each card's faction
and type. Run after changing the face template or the sheet layout, and commit the result:

    python scripts/readme_images.py [--out docs/images] [--only card-face|generic-face|...]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pypdfium2
from PIL import Image

from zcards.publish.cardface import render_faces
from zcards.publish.generic_art import render_generic_face
from zcards.publish.proxies import write_proxies
from zcards.rules.page import write_replay
from zcards.store.db import iter_cards, open_db

ROOT = Path(__file__).resolve().parents[1]
CARD = "Nurse Ratchet"  # a survivor: cost, power and health all show
TABLE_PX = 100
SHEET_DPI = 100
GAP = 24


def card_face(cards: list, folder: Path, out: Path) -> Path:
    chosen = [card for card in cards if card.name == CARD]
    (path,) = render_faces(chosen, folder, dpi=150, cache_dir=None).paths
    return _beside_small(path, out / "card-face.png")


def generic_face(_cards: list, folder: Path, out: Path) -> Path:
    fields = [
        ("type", "Storyborn, Ally"),
        ("Color", "Amber"),
        ("Inkwell", "True"),
        ("Text", "⟳ — Gain 1 ◊. Shift 3 (You may pay 3 ⬡ to play this on top of one of "
         "your characters named Lantern-Keeper.) LIGHT THE WAY Your other characters get "
         "+1 ¤ while this one is exerted."),
    ]  # fmt: skip
    badges = [("Cost", "3"), ("Strength", "2"), ("Willpower", "4"), ("Lore", "1")]
    path = folder / "generic.jpg"
    render_generic_face(path, "Lantern-Keeper - Wandering Guide", fields, badges)
    return _beside_small(path, out / "generic-face.png")


def _beside_small(path: Path, target: Path) -> Path:
    """The face, and the same face :data:`TABLE_PX` wide as Lackey shows it on the table."""
    with Image.open(path) as image:
        face = image.convert("RGB")
    small = face.resize(
        (TABLE_PX, round(face.height * TABLE_PX / face.width)), Image.Resampling.LANCZOS
    )
    picture = Image.new("RGB", (face.width + GAP + small.width, face.height), "white")
    picture.paste(face, (0, 0))
    picture.paste(small, (face.width + GAP, face.height - small.height))
    picture.save(target, optimize=True)
    return target


def proxy_sheet(cards: list, folder: Path, out: Path) -> Path:
    pdf = folder / "proxies.pdf"
    write_proxies(cards, pdf, paper="letter", cache_dir=None)
    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0].render(scale=SHEET_DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()
    target = out / "proxy-sheet-letter.png"
    page.save(target, optimize=True)
    return target


def replay_page(cards: list, folder: Path, out: Path) -> Path:
    from playwright.sync_api import sync_playwright

    page_file = folder / "game.html"
    write_replay(ROOT / "examples" / "game.txt", page_file, cards)
    target = out / "replay-page.png"
    with sync_playwright() as playwright:
        chromium = shutil.which("chromium") or "chromium"
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(page_file.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        page.keyboard.press("n")  # to the violation
        page.screenshot(path=str(target))
        browser.close()
    return target


PICTURES: dict[str, Callable[[list, Path, Path], Path]] = {
    "card-face": card_face,
    "generic-face": generic_face,
    "proxy-sheet": proxy_sheet,
    "replay-page": replay_page,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--only", choices=sorted(PICTURES), help="one picture (default: all)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    cards = list(iter_cards(open_db(None)))  # the bundled set
    with tempfile.TemporaryDirectory() as temp:
        for name, draw in PICTURES.items():
            if args.only in (None, name):
                print(f"wrote {draw(cards, Path(temp), args.out)}")


if __name__ == "__main__":
    main()
