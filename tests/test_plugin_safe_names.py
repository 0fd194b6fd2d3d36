"""The one file-name rule for card data (zcards.publish.safe_names), as exporter and renderer
use it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zcards.cards.model import Card
from zcards.publish.safe_names import (
    MAX_LENGTH,
    UniqueNames,
    image_component,
    image_stem,
    safe_component,
    sanitize_cards,
)

_PORTABLE = re.compile(r"[A-Za-z0-9 _.-]+")
_RESERVED = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in range(10))}
# Hostile material: separators, drive colons, dots, spaces, reserved names, non-ASCII.
_chars = st.sampled_from(list("./\\: ,-_aAcCoOnNuUlL1é\t")) | st.characters()
_hostile = (
    st.text(_chars, max_size=40)
    | st.text(_chars, min_size=MAX_LENGTH - 5, max_size=MAX_LENGTH + 20)  # near the length cap
    | st.sampled_from(
        ["CON", "nul.txt", "..", "../../x", "C:\\x", "a/b", "Lpt1.JPG", "", "a.jpg.", "b. .png"]
    )
)


@pytest.mark.parametrize(
    ("value", "safe"),
    [
        ("../../x", "_._x"),
        ("C:\\x", "C_x"),
        ("a/b", "a_b"),
        ("..", "x-fallback"),
        ("CON", "_CON"),
        ("nul.txt", "_nul.txt"),
        ("com1.tar.gz", "_com1.tar.gz"),
        ("front,back", "front_back"),
        ("  ", "x-fallback"),
        ("/etc/passwd", "_etc_passwd"),
        ("ok name-1.2", "ok name-1.2"),
        ("Zoë", "Zo_"),
        ("x" * 150, "x" * MAX_LENGTH),
    ],
)
def test_safe_component(value: str, safe: str) -> None:
    assert safe_component(value, "x-fallback") == safe


@given(_hostile)
def test_every_value_becomes_one_harmless_component(value: str) -> None:
    name = safe_component(value, "fallback")
    assert _PORTABLE.fullmatch(name) and len(name) <= MAX_LENGTH
    assert ".." not in name and name[0] not in " ." and name[-1] not in " ."
    assert name.split(".")[0].casefold() not in _RESERVED
    assert safe_component(name, "other") == name, "safe values stay as they are"


def test_unique_names_ignore_case_and_keep_one_name_per_original() -> None:
    names = UniqueNames()
    assert [names.name(value, "card") for value in ("img", "IMG", "img", "a/b", "a:b", "..")] == [
        "img",
        "IMG-2",
        "img",
        "a_b",
        "a_b-2",
        "card",
    ]
    long = UniqueNames()
    assert long.name("x" * 150, "card") == "x" * MAX_LENGTH
    assert long.name("x" * 160, "card") == "x" * (MAX_LENGTH - 2) + "-2"


def test_image_names_fall_back_to_the_card_name_and_report_renames() -> None:
    messages: list[str] = []
    names = UniqueNames()
    stems = [
        names.image(Card("Zombie Dog", "alpha"), messages),
        names.image(Card("Sprinter", "alpha", "../../evil"), messages),
        names.image(Card("Runner", "alpha", "Zombie Dog"), messages),
    ]
    assert stems == ["Zombie Dog", "_._evil", "Zombie Dog"]
    assert messages == ["'Sprinter' (alpha): ImageFile '../../evil' renamed to '_._evil'"]
    assert image_stem(Card("Sprinter", "alpha", "CON")) == "_CON"


@pytest.mark.parametrize(
    ("value", "stem"),
    [
        ("foo.jpg", "foo"),
        ("foo.JPEG", "foo"),
        ("foo.png.jpg", "foo"),
        ("a.jpg.", "a"),
        ("b. .png", "b"),
        ("nul.jpg", "_nul"),
        ("v1.2", "v1.2"),
        (".jpg", "jpg"),
        ("archive.tar", "archive.tar"),
    ],
)
def test_image_names_drop_the_extension_lackey_adds_back(value: str, stem: str) -> None:
    assert image_component(value) == stem
    assert image_component(stem) == stem


_cards = st.lists(
    st.builds(Card, name=_hostile.filter(str.strip), set_name=_hostile, image_file=_hostile),
    max_size=12,
)


@given(_cards)
def test_the_renderer_names_sanitised_cards_exactly_as_their_card_data_says(
    cards: list[Card],
) -> None:
    # The exporter renders sanitised cards per set; naming them again must change nothing,
    # or an image would land where the card data does not point.
    safe = sanitize_cards(cards).cards
    for set_name in {card.set_name for card in safe}:
        names, messages = UniqueNames(), []
        in_set = [card for card in safe if card.set_name == set_name]
        assert [names.image(card, messages) for card in in_set] == [c.image_file for c in in_set]
        assert messages == []
        assert safe_component(set_name, "set") == set_name


def test_an_image_file_with_a_back_names_the_front_face() -> None:
    assert image_stem(Card("Two Faced", "alpha", image_file="front,back")) == "front"
    assert image_stem(Card("Two Faced", "alpha", image_file=" ,back")) == "Two Faced"
