"""Hostile and unlucky card data: every case is a
clear error or a warning naming file, line and column, and nothing is lost."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from zcards.cards.model import ZOMBIE_COLUMNS
from zcards.cards.normalise import CardDataError, parse_card_data
from zcards.cards.table import CONTROL_CHARACTERS, UNICODE_SPACES, HeaderMap, has_controls
from zcards.cli import main
from zcards.errors import ZcardsError
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET
from zcards.store.db import iter_cards, open_db

HEADER = "\t".join(ZOMBIE_COLUMNS)
TRIBBLES_HEADER = "Name\tSet\tImageFile\tType\tPower\tText"


def zombie_row(name: str, cost: str = "", power: str = "2", text: str = "Grr.") -> str:
    return f"{name}\talpha\timg\tZombie\tRage\t{cost}\t{power}\t\tFast\t\t\tC\t{text}"


def run(*args: str) -> tuple[int, str]:
    """``zcards ARGS`` as the console entry point runs it (errors become messages)."""
    with CliRunner().isolation() as streams:
        try:
            main(list(args))
            code = 0
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        output = b"".join(stream.getvalue() for stream in streams[:2] if stream is not None)
    return code, output.decode("utf-8", errors="replace")


def snapshot(db_path: Path) -> list[tuple]:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute("select * from cards order by set_name, name").fetchall()
    finally:
        conn.close()


# Problem 2: removals are deliberate and reversible; truncated input is an error.


def test_a_short_source_needs_prune_to_remove_cards_and_says_how_many(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    source = tmp_path / "alpha.txt"
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("import", str(source), "--db", str(db_path))[0] == 0
    before = snapshot(db_path)
    source.write_text("\n".join(lines[:51]) + "\n", encoding="utf-8")  # cut at a line break
    code, output = run("import", str(source), "--db", str(db_path))
    assert code == 2  # refused, nothing written: an import error (README, exit codes)
    assert "50 of its 100 cards" in output and "--prune" in output
    assert snapshot(db_path) == before
    code, output = run("import", str(source), "--db", str(db_path), "--dry-run")
    assert code == 0 and "would change: 0 added, 0 changed, 50 removed" in output
    assert "warning:" in output and "50 of its 100 cards" in output
    assert snapshot(db_path) == before
    code, output = run("import", str(source), "--db", str(db_path), "--prune")
    assert code == 0, output
    assert "50 removed" in output and len(snapshot(db_path)) == 50


def test_undo_restores_the_cards_a_run_removed_or_changed(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    source = tmp_path / "alpha.txt"
    lines = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("import", str(source), "--db", str(db_path))[0] == 0
    before = snapshot(db_path)
    edited = [line.replace("\tRage\t", "\tHorde\t") for line in lines[:81]]
    edited.append(zombie_row("Newcomer").replace("\tRage\t", "\tWeird\t"))
    source.write_text("\n".join(edited) + "\n", encoding="utf-8")
    code, output = run("import", str(source), "--db", str(db_path), "--prune")
    assert code == 0, output
    data = json.loads(run("changes", "--db", str(db_path), "--format", "json")[1])
    actions = [change["action"] for change in data["changes"]]
    assert actions.count("removed") == 20 and actions.count("added") == 1
    assert actions.count("changed") > 0
    code, output = run("changes", "undo", str(data["run"]), "--db", str(db_path))
    assert code == 0, output
    assert snapshot(db_path) == before
    db = open_db(db_path)
    assert db.execute("select cards_fts.rowid from cards_fts where cards_fts match 'newcomer'")
    hits = db.execute("select count(*) from cards_fts where cards_fts match 'newcomer'")
    assert hits.fetchone()[0] == 0
    code, output = run("changes", "undo", str(data["run"]), "--db", str(db_path))
    assert code == 2 and "already undone" in output
    # The unchanged file is read again after an undo (its hash no longer counts).
    code, output = run("import", str(source), "--db", str(db_path), "--prune")
    assert code == 0 and "20 removed" in output, output


def test_undo_is_refused_while_a_later_run_changed_the_same_cards(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(f"{HEADER}\n{zombie_row('Biter')}\n", encoding="utf-8")
    import_sources(db_path, [str(first)])
    second.write_text(f"{HEADER}\n{zombie_row('Biter', power='5')}\n", encoding="utf-8")
    later = import_sources(db_path, [str(second)])
    code, output = run("changes", "undo", "1", "--db", str(db_path))
    assert code == 2 and f"undo run {later.run_id} first" in output
    assert run("changes", "--db", str(db_path), "undo", str(later.run_id))[0] == 0
    assert run("changes", "undo", "1", "--db", str(db_path))[0] == 0
    assert snapshot(db_path) == []


@pytest.mark.parametrize("cut", ["Tribble 3\ts1\ttrib3\tTribble\t1", "Tribble 3\ts1\ttr"])
def test_a_truncated_last_line_is_an_error_not_a_shorter_list(tmp_path: Path, cut: str) -> None:
    """Another game's data (lenient): a cut last row without a line break is refused."""
    db_path = tmp_path / "cards.db"
    source = tmp_path / "tribbles.txt"
    rows = [f"Tribble {n}\ts1\ttrib{n}\tTribble\t{n}\tCoos." for n in range(1, 3)]
    source.write_text("\n".join([TRIBBLES_HEADER, *rows, cut]), encoding="utf-8")
    with pytest.raises(ZcardsError, match="cut short") as caught:
        import_sources(db_path, [str(source)])
    assert caught.value.location is not None and caught.value.location.line == 4
    assert not db_path.exists()
    code, output = run("import", str(source), "--db", str(db_path), "--skip-bad-rows")
    assert code == 2 and "truncated" in output


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029"])
def test_lines_ending_in_unicode_separators_do_not_read_as_zero_rows(separator: str) -> None:
    text = separator.join([HEADER, zombie_row("Biter"), zombie_row("Chewer")]) + separator
    parsed = parse_card_data(text.encode("utf-8"), "odd.txt")
    assert [card.name for card in parsed.cards] == ["Biter", "Chewer"]
    assert any("does not read as a line break" in w.message for w in parsed.warnings)


def test_lines_ending_in_a_raw_0x85_byte_do_not_read_as_zero_rows() -> None:
    text = "\x85".join([TRIBBLES_HEADER, "Tribble\ts1\tt1\tTribble\t1\tCoo."]) + "\x85"
    parsed = parse_card_data(text.encode("latin-1"), "nel.txt")
    assert [card.name for card in parsed.cards] == ["Tribble"]


# Problem 5: numbers out of range are clear errors, never OverflowError.


@pytest.mark.parametrize("value", ["18446744073709551616", "9223372036854775808", "1000000001"])
def test_numbers_out_of_range_are_errors_with_file_line_and_column(
    tmp_path: Path, value: str
) -> None:
    source = tmp_path / "big.txt"
    source.write_text(f"{HEADER}\n{zombie_row('Ok')}\n{zombie_row('Huge', cost=value)}\n")
    with pytest.raises(CardDataError) as caught:
        import_sources(tmp_path / "cards.db", [str(source)])
    (problem,) = caught.value.problems
    assert (problem.location.line, problem.location.column) == (3, "Cost")
    assert "out of range" in problem.message
    code, output = run("import", str(source), "--db", str(tmp_path / "c.db"))
    assert code == 2 and "Traceback" not in output and "line 3, column Cost" in output


def test_other_games_huge_numbers_stay_text(tmp_path: Path) -> None:
    source = tmp_path / "other.txt"
    source.write_text(f"{TRIBBLES_HEADER}\nBig\ts1\tb\tTribble\t99999999999999999999\tHuge.\n")
    report = import_sources(tmp_path / "cards.db", [str(source)])
    (card,) = iter_cards(open_db(tmp_path / "cards.db"))
    assert report.added == 1 and card.power is None
    assert card.extra["Power"] == "99999999999999999999"


@pytest.mark.parametrize("value", ["1_000", "\u0663", "+3", " 3 3", "３"])
def test_only_plain_ascii_digits_are_numbers(value: str) -> None:
    parsed = parse_card_data(f"{HEADER}\n{zombie_row('Odd', power=value)}\n", "odd.txt")
    (problem,) = parsed.problems
    assert problem.location.column == "Power" and "not a whole number" in problem.message


def test_requirement_counts_must_be_ascii_and_in_range() -> None:
    row = zombie_row("Needy").split("\t")
    rows = []
    for count in ("\u0663", "99999999999"):
        row[0], row[9] = f"Needy {len(rows)}", f"{count} Fast"
        rows.append("\t".join(row))
    parsed = parse_card_data("\n".join([HEADER, *rows]) + "\n", "req.txt")
    assert [p.location.column for p in parsed.problems] == ["Requirements", "Requirements"]


# Problem 8: one decoding policy; a stray byte does not turn a UTF-8 file into mojibake.


def test_a_stray_byte_keeps_the_rest_of_the_file_utf8(tmp_path: Path) -> None:
    rows = [zombie_row(f"Caf\u00e9 {n}", text="Cr\u00e8me br\u00fbl\u00e9e.") for n in range(5)]
    data = "\n".join([HEADER, *rows]).encode("utf-8") + b"\n"
    data = data.replace(b"Caf\xc3\xa9 3", b"Caf\x92 3")
    parsed = parse_card_data(data, "mixed.txt")
    names = [card.name for card in parsed.cards]
    assert names == ["Caf\u00e9 0", "Caf\u00e9 1", "Caf\u00e9 2", "Caf\u2019 3", "Caf\u00e9 4"]
    assert all(card.text == "Cr\u00e8me br\u00fbl\u00e9e." for card in parsed.cards)
    (warning,) = parsed.warnings
    assert warning.location.line == 5 and "0x92" in warning.message


def test_an_old_windows_1252_file_reads_with_one_warning() -> None:
    rows = [zombie_row(f"Zombie {n}", text="Can\u2019t stop.") for n in range(3)]
    parsed = parse_card_data(("\n".join([HEADER, *rows]) + "\n").encode("cp1252"), "old.txt")
    assert all(card.text == "Can\u2019t stop." for card in parsed.cards)
    (warning,) = parsed.warnings
    assert warning.location.line == 2 and "Windows-1252" in warning.message


# Problem 9: the header parser is linear.


def test_repeated_header_names_get_short_unique_labels() -> None:
    """40,000 columns took 42 s: each repeat grew its label by one "_" and was compared with
    every earlier label."""
    header = ["Name", "Set", "ImageFile", *(["Note"] * 400), *([""] * 5)]
    mapping = HeaderMap(header, "wide.txt")
    labels = list(mapping.extra.values())
    assert len(set(labels)) == len(labels) == 400
    assert sum(map(len, labels)) < 10 * len(labels)
    wide = HeaderMap(["Name", "Set", "ImageFile", *(["x"] * 40_000)], "wider.txt")
    assert len(set(wide.extra.values())) == 40_000


# Problem 10: paths, control characters.


def test_a_local_plugin_list_cannot_reach_outside_its_folder(tmp_path: Path) -> None:
    plugin = tmp_path / "plugins" / "evil"
    (plugin / "sets").mkdir(parents=True)
    outside = tmp_path / "plugins" / "outside.txt"  # sets/../../outside.txt
    outside.write_text(f"{HEADER}\n{zombie_row('Secret')}\n", encoding="utf-8")
    (plugin / "sets" / "cards.txt").write_text(f"{HEADER}\n{zombie_row('Fine')}\n")
    (plugin / "updatelist.txt").write_text("evil\t01-01-26\n", encoding="utf-8")
    (plugin / "ListOfCardDataFiles.txt").write_text(
        "<filetoinclude>cards.txt</filetoinclude><filetoinclude>../../outside.txt"
        "</filetoinclude>\n",
        encoding="utf-8",
    )
    with pytest.raises(ZcardsError, match="inside its folder"):
        import_sources(tmp_path / "cards.db", [str(plugin)])
    assert not (tmp_path / "cards.db").exists()


def test_a_local_page_cannot_link_outside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text(f"{HEADER}\n{zombie_row('Secret')}\n")
    page = tmp_path / "site" / "index.html"
    page.parent.mkdir()
    (page.parent / "ok.txt").write_text(f"{HEADER}\n{zombie_row('Fine')}\n")
    page.write_text('<html><body><a href="ok.txt">ok</a> <a href="../secret.txt">x</a></body>')
    report = import_sources(tmp_path / "cards.db", [str(page)])
    assert [c.name for c in report.changes] == ["Fine"]


def test_control_characters_never_reach_the_database_or_the_terminal(tmp_path: Path) -> None:
    source = tmp_path / "ansi.txt"
    evil = zombie_row("\x1b[31mRed\x1b[0m Biter\x00", text="Bell\x07 and\u202e kcab")
    source.write_text(f"{HEADER}\n{evil}\n", encoding="utf-8")
    code, output = run("import", str(source), "--db", str(tmp_path / "cards.db"))
    assert code == 0, output
    assert "\x1b" not in output and "\x00" not in output and "\x07" not in output
    assert "warning:" in output and "line 2, column Name" in output
    (card,) = iter_cards(open_db(tmp_path / "cards.db"))
    assert card.name == "[31mRed[0m Biter" and card.text == "Bell and kcab"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("plain\ttext", False),
        ("Zo\u00eb\tcaf\u00e9", False),
        ("Zo\u00eb\x85", True),
        ("caf\u00e9\x07", True),
        ("\u2019quoted\u2019 \u2014 dash", False),
        ("\u2019 and \u202e", True),
        ("\x9b[31m", True),
        ("\xa0", False),
    ],
)
def test_control_characters_are_found_in_any_text(text: str, found: bool) -> None:
    assert has_controls(text) is found
    assert (CONTROL_CHARACTERS.search(text) is not None) is found


def test_white_space_beyond_ascii_is_stripped_from_cells() -> None:
    beyond = {
        char
        for char in map(chr, range(128, 0x110000))
        if char.isspace() and not CONTROL_CHARACTERS.match(char)
    }
    assert beyond == set(UNICODE_SPACES)
    rows = [zombie_row(f"{space}Zo\u00eb {n}{space}") for n, space in enumerate(UNICODE_SPACES)]
    parsed = parse_card_data("\n".join([HEADER, *rows]) + "\n", "spaces.txt")
    assert [card.name for card in parsed.cards] == [f"Zo\u00eb {n}" for n in range(len(rows))]
