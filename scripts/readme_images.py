"""Regenerate the README's pictures from the bundled set: a card face and a proxy sheet.

* ``docs/images/card-face.png``: one card as the plugin draws it (150 dpi), beside the same
  card 100 pixels wide, as Lackey shows it on the table;
* ``docs/images/proxy-sheet-letter.png``: the first page of the bundled set's proxy sheets
  as ``zcards build`` writes them (US Letter, nine cards, cut marks), at 100 dpi.

No art folder is used, so the art boxes show the placeholders drawn from each card's faction
and type. Run after changing the face template or the sheet layout, and commit the result:

    python scripts/readme_images.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image

from zcards.publish.cardface import render_faces
from zcards.publish.proxies import write_proxies
from zcards.store.db import iter_cards, open_db

ROOT = Path(__file__).resolve().parents[1]
CARD = "Nurse Ratchet"  # a survivor: cost, power and health all show
TABLE_PX = 100
SHEET_DPI = 100
GAP = 24


def card_face(cards: list, folder: Path, out: Path) -> Path:
    chosen = [card for card in cards if card.name == CARD]
    (path,) = render_faces(chosen, folder, dpi=150, cache_dir=None).paths
    with Image.open(path) as image:
        face = image.convert("RGB")
    small = face.resize(
        (TABLE_PX, round(face.height * TABLE_PX / face.width)), Image.Resampling.LANCZOS
    )
    picture = Image.new("RGB", (face.width + GAP + small.width, face.height), "white")
    picture.paste(face, (0, 0))
    picture.paste(small, (face.width + GAP, face.height - small.height))
    target = out / "card-face.png"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    cards = list(iter_cards(open_db(None)))  # the bundled set
    with tempfile.TemporaryDirectory() as temp:
        for written in (
            card_face(cards, Path(temp), args.out),
            proxy_sheet(cards, Path(temp), args.out),
        ):
            print(f"wrote {written}")


if __name__ == "__main__":
    main()
