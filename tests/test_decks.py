"""Deck lists: text parsing, resolution against the sample db, conversions and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lackey_plugin.dek import DeckEntry, format_text_deck, parse_text_deck, read_deck, read_dek
from lackey_plugin.errors import LackeyError
from zcards.cli import main
from zcards.query.decks import composition, convert_deck, resolve_deck
from zcards.resources import starter_decks

MIXED = """\ufeff// a comment
# Survivors
2 Zoe Park
3\tKyle Bjorn

Zombies:
3x Gross Ghoul
  4 x shambler
1 Gross Ghoul
"""


def test_text_deck_line_forms_and_sections() -> None:
    deck = parse_text_deck(MIXED)
    assert deck.entries == (
        DeckEntry(2, "Zoe Park", "Survivors", line=3),
        DeckEntry(3, "Kyle Bjorn", "Survivors", line=4),
        DeckEntry(3, "Gross Ghoul", "Zombies", line=7),
        DeckEntry(4, "shambler", "Zombies", line=8),
        DeckEntry(1, "Gross Ghoul", "Zombies", line=9),
    )
    assert deck.total == 13 and deck.sections == ("Survivors", "Zombies")


def test_names_starting_with_digits_or_x_are_kept() -> None:
    deck = parse_text_deck("1\t47th Street Royals\n2 X-Ray Zombie\n1 x Xavier\n")
    assert [(e.count, e.name) for e in deck.entries] == [
        (1, "47th Street Royals"),
        (2, "X-Ray Zombie"),
        (1, "Xavier"),
    ]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("3 Gross Ghoul\nGross Ghoul\n", 2, 1, "expected '<count> <card name>'"),
        ("# Zombies\n   Shambler x3\n", 2, 4, "expected '<count> <card name>'"),
        ("0 Gross Ghoul\n", 1, 1, "at least 1"),
    ],
)
def test_text_deck_errors_name_file_line_and_column(
    tmp_path: Path, text: str, line: int, column: int, message: str
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(LackeyError, match=message) as caught:
        read_deck(path)
    location = caught.value.location
    assert (location.file, location.line, location.column) == (str(path), line, column)


def test_resolve_merges_repeats_and_forgives_case_and_accents(sample_db) -> None:
    resolved = resolve_deck(parse_text_deck(MIXED), sample_db)
    assert resolved.ok
    assert [(e.count, e.card.name, e.section) for e in resolved.entries] == [
        (2, "Zoë Park", "Survivors"),
        (3, "Kyle Bjorn", "Survivors"),
        (4, "Gross Ghoul", "Zombies"),
        (4, "Shambler", "Zombies"),
    ]
    stats, sections = composition(resolved)
    assert sections == {"Survivors": 5, "Zombies": 8}
    assert stats.total == 13 and dict(stats.table("type")) == {"Zombie": 8, "Survivor": 5}


def test_unknown_names_get_suggestions_not_guesses(sample_db) -> None:
    resolved = resolve_deck(parse_text_deck("2 Shamblr\n1 Gross\n1 Nothing Like It\n"), sample_db)
    assert not resolved.ok and resolved.entries == ()
    assert [(u.entry.name, u.entry.line, u.suggestions) for u in resolved.unknown] == [
        ("Shamblr", 1, ("Shambler",)),
        ("Gross", 2, ("Gross Ghoul",)),
        ("Nothing Like It", 3, ()),
    ]
    with pytest.raises(LackeyError, match="line 1: unknown card 'Shamblr'; did you mean: Shambler"):
        resolved.require_ok()


@pytest.mark.parametrize("path", starter_decks(), ids=lambda p: p.name)
def test_starter_decks_resolve_and_survive_txt_dek_txt(
    sample_db, path: Path, tmp_path: Path
) -> None:
    deck = read_deck(path)
    resolved = resolve_deck(deck, sample_db)
    assert resolved.ok and resolved.total == deck.total
    dek = tmp_path / "deck.dek"
    dek.write_text(convert_deck(deck, "dek", sample_db))
    back = read_dek(dek)
    assert back.game == "zombieccg" and back.sections == ("Deck",)
    assert [(e.count, e.name) for e in back.entries] == [
        (e.count, e.card.name) for e in resolved.entries
    ]
    text = convert_deck(back, "txt")
    assert text == format_text_deck([DeckEntry(e.count, e.card.name) for e in resolved.entries])
    again = tmp_path / "again.dek"
    again.write_text(convert_deck(parse_text_deck(text), "dek", sample_db))
    assert again.read_text() == dek.read_text()


def test_text_round_trip_is_exact_for_a_canonical_list(sample_db) -> None:
    text = "Survivors:\n2\tZoë Park\n\nZombies:\n4\tGross Ghoul\n"
    assert convert_deck(parse_text_deck(text), "txt") == text


def test_potter_text_and_dek_lists_agree(reference_dir: Path) -> None:
    """A real plugin ships the same deck as text and .dek: both readers see the same cards."""

    def totals(path: Path) -> dict[str, int]:
        counts: dict[str, int] = {}
        for entry in read_deck(path).entries:
            counts[entry.name] = counts.get(entry.name, 0) + entry.count
        return counts

    decks = reference_dir / "potter/decks"
    assert totals(decks / "twintrouble.txt") == totals(decks / "twintrouble.dek")
    assert sum(totals(decks / "twintrouble.txt").values()) == 61


def test_json_conversion_carries_sets_and_image_files(sample_db) -> None:
    data = json.loads(convert_deck(parse_text_deck("2 gross ghoul\n"), "json", sample_db))
    assert data["cards"] == [
        {"count": 2, "name": "Gross Ghoul", "set": "alpha", "image_file": "grossghoul",
         "section": "Deck"}
    ]  # fmt: skip


def test_text_to_dek_needs_a_database() -> None:
    with pytest.raises(LackeyError, match="needs the card database"):
        convert_deck(parse_text_deck("1 Gross Ghoul\n"), "dek")


def test_cli_deck_check(sample_db_path: Path, tmp_path: Path, capsys) -> None:
    good = starter_decks()[0]
    main(["deck", "check", str(good), "--db", str(sample_db_path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["total"] == read_deck(good).total and report["unknown"] == []
    bad = tmp_path / "bad.txt"
    bad.write_text("3 Gross Ghoul\n2 Shamblr\n")
    with pytest.raises(SystemExit) as exited:
        main(["deck", "check", str(bad), "--db", str(sample_db_path)])
    captured = capsys.readouterr()
    assert exited.value.code == 1
    assert "line 2: unknown card 'Shamblr'; did you mean: Shambler" in captured.err
    assert "Deck: 3" in captured.out


def test_cli_deck_convert_writes_files(sample_db_path: Path, tmp_path: Path, capsys) -> None:
    source = tmp_path / "deck.txt"
    source.write_text("# Zombies\n2 Gross Ghoul\n")
    out = tmp_path / "deck.dek"
    main(["deck", "convert", str(source), "--to", "dek", "--out", str(out),
          "--db", str(sample_db_path)])  # fmt: skip
    assert out.read_text().count("<card>") == 2
    assert {p.name for p in tmp_path.iterdir()} == {"deck.txt", "deck.dek"}  # no temp file left
    main(["deck", "convert", str(out), "--to", "txt", "--db", str(tmp_path / "missing.db")])
    assert capsys.readouterr().out == "2\tGross Ghoul\n"


def test_a_windows_1252_deck_reads_and_says_so(tmp_path: Path, capsys) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes("2 Zoë Park\n".encode("cp1252") + "1 Café Zombie\n".encode())
    deck = read_deck(path)
    assert [entry.name for entry in deck.entries] == ["Zoë Park", "Café Zombie"]
    assert [(note.line, "Windows-1252" in note.message) for note in deck.notes] == [(1, True)]
    main(["deck", "convert", str(path), "--to", "text"])
    captured = capsys.readouterr()
    assert captured.out == "2\tZoë Park\n1\tCafé Zombie\n"
    assert f"{path}, line 1: warning:" in captured.err
