"""The bundled ``alpha`` set and starter decks, checked straight from the files.

The set is parsed with the csv module, not with zcards' importer, so a normaliser that
silently "fixes" bad data cannot hide a defect in the shipped file.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from pathlib import Path

import pytest

from zcards.cards.model import (
    CARD_TYPES,
    FACTIONS,
    KEYWORDS,
    RARITIES,
    SYMBOLS,
    ZOMBIE_COLUMNS,
    parse_requirements,
)
from zcards.resources import BUNDLED_SET, starter_decks

MAX_TEXT = 220
MAX_COPIES = 4
DECK_SIZE = 40
OPENING_BUDGET = 6
DECK_LINE = re.compile(r"^(\d+) (\S.*\S|\S)$")


def split_list(field: str) -> list[str]:
    return [part.strip() for part in field.split(",") if part.strip()]


@pytest.fixture(scope="module")
def raw() -> bytes:
    return BUNDLED_SET.read_bytes()


@pytest.fixture(scope="module")
def rows(raw: bytes) -> list[dict[str, str]]:
    reader = csv.reader(
        io.StringIO(raw.decode("utf-8"), newline=""), delimiter="\t", quoting=csv.QUOTE_NONE
    )
    header, *body = list(reader)
    assert tuple(header) == ZOMBIE_COLUMNS
    for number, fields in enumerate(body, start=2):
        assert len(fields) == len(header), f"line {number}: {len(fields)} fields"
    return [dict(zip(header, fields, strict=True)) for fields in body]


@pytest.fixture(scope="module")
def by_name(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {row["Name"]: row for row in rows}


def of_type(rows: list[dict[str, str]], card_type: str) -> list[dict[str, str]]:
    return [row for row in rows if row["Type"] == card_type]


def test_file_is_utf8_lf_without_bom(raw: bytes) -> None:
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert b"\r" not in raw
    assert raw.endswith(b"\n") and not raw.endswith(b"\n\n")
    raw.decode("utf-8")  # raises on a stray cp1252 byte


def test_header_is_exact(raw: bytes) -> None:
    assert raw.split(b"\n", 1)[0].decode() == "\t".join(ZOMBIE_COLUMNS)


def test_names_and_image_files(rows: list[dict[str, str]]) -> None:
    names = [row["Name"] for row in rows]
    images = [row["ImageFile"] for row in rows]
    assert len(set(names)) == len(names), Counter(names).most_common(3)
    assert len(set(images)) == len(images), Counter(images).most_common(3)
    for row in rows:
        assert row["Set"] == "alpha"
        assert row["Name"] == row["Name"].strip() and row["Name"]
        assert ":" not in row["Name"] and " -> " not in row["Name"]
        assert re.fullmatch(r"[a-z0-9]+", row["ImageFile"]), row["ImageFile"]
        assert all(value == value.strip() for value in row.values()), row["Name"]


def test_enumerations(rows: list[dict[str, str]]) -> None:
    for row in rows:
        assert row["Type"] in CARD_TYPES, row["Name"]
        assert row["Rarity"] in RARITIES, row["Name"]
        assert row["Faction"] in (*FACTIONS, ""), row["Name"]
        assert set(split_list(row["Keywords"])) <= set(KEYWORDS), row["Name"]
        assert set(split_list(row["Symbols"])) <= set(SYMBOLS), row["Name"]
        assert 0 < len(row["Text"]) <= MAX_TEXT, row["Name"]


def test_zombie_fields(rows: list[dict[str, str]]) -> None:
    for row in of_type(rows, "Zombie"):
        name = row["Name"]
        assert row["Faction"] in FACTIONS, name
        assert row["Cost"] == "" and row["Health"] == "" and row["Symbols"] == "", name
        assert 1 <= int(row["Power"]) <= 6, name
        # Printed convention: the text opens with the zombie's keywords, so players see them.
        keywords = split_list(row["Keywords"])
        for keyword in keywords:
            assert keyword in row["Text"], f"{name}: text does not mention {keyword}"
        assert not keywords or row["Text"].startswith(keywords[0]), name


def test_survivor_fields(rows: list[dict[str, str]]) -> None:
    for row in of_type(rows, "Survivor"):
        name = row["Name"]
        assert row["Faction"] == "" and row["Keywords"] == "" and row["Requirements"] == "", name
        assert 0 <= int(row["Cost"]) <= 4, name
        assert 1 <= int(row["Power"]) <= 5, name
        assert 1 <= int(row["Health"]) <= 4, name
        for symbol in split_list(row["Symbols"]):
            assert symbol in row["Text"], f"{name}: text does not mention {symbol}"


def test_item_fields(rows: list[dict[str, str]]) -> None:
    items = of_type(rows, "Item")
    for row in items:
        name = row["Name"]
        assert int(row["Cost"]) >= 0, name
        assert not any(
            row[column]
            for column in ("Faction", "Power", "Health", "Keywords", "Requirements", "Symbols")
        ), name
        assert row["Text"].startswith(("Permanent.", "One-shot.")), name
    kinds = Counter(row["Text"].split(".", 1)[0] for row in items)
    assert kinds["Permanent"] >= 3 and kinds["One-shot"] >= 3, kinds


def test_requirements_name_keywords_only(rows: list[dict[str, str]]) -> None:
    for row in rows:
        requirements = parse_requirements(row["Requirements"])
        if row["Type"] != "Zombie":
            assert not requirements, row["Name"]
        assert set(requirements) <= set(KEYWORDS), row["Name"]
        assert all(count >= 1 for count in requirements.values()), row["Name"]


def test_counts(rows: list[dict[str, str]]) -> None:
    zombies = of_type(rows, "Zombie")
    survivors = of_type(rows, "Survivor")
    assert len(rows) >= 90
    assert len(zombies) >= 40
    assert len(survivors) >= 25
    assert len(of_type(rows, "Item")) >= 12
    factions = Counter(row["Faction"] for row in zombies)
    assert all(factions[faction] >= 8 for faction in FACTIONS), factions
    keywords = Counter(k for row in zombies for k in split_list(row["Keywords"]))
    assert all(keywords[keyword] >= 3 for keyword in KEYWORDS), keywords
    assert sum(1 for row in zombies if row["Requirements"]) >= 6
    symbols = Counter(s for row in survivors for s in split_list(row["Symbols"]))
    assert symbols["Medic"] >= 4 and symbols["Scavenger"] >= 4, symbols
    assert set(Counter(row["Rarity"] for row in rows)) == set(RARITIES)


def test_named_cards(by_name: dict[str, dict[str, str]]) -> None:
    assert by_name["Gross Ghoul"]["Type"] == "Zombie"
    assert by_name["Meat Stalker"]["Type"] == "Zombie"
    assert by_name["Kyle Bjorn"]["Type"] == "Survivor"


def read_deck_file(path: Path) -> tuple[list[str], Counter[str]]:
    """Comment lines and ``N Card Name`` entries of a plain-text starter deck."""
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    deck: Counter[str] = Counter()
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        match = DECK_LINE.match(line)
        assert match, f"{path.name}:{number}: {line!r} is not 'N Card Name'"
        assert match.group(2) not in deck, f"{path.name}:{number}: {match.group(2)} listed twice"
        deck[match.group(2)] = int(match.group(1))
    return comments, deck


def unreachable_zombies(deck: Counter[str], cards: dict[str, dict[str, str]]) -> set[str]:
    """Zombies whose requirements the deck's own face-up zombies can never meet.

    Starting from requirement-free zombies, a zombie becomes playable once the keyword
    copies of zombies already playable cover its requirements.
    """
    zombies = {name for name in deck if cards[name]["Type"] == "Zombie"}
    needs = {name: parse_requirements(cards[name]["Requirements"]) for name in zombies}
    reachable: set[str] = set()
    while True:
        supply = Counter({k: 0 for k in KEYWORDS})
        for name in reachable:
            for keyword in split_list(cards[name]["Keywords"]):
                supply[keyword] += deck[name]
        new = {
            name
            for name in zombies - reachable
            if all(supply[k] >= n for k, n in needs[name].items())
        }
        if not new:
            return zombies - reachable
        reachable |= new


DECKS = starter_decks()


def test_at_least_two_starter_decks() -> None:
    assert len(DECKS) >= 2


@pytest.mark.parametrize("path", DECKS, ids=[p.stem for p in DECKS])
def test_starter_deck_is_playable(path: Path, by_name: dict[str, dict[str, str]]) -> None:
    comments, deck = read_deck_file(path)
    assert comments and "40 cards" in comments[0] and "at most 4 copies" in comments[0]
    assert sum(deck.values()) == DECK_SIZE
    assert set(deck) <= set(by_name), set(deck) - set(by_name)
    assert max(deck.values()) <= MAX_COPIES
    types = Counter()
    for name, copies in deck.items():
        types[by_name[name]["Type"]] += copies
    assert types["Survivor"] >= 8 and types["Zombie"] >= 12 and types["Item"] >= 1, types
    survivor_costs = sorted(
        int(by_name[name]["Cost"])
        for name, copies in deck.items()
        for _ in range(copies)
        if by_name[name]["Type"] == "Survivor"
    )
    assert sum(survivor_costs[:2]) <= OPENING_BUDGET
    assert unreachable_zombies(deck, by_name) == set()
    assert any(by_name[name]["Requirements"] for name in deck), "no upgrade target"


def test_reachability_check_rejects_an_unbuildable_deck(
    by_name: dict[str, dict[str, str]],
) -> None:
    """Guards the guard: Project Lazarus needs Sentient zombies this deck does not have."""
    deck = Counter({"Sprinter": 4, "Project Lazarus": 1})
    assert unreachable_zombies(deck, by_name) == {"Project Lazarus"}


def test_imported_database_matches_the_file(
    rows: list[dict[str, str]], sample_db_path: Path
) -> None:
    from zcards.store.db import iter_cards, open_db

    db = open_db(sample_db_path)
    assert db["cards"].count == len(rows)
    cards = list(iter_cards(db))
    assert sorted(card.name for card in cards) == sorted(row["Name"] for row in rows)
    kyle = next(card for card in cards if card.name == "Kyle Bjorn")
    assert (kyle.type, kyle.set_name) == ("Survivor", "alpha")
