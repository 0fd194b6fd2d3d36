"""Card data files: the 1 MB split, field cleaning and unique safe names (no rendering)."""

from __future__ import annotations

import pytest

from lackey_plugin.carddata import read_card_data, render_card_files
from lackey_plugin.errors import LackeyError
from zcards.cards.model import Card, card_data_columns
from zcards.publish.safe_names import sanitize_cards


def card_files(set_name: str, cards: list[Card]) -> list[tuple[str, str]]:
    return render_card_files(
        set_name, card_data_columns(cards), [c.to_lackey_fields() for c in cards]
    )


def test_a_large_set_is_split_into_files_under_one_megabyte() -> None:
    cards = [Card(f"Card {i:05d}", "big", f"big{i:05d}", text="Grr. " * 60) for i in range(8000)]
    files = card_files("big", cards)
    assert [name for name, _ in files] == ["big.txt", "big-2.txt", "big-3.txt"]
    names = []
    for _, text in files:
        data = text.encode("utf-8")
        assert len(data) < 1_000_000
        parsed = read_card_data(data)
        assert parsed.header[:3] == ["Name", "Set", "ImageFile"]
        names += [row.fields["Name"] for row in parsed.rows]
    assert names == [card.name for card in cards]


def test_breaks_in_fields_become_spaces_and_names_stay_unique_ignoring_case() -> None:
    """A line break in a card's text is written as the card data's literal \\n (import reads
    it back as one); elsewhere a TAB or line break becomes a space."""
    cards = [
        Card("Tabby\tCat", "s", "img", text="line one\nline two\r\n"),
        Card("Other", "s", "IMG"),
        Card("Third", "S", "x"),
    ]
    safe = sanitize_cards(cards)
    first, second, third = safe.cards
    assert (first.name, first.text) == ("Tabby Cat", "line one\\nline two")
    assert (first.image_file, second.image_file) == ("img", "IMG-2")
    assert (third.set_name, third.image_file) == ("S-2", "x")
    assert any("TAB/line break" in message for message in safe.messages)
    assert any("'IMG' renamed to 'IMG-2'" in message for message in safe.messages)
    text = card_files("s", safe.cards[:2])[0][1]
    assert text.count("\n") == 3 and "\r" not in text


def test_the_writer_refuses_what_would_break_the_table_or_leave_the_folder() -> None:
    columns = ["Name", "Set", "ImageFile"]
    with pytest.raises(LackeyError, match="TAB or line break"):
        render_card_files("s", columns, [{"Name": "Tabby\tCat", "Set": "s"}])
    with pytest.raises(LackeyError, match="not a plain file name"):
        render_card_files("../s", columns, [{"Name": "Cat", "Set": "../s"}])


def test_any_columns_are_written_in_the_given_order() -> None:
    rows = [{"Name": "Elsa", "Set": "TFC", "ImageFile": "elsa", "Ink": "Amethyst"}, {"Name": "X"}]
    ((name, text),) = render_card_files("TFC", ["Name", "Set", "ImageFile", "Ink"], rows)
    assert name == "TFC.txt"
    assert text == "Name\tSet\tImageFile\tInk\nElsa\tTFC\telsa\tAmethyst\nX\t\t\t\n"
