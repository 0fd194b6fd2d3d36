"""The generic card face of any game: every character drawn (a chain of fonts), number
columns as big badges, the text shrunk until it fits, and a face it still does not fit
named by the export."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageFont

from zcards.game.gamefile import load_game
from zcards.ingest.importer import import_sources
from zcards.publish.fonts import font_chain
from zcards.publish.generic_art import BADGE, CARD_SIZE, render_generic_face
from zcards.publish.plugin_export import export_plugin

LORCANA_TEXT = "Shift 7 (You may pay 7 ⬡ to play this on top of one of your characters.) ⟳ ◊ ¤"
DEFINITION = """[game]
name = "skirmish"
face = "generic"
back = "generic"

[[columns]]
name = "Name"
field = "name"

[[columns]]
name = "Set"
field = "set_name"

[[columns]]
name = "ImageFile"
field = "image_file"

[[columns]]
name = "Strength"
type = "integer"

[[columns]]
name = "Text"
field = "text"
"""


def test_another_game_s_symbols_are_drawn_with_a_font_that_has_them() -> None:
    chain = font_chain(12)
    assert chain.missing(LORCANA_TEXT) == set()
    for symbol in "⬡⟳◊":
        assert isinstance(chain.font_for(symbol), ImageFont.FreeTypeFont)
    assert chain.missing("⛉") == {"⛉"}  # no installed font has it: said, not hidden


def test_numbers_are_badges_and_long_text_shrinks(tmp_path: Path) -> None:
    fields = [("Text", LORCANA_TEXT * 3)]
    face = render_generic_face(tmp_path / "a.jpg", "Te Kā", fields, [("Strength", "12")])
    assert face.fits and face.missing == set()
    image = Image.open(tmp_path / "a.jpg").convert("RGB")
    badge_top = CARD_SIZE[1] - 12 - BADGE - 12  # one badge, centred at the bottom
    centre = (CARD_SIZE[0] // 2 - 12, badge_top + BADGE // 2 + 14)  # inside it, below the digits
    assert sum(image.getpixel(centre)) < 300  # the dark badge, not paper
    plain = render_generic_face(tmp_path / "b.jpg", "Te Kā", fields)
    assert plain.fits
    assert sum(Image.open(tmp_path / "b.jpg").convert("RGB").getpixel(centre)) > 600


def test_a_face_its_text_does_not_fit_is_named(tmp_path: Path) -> None:
    (tmp_path / "skirmish.toml").write_text(DEFINITION, encoding="utf-8")
    cards = tmp_path / "cards.txt"
    rows = ["Name\tSet\tImageFile\tStrength\tText", "Knight\tCore\tknight\t3\tBrave ⬡."]
    rows.append("Chatterbox\tCore\tchatterbox\t1\t" + "Talks on and on. " * 200)
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    import_sources(tmp_path / "cards.db", [str(cards)], game=load_game(tmp_path / "skirmish.toml"))
    report = export_plugin(tmp_path / "cards.db", tmp_path / "out")
    assert "1 card faces cut their text at the smallest size: 'Chatterbox'" in report.messages
    assert (report.plugin_dir / "sets" / "setimages" / "Core" / "knight.jpg").is_file()
