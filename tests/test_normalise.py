"""The normaliser on Zombie CCG card data: mapping, cleaning, strict validation, locations."""

from __future__ import annotations

from pathlib import Path

import pytest

from zcards.cards.model import CARD_FIELDS, ZOMBIE_COLUMNS
from zcards.cards.normalise import CardDataError, parse_card_data, read_card_file
from zcards.cards.table import HeaderMap, ProblemLog, TableNormaliser
from zcards.errors import ZcardsError
from zcards.resources import BUNDLED_SET

HEADER = "\t".join(ZOMBIE_COLUMNS)
ZOMBIE = "\t".join(
    ["Meat Stalker", "alpha", "meatstalker", "Zombie", "Rage", "", "3", ""]
    + ["Fast, Fierce", "2 Fast, 1 tough", "", "R", "Fast."]
)
SURVIVOR = (
    "Kyle Bjorn\talpha\tkylebjorn\tSurvivor\t\t2\t3\t3\t\t\tMedic\tr\tHe has done this before."
)


def parse(*lines: str, newline: str = "\n"):
    return parse_card_data(newline.join(lines).encode(), "cards.txt")


def test_bundled_set_is_strict_zombie_data_without_problems() -> None:
    parsed = parse_card_data(BUNDLED_SET.read_bytes(), str(BUNDLED_SET))
    assert parsed.zombie
    assert parsed.problems == [] and parsed.warnings == []
    names = {card.name for card in parsed.cards}
    assert {"Gross Ghoul", "Meat Stalker", "Kyle Bjorn"} <= names


def test_values_are_typed_and_canonical() -> None:
    zombie, survivor = parse(HEADER, ZOMBIE, SURVIVOR).cards
    assert zombie.keywords == ("Fast", "Fierce")
    assert zombie.requirements == {"Fast": 2, "Tough": 1}
    assert zombie.cost is None and zombie.power == 3
    assert (survivor.cost, survivor.power, survivor.health) == (2, 3, 3)
    assert survivor.symbols == ("Medic",)
    assert survivor.rarity == "R"
    (common,) = parse(HEADER, ZOMBIE.replace("\tR\t", "\tCommon\t")).cards
    assert common.rarity == "C"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_endings_and_trailing_tabs(newline: str) -> None:
    parsed = parse(HEADER + "\t", ZOMBIE + "\t\t", "", SURVIVOR + "\t", newline=newline)
    assert parsed.problems == []
    assert [row.line for row in parsed.rows] == [2, 4]


def test_header_is_case_insensitive_with_aliases() -> None:
    header = "\t".join(
        ["NAME", "set", "Imagefile", "type", "FACTION", "cost", "Strength", "HP"]
        + ["Keywords", "Reqs", "Symbols", "Rarity", "Card Text"]
    )
    (card,) = parse(header, ZOMBIE).cards
    assert card.power == 3 and card.text == "Fast." and card.requirements["Fast"] == 2


def test_unknown_columns_are_kept_as_extra() -> None:
    (card,) = parse(HEADER + "\tArtist", ZOMBIE + "\tJane Doe").cards
    assert card.extra == {"Artist": "Jane Doe"}
    assert card.to_lackey_fields()["Artist"] == "Jane Doe"


def test_utf8_bom_and_cp1252(tmp_path: Path) -> None:
    row = ZOMBIE.replace("Fast.", "Can\u2019t stop.")
    text = f"{HEADER}\n{row}\n"
    bom = parse_card_data(b"\xef\xbb\xbf" + text.encode(), "bom.txt")
    assert bom.columns[0] == "Name" and bom.warnings == []
    legacy = parse_card_data(text.encode("cp1252"), "old.txt")
    assert legacy.cards[0].text == "Can\u2019t stop."
    (warning,) = legacy.warnings
    assert (warning.location.file, warning.location.line) == ("old.txt", 2)


def test_bad_rows_name_file_line_and_column() -> None:
    parsed = parse(
        HEADER,
        ZOMBIE,
        "Short Row\talpha\tshort\tZombie",
        SURVIVOR.replace("\t2\t3\t3\t", "\ttwo\t3\t3\t").replace("Kyle", "Kim"),
        ZOMBIE.replace("Rage", "Hord").replace("Meat", "Bone"),
        ZOMBIE.replace("Fast, Fierce", "Fats").replace("Meat", "Rot"),
        ZOMBIE,
    )
    found = {(p.location.line, p.location.column): p.message for p in parsed.problems}
    assert found[(3, 5)] == "row has 4 fields, the header has 13"
    assert found[(4, "Cost")] == "Cost 'two' is not a whole number"
    assert found[(5, "Faction")] == "unknown faction 'Hord'; did you mean 'Horde'?"
    assert found[(6, "Keywords")] == "unknown keyword 'Fats'; did you mean 'Fast'?"
    assert "duplicate card 'Meat Stalker'" in found[(7, "Name")]
    assert "first at line 2" in found[(7, "Name")]
    assert all(p.location.file == "cards.txt" for p in parsed.problems)
    assert [row.line for row in parsed.rows] == [2]


def test_enumerations_without_a_close_match_list_the_choices() -> None:
    parsed = parse(HEADER, ZOMBIE.replace("Zombie", "Spaceship"))
    (problem,) = parsed.problems
    assert problem.message == ("unknown type 'Spaceship' (expected one of Zombie, Survivor, Item)")


def test_requirement_syntax_error_is_located() -> None:
    parsed = parse(HEADER, ZOMBIE.replace("2 Fast, 1 tough", "lots of Fast"))
    (problem,) = parsed.problems
    assert problem.location.column == "Requirements"
    assert "'lots of Fast'" in problem.message


def test_read_card_file_raises_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    rows = [HEADER, ZOMBIE.replace("\tR\t", "\tX\t"), ZOMBIE.replace("\t3\t", "\t-1\t")]
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(CardDataError) as caught:
        read_card_file(path)
    assert [p.location.line for p in caught.value.problems] == [2, 3]
    assert str(path) in str(caught.value) and "line 3" in str(caught.value)


def test_header_must_start_with_name_set_imagefile() -> None:
    with pytest.raises(ZcardsError) as caught:
        parse("Name\tImageFile\tSet", "a\tb\tc")
    assert caught.value.location.line == 1 and caught.value.location.column == 2
    assert "expected 'Set'" in caught.value.message


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ZcardsError, match="cannot read card data"):
        read_card_file(tmp_path / "nope.txt")


def test_stored_rows_are_exactly_what_the_cards_table_holds() -> None:
    """The importer writes ``stored`` as it is, so it must equal ``Card.to_row()``."""
    parsed = parse(HEADER + "\tArtist", ZOMBIE + "\tJane Doe", SURVIVOR + "\t")
    assert [dict(zip(CARD_FIELDS, row, strict=True)) for row in parsed.stored] == [
        card.to_row() for card in parsed.cards
    ]
    zombie = dict(zip(CARD_FIELDS, parsed.stored[0], strict=True))
    assert zombie["keywords"] == '["Fast", "Fierce"]'
    assert zombie["requirements"] == '{"Fast": 2, "Tough": 1}'
    assert zombie["extra"] == '{"Artist": "Jane Doe"}' and zombie["cost"] is None


def test_a_bad_value_down_a_column_is_reported_at_every_row() -> None:
    rows = [ZOMBIE.replace("Meat", f"Meat{i}").replace("Rage", "Rag") for i in range(3)]
    parsed = parse(HEADER, *rows, SURVIVOR)
    where = [(p.location.line, p.location.column) for p in parsed.problems]
    assert where == [(2, "Faction"), (3, "Faction"), (4, "Faction")]
    assert {p.message for p in parsed.problems} == {"unknown faction 'Rag'; did you mean 'Rage'?"}
    assert [row.line for row in parsed.rows] == [5]


def test_a_bad_value_is_reported_in_every_chunk_it_comes_back_in() -> None:
    """Converted cells are remembered from one chunk of a file to the next, bad ones too."""
    header = HeaderMap(HEADER.split("\t"), "cards.txt")
    table = TableNormaliser(header, "cards.txt", None, ProblemLog(None))
    bad = ZOMBIE.replace("Rage", "Rag")
    first = table.chunk([2, 3], [bad.replace("Meat", "Meat1"), SURVIVOR])
    second = table.chunk([4, 5], [ZOMBIE, bad.replace("Meat", "Meat2")])
    assert [(p.location.line, p.location.column) for p in table.problems] == [
        (2, "Faction"),
        (5, "Faction"),
    ]
    assert first.lines == [3] and second.lines == [4]
    assert list(second.columns[4]) == ["Rage"]  # the faction column of the good row


def test_whitespace_rows_are_skipped_and_an_empty_name_is_a_bad_row() -> None:
    blank = "\t".join([" "] * len(ZOMBIE_COLUMNS))
    nameless = ZOMBIE.replace("Meat Stalker", " ")
    parsed = parse(HEADER, ZOMBIE, blank, nameless, SURVIVOR)
    assert [row.line for row in parsed.rows] == [2, 5]
    problems = [(p.location.line, p.location.column, p.message) for p in parsed.problems]
    assert problems == [(4, "Name", "Name is empty")]
