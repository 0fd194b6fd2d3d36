"""The streamed import: the line reader at block boundaries, unchanged
files skipped by hash, the bulk paths for a new and a moved source, streamed change logs."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.databases import assert_intact

from lackey_plugin.text import LineReader, decode_text
from zcards.cards.model import ZOMBIE_COLUMNS
from zcards.cards.normalise import CardDataError
from zcards.cli import cli
from zcards.ingest.importer import import_sources
from zcards.resources import BUNDLED_SET
from zcards.store.db import iter_cards, open_db
from zcards.store.schema import SCHEMA, create_schema

HEADER = "\t".join(ZOMBIE_COLUMNS)


def lines_of(data: bytes, block_size: int) -> tuple[list[tuple[int, str]], LineReader]:
    reader = LineReader(io.BytesIO(data), block_size=block_size)
    numbered = [
        (number + offset, line)
        for number, block in reader.blocks()
        for offset, line in enumerate(block)
    ]
    return numbered, reader


@pytest.mark.parametrize("block_size", [1, 2, 3, 5, 64])
def test_line_reader_is_the_same_for_every_block_size(block_size: int) -> None:
    data = "\ufeffa\r\nb\rc\n\nd\u00e9\r\n\u00e9e".encode()
    numbered, reader = lines_of(data, block_size)
    assert numbered == [(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d\u00e9"), (6, "\u00e9e")]
    assert reader.had_bom and not reader.ended_with_break
    assert reader.notes == [] and reader.size == len(data)


def test_line_reader_reports_bad_bytes_by_line_and_keeps_utf8() -> None:
    data = "caf\u00e9\nok\n".encode() + b"bad \x92 byte\n" + "na\u00efve\n".encode()
    decoded = decode_text(data)
    assert decoded.lines == ["caf\u00e9", "ok", "bad \u2019 byte", "na\u00efve"]
    assert [(note.line, "0x92" in note.message) for note in decoded.notes] == [(3, True)]
    assert decoded.ended_with_break


def test_many_bad_lines_are_summarised() -> None:
    data = "\u00e9\n".encode() + b"\x92\n" * 50
    notes = decode_text(data).notes
    assert len(notes) == 21 and "30 more" in notes[-1].message


def card_file(path: Path, count: int, set_name: str = "bench") -> Path:
    rows = [
        f"Card {n:05d}\t{set_name}\timg{n}\tZombie\tHorde\t\t{1 + n % 3}\t\tTough\t\t\tU\t"
        f"Moans {n}."
        for n in range(count)
    ]
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_an_unchanged_file_is_skipped_by_its_hash(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    source = card_file(tmp_path / "cards.txt", 3000)
    import_sources(db_path, [str(source)])
    again = import_sources(db_path, [str(source)])
    (record,) = again.sources
    assert record.not_modified and record.row_count == 3000
    assert again.unchanged == 3000 and again.changes == []
    source.write_text(source.read_text().replace("Moans 7.", "Groans 7."))
    changed = import_sources(db_path, [str(source)])
    assert not changed.sources[0].not_modified and changed.changed == 1


def test_a_moved_source_moves_its_cards_without_changing_them(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    first = card_file(tmp_path / "old.txt", 3000)
    import_sources(db_path, [str(first)])
    before = sorted((card.set_name, card.name, card.text) for card in iter_cards(open_db(db_path)))
    moved = tmp_path / "new.txt"
    moved.write_bytes(first.read_bytes())
    report = import_sources(db_path, [str(moved)])
    assert (report.added, report.changed, report.removed, report.unchanged) == (0, 0, 0, 3000)
    db = open_db(db_path)
    assert sorted((c.set_name, c.name, c.text) for c in iter_cards(db)) == before
    source_ids = db.execute("select distinct source_id from cards").fetchall()
    location = db.execute("select location from sources where id = ?", source_ids[0])
    assert len(source_ids) == 1 and location.fetchone()[0] == str(moved.resolve())
    assert_intact(db_path)
    hits = db.execute("select count(*) from cards_fts where cards_fts match 'moans'")
    assert hits.fetchone()[0] == 3000
    # The old file lost its cards to the new one: it is read again, not skipped.
    back = import_sources(db_path, [str(first)])
    assert not back.sources[0].not_modified and back.unchanged == 3000


def test_a_new_source_next_to_others_takes_the_bulk_path(tmp_path: Path) -> None:
    db_path = tmp_path / "cards.db"
    import_sources(db_path, [str(BUNDLED_SET)])
    report = import_sources(db_path, [str(card_file(tmp_path / "more.txt", 2500, "beta"))])
    assert report.added == 2500 and len(report.changes) == 200
    assert report.changes_not_shown == 2300
    db = open_db(db_path)
    assert_intact(db_path)
    logged = db.execute("select count(*) from changes where run_id = ?", [report.run_id])
    assert logged.fetchone()[0] == 2500


@pytest.mark.parametrize("output_format", ["json", "ndjson", "csv", "tsv", "table"])
def test_changes_are_listed_in_every_format(tmp_path: Path, output_format: str) -> None:
    db_path = tmp_path / "cards.db"
    report = import_sources(db_path, [str(card_file(tmp_path / "c.txt", 2500))])
    args = ["changes", "--db", str(db_path), "--format", output_format]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    text = result.output
    if output_format == "json":
        data = json.loads(text)
        names = [change["name"] for change in data["changes"]]
        assert data["run"] == report.run_id
    elif output_format == "ndjson":
        names = [json.loads(line)["name"] for line in text.splitlines()]
    elif output_format in ("csv", "tsv"):
        delimiter = "," if output_format == "csv" else "\t"
        names = [row["name"] for row in csv.DictReader(io.StringIO(text), delimiter=delimiter)]
    else:
        names = [line.split()[3] + " " + line.split()[4] for line in text.splitlines()[2:]]
    assert names == [f"Card {n:05d}" for n in range(2500)]


def test_the_schema_is_created_in_one_transaction(tmp_path: Path) -> None:
    """Every table, index and trigger appears at once (one commit), or none does."""
    db_path = tmp_path / "cards.db"
    statements: list[str] = []
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.set_trace_callback(statements.append)
    from zcards.store.schema import create_schema

    create_schema(conn)
    commits = [s.lower() for s in statements if s.lower() in ("commit", "begin immediate")]
    assert commits == ["begin immediate", "commit"]
    statements.clear()
    create_schema(conn)  # complete already: only reads
    assert not [s for s in statements if s.lower().startswith(("create", "begin", "alter"))]


def test_a_database_made_by_an_older_zcards_is_upgraded_in_place(tmp_path: Path) -> None:
    """Older databases had no undo columns and re-indexed a card on every update."""
    db_path = tmp_path / "cards.db"
    import_sources(db_path, [str(BUNDLED_SET)])
    conn = sqlite3.connect(db_path)
    conn.executescript(
        """
        alter table changes drop column before;
        alter table import_runs drop column undoes;
        alter table import_runs drop column undone_by;
        alter table card_variants drop column run_id;
        drop table replaced_variants;
        drop trigger cards_au;
        create trigger cards_au after update on cards begin
          insert into cards_fts (cards_fts, rowid, name, text)
            values ('delete', old.rowid, old.name, old.text);
          insert into cards_fts (rowid, name, text) values (new.rowid, new.name, new.text);
        end;
        """
    )
    conn.close()
    edited = tmp_path / "alpha.txt"
    bundled = BUNDLED_SET.read_text(encoding="utf-8")
    assert "screams the whole way" in bundled
    edited.write_text(bundled.replace("screams the whole way", "howls the whole way"))
    report = import_sources(db_path, [str(edited)])
    assert (report.unchanged, report.changed) == (99, 1)
    db = open_db(db_path)
    found = db.execute("select name from cards_fts where cards_fts match 'howls'").fetchall()
    assert found == [("Feral Teenager",)]
    trigger = db.execute("select sql from sqlite_master where name = 'cards_au'").fetchone()[0]
    assert 'UPDATE OF "name", "text"' in trigger
    assert "before" in db["changes"].columns_dict
    assert_intact(db_path)


def card_key(db_path: Path) -> list[tuple[str, int]]:
    """The unique indexes of ``cards``: (name, whether the table's primary key made it)."""
    conn = sqlite3.connect(db_path)
    try:
        rows = conn.execute("select name, origin from pragma_index_list('cards') where [unique]")
        return sorted((name, origin == "pk") for name, origin in rows)
    finally:
        conn.close()


def test_a_new_database_gets_its_key_once_the_rows_are_in(tmp_path: Path) -> None:
    """Rows repeating a key read before (in an earlier file, or chunk) are sorted out after
    the load: the first row is the card, the later ones bad rows named with the line of the
    first, and the full-text index holds exactly the cards kept."""
    db_path = tmp_path / "cards.db"
    first = card_file(tmp_path / "first.txt", 3000)
    second = tmp_path / "second.txt"
    rows = ["Card 00007\tbench\timposter\tZombie\tHorde\t\t1\t\tTough\t\t\tU\tImposter."]
    new = "Card {:05d}\tbench\tnew{}\tZombie\tHorde\t\t1\t\t\t\t\tU\tNew."
    rows += [new.format(n, n) for n in (3000, 2500)]
    second.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    report = import_sources(db_path, [str(first), str(second)], skip_bad_rows=True)
    assert report.added == 3001
    found = [(p.location.file, p.location.line, p.message) for p in report.skipped]
    duplicate = "duplicate card 'Card {:05d}' in set 'bench' (first in {}, line {})"
    assert found == [
        (str(second.resolve()), 2, duplicate.format(7, first.resolve(), 9)),
        (str(second.resolve()), 4, duplicate.format(2500, first.resolve(), 2502)),
    ]
    assert card_key(db_path) == [("idx_cards_key", False)]
    assert_intact(db_path, 3001)
    db = open_db(db_path)
    kept = db.execute("select image_file from cards where name = 'Card 00007'")
    assert kept.fetchall() == [("img7",)]
    words = "select count(*) from cards_fts where cards_fts match ?"
    assert [db.execute(words, [word]).fetchone()[0] for word in ("imposter", "new")] == [0, 1]


def test_a_database_keyed_by_its_primary_key_keeps_that_key(tmp_path: Path) -> None:
    """Databases made before the key was an index of its own have it as the table's primary
    key: imports add, change and refuse duplicates through it, and add no second key."""
    db_path = tmp_path / "cards.db"
    conn = sqlite3.connect(db_path)
    conn.execute(SCHEMA[0][: -len("\n)")] + ',\n   PRIMARY KEY ("set_name", "name")\n)')
    create_schema(conn)
    conn.close()
    assert card_key(db_path) == [("sqlite_autoindex_cards_1", True)]
    assert import_sources(db_path, [str(BUNDLED_SET)]).added == 100
    edited = tmp_path / "alpha.txt"
    text = BUNDLED_SET.read_text(encoding="utf-8")
    edited.write_text(text.replace("wounded survivor", "hurt survivor"), encoding="utf-8")
    report = import_sources(db_path, [str(edited)])
    assert report.changed > 0 and report.changed + report.unchanged == 100
    twice = card_file(tmp_path / "twice.txt", 3)
    twice.write_text(twice.read_text() + twice.read_text().splitlines()[1] + "\n")
    with pytest.raises(CardDataError, match="duplicate card 'Card 00000'"):
        import_sources(db_path, [str(twice)])
    assert card_key(db_path) == [("sqlite_autoindex_cards_1", True)]
    assert_intact(db_path, 100)
