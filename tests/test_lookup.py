"""Forgiving card lookup: each step, and "did you mean" instead of a guess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlite_utils

from zcards.cli import main
from zcards.ingest.importer import import_sources
from zcards.query.lookup import EXACT, FUZZY, NORMALISED, PREFIX, CardLookup, normalise_name


@pytest.fixture(scope="module")
def index(sample_db: sqlite_utils.Database) -> CardLookup:
    return CardLookup(sample_db)


@pytest.mark.parametrize(
    ("query", "name", "method"),
    [
        ("Gross Ghoul", "Gross Ghoul", EXACT),
        ("gross ghoul", "Gross Ghoul", NORMALISED),
        ("  GROSS   ghoul ", "Gross Ghoul", NORMALISED),
        ("Zoe Park", "Zoë Park", NORMALISED),
        ("dr amelia stone", "Dr. Amelia Stone", NORMALISED),
        ("blood mad brute", "Blood-Mad Brute", NORMALISED),
        ("Shamb", "Shambler", PREFIX),
        ("dr amelia", "Dr. Amelia Stone", PREFIX),
        ("Grss Ghoul", "Gross Ghoul", FUZZY),
        ("shamblr", "Shambler", FUZZY),
    ],
)
def test_lookup_steps(index: CardLookup, query: str, name: str, method: str) -> None:
    result = index.lookup(query)
    assert (result.card.name if result.card else None, result.method) == (name, method)


@pytest.mark.parametrize(
    ("query", "suggestions"),
    [
        ("ghoul", ("Glowing Ghoul", "Gross Ghoul")),
        ("zombie", ("Zombie Bear", "Zombie Dog", "Zombie Rat Pack")),
        ("fire", ("Fire Axe", "Firecrackers", "Firefighter Bo")),
        ("xyzzy plugh", ()),
    ],
)
def test_ambiguous_or_unknown_names_are_not_guessed(
    index: CardLookup, query: str, suggestions: tuple[str, ...]
) -> None:
    result = index.lookup(query)
    assert result.card is None and result.suggestions == suggestions


def test_normalise_name() -> None:
    assert normalise_name("  Beater’s  Bat ") == normalise_name("beaters bat") == "beaters bat"
    assert normalise_name("Ça—Va") == "ca va"


def test_a_name_in_two_sets_picks_the_asked_for_printing(
    sample_db_copy: Path, tmp_path: Path
) -> None:
    beta = tmp_path / "beta.txt"
    header = "Name\tSet\tImageFile\tType\tFaction\tCost\tPower\tHealth\tKeywords\tRequirements"
    beta.write_text(
        f"{header}\tSymbols\tRarity\tText\n"
        "Gross Ghoul\tbeta\tgrossghoul2\tZombie\tHorde\t\t2\t\tTough\t\t\tU\tReprint.\n"
    )
    import_sources(sample_db_copy, [str(beta)])
    index = CardLookup(sqlite_utils.Database(sample_db_copy))
    assert index.lookup("Gross Ghoul", "beta").card.image_file == "grossghoul2"
    assert index.lookup("gross ghoul", "alpha").card.image_file == "grossghoul"
    ambiguous = index.lookup("ghoul")
    assert ambiguous.card is None
    assert "did you mean: Glowing Ghoul; Gross Ghoul" in ambiguous.explain()


def test_cli_card(sample_db_path: Path, capsys) -> None:
    main(["card", "zoe", "park", "--db", str(sample_db_path), "--format", "json"])
    captured = capsys.readouterr()
    assert json.loads(captured.out)["name"] == "Zoë Park"
    assert "normalised match" in captured.err
    main(["card", "Gross Ghoul", "--db", str(sample_db_path)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Name", "Gross", "Ghoul"] and lines[-1].startswith("Text")
    with pytest.raises(SystemExit) as exited:
        main(["card", "ghoul", "--db", str(sample_db_path)])
    assert exited.value.code == 1
    assert "did you mean: Glowing Ghoul; Gross Ghoul" in capsys.readouterr().err
