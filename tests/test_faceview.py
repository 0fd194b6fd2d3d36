"""What a face shows (its view-model), and keywords printed once: read back from the rendered
PDF of every card of the bundled set."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pypdf
import pytest

from zcards.cards.model import Card
from zcards.publish.cardart import Assets
from zcards.publish.cardface import card_document, lay_out_faces, placed
from zcards.publish.facelayout import FaceLayout
from zcards.publish.faceview import TextSpan, face_view
from zcards.publish.layout import CARD_SIZES
from zcards.store.db import iter_cards, open_db


@pytest.fixture(scope="module")
def cards(sample_db_path: Path) -> list[Card]:
    return list(iter_cards(open_db(sample_db_path)))


def _by_name(cards: list[Card], name: str) -> Card:
    return next(card for card in cards if card.name == name)


def _words(text: str, word: str) -> int:
    return len(re.findall(rf"\b{re.escape(word)}\b", text, flags=re.IGNORECASE))


def test_the_view_holds_what_the_face_shows(cards: list[Card]) -> None:
    view = face_view(_by_name(cards, "Nurse Ratchet"))
    assert (view.name, view.cost, view.power, view.health) == ("Nurse Ratchet", "2", "1", "2")
    assert (view.type_line, view.palette, view.emblem, view.figure) == (
        "Survivor",
        "survivor",
        "survivor",
        "survivor",
    )
    assert view.terms == () and view.art is None
    assert view.paragraphs[0][:2] == (
        TextSpan("Medic", "term", "Medic"),
        TextSpan(
            " (Recoup - Spend this survivor: remove a wound counter from target survivor).",
            "reminder",
        ),
    )
    zombie = face_view(_by_name(cards, "Feral Teenager"))
    assert (zombie.cost, zombie.power, zombie.health, zombie.palette) == ("", "1", "", "rage")
    assert [run.style for run in zombie.paragraphs[0]] == ["term", "term", ""]


def test_the_text_is_kept_word_for_word(cards: list[Card]) -> None:
    for card in cards:
        shown = "".join(run.text for paragraph in face_view(card).paragraphs for run in paragraph)
        assert shown == card.text.replace("\n", "")


def test_keywords_the_text_does_not_name_get_their_own_line(cards: list[Card]) -> None:
    card = dataclasses.replace(
        _by_name(cards, "Sprinter"), keywords=("Fast", "Tough"), text="Fast. It runs."
    )
    view = face_view(card)
    assert view.terms == (TextSpan("Tough", "term"),)
    assert view.paragraphs[0] == (TextSpan("Fast.", "term"), TextSpan(" It runs."))


@pytest.mark.slow  # the whole bundled set rendered to PDF and read back
def test_every_keyword_is_printed_once(cards: list[Card], tmp_path: Path) -> None:
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    assets = Assets(tmp_path / "assets")
    pages = [placed(face_view(card), i, {}, layout, assets) for i, card in enumerate(cards)]
    pdf = lay_out_faces(card_document(pages, layout), layout).write_pdf()
    texts = [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    checked = 0
    for card, text in zip(cards, texts, strict=True):
        requires = ", ".join(f"{n} {k}" for k, n in card.requirements.items())
        for keyword in [*card.keywords, *card.symbols]:
            # As often as the rules text names it (at least once), plus the requirement line
            # and the name ("Field Medic Sanchez").
            expected = max(_words(card.text, keyword), 1) + _words(requires, keyword)
            expected += _words(card.name, keyword)
            assert _words(text, keyword) == expected, (card.name, keyword, text)
            checked += 1
    assert checked > 60  # the bundled set's keywords and symbols, every one of them
