"""How a search runs: its SQLite plan, its order (order:/--sort), paging and lazy rows."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import sqlite_utils

from zcards.cli import main
from zcards.errors import UsageError
from zcards.ingest.importer import import_sources
from zcards.query.parser import QueryError
from zcards.query.search import search, search_rows, search_sql
from zcards.store.rows import CardRow


def plan(sample_db: sqlite_utils.Database, query: str, **options) -> list[str]:
    sql, params = search_sql(sample_db, query, **options)
    return [row[3] for row in sample_db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]


def test_a_name_lookup_searches_the_case_blind_name_index(sample_db):
    steps = plan(sample_db, 'name="Gross Ghoul"')
    assert "SEARCH cards USING INDEX idx_cards_name_nocase (name=?)" in steps, steps


def test_words_search_the_full_text_index(sample_db):
    steps = plan(sample_db, "ghoul walker")
    assert any("cards_fts VIRTUAL TABLE" in step for step in steps), steps


@pytest.mark.parametrize("query", ["t:zombie f:horde", "t:item cost<=2", "k:fast"])
def test_broad_filters_read_the_table_in_order(sample_db, query):
    """A category holds a third or a quarter of the cards: reading the table once in order
    beats fetching that many rows through an index one by one (3x at 1M cards), and grows
    linearly with the table."""
    assert plan(sample_db, query)[0] == "SCAN cards"


@pytest.mark.parametrize(
    "query", ["t:zombie f:horde", "k:fast", "cost>=1", "order:-pow f:rage", "set:beta t:item"]
)
def test_no_search_walks_the_name_index_to_skip_sorting(sample_db, query):
    """Walking idx_cards_name fetches every row of a big table one by one (2.1 s at 1M
    cards for t:zombie f:horde); sorting what the filter found is linear."""
    steps = plan(sample_db, query, limit=5)
    assert not any(" USING INDEX idx_cards_name" in step for step in steps), steps
    keys = ("idx_cards_key", "sqlite_autoindex_cards_1")  # (set, name), new and older
    assert not any(key in step for step in steps for key in keys), steps
    assert any("TEMP B-TREE FOR ORDER BY" in step for step in steps), steps


def test_order_terms_sort_like_the_sort_option(sample_db, sample_cards):
    by_power = search(sample_db, "t:zombie order:-pow")
    assert by_power == search(sample_db, "t:zombie", sort="-pow")
    powers = [card.power for card in by_power]
    assert powers == sorted(powers, reverse=True) and len(by_power) > 3
    ties = [card.name for card in by_power if card.power == powers[0]]
    assert ties == sorted(ties)  # then by name
    two_keys = search(sample_db, "order:faction order:-cost t:zombie")
    keys = [(card.faction, -(card.cost or 0)) for card in two_keys]
    assert keys == sorted(keys)
    assert [c.name for c in search(sample_db, "order:name")] == sorted(c.name for c in sample_cards)


@pytest.mark.parametrize(
    ("query", "message", "column"),
    [
        ("t:zombie (order:cost or k:fast)", "order: sorts the whole result", 11),
        ("-order:cost", "order: sorts the whole result", 2),
        ("k:fast order:keywords", "cannot sort by 'keywords': it is a list", 14),
        ("k:fast order:colour", "cannot sort by 'colour': no such field", 14),
        ("order:/x/", "write order:FIELD or order:-FIELD", 1),
    ],
)
def test_misplaced_or_unknown_order_is_a_caret_error(sample_db, query, message, column):
    with pytest.raises(QueryError, match=message) as caught:
        search(sample_db, query)
    assert caught.value.column == column


def test_sort_given_twice_is_refused(sample_db):
    with pytest.raises(UsageError, match="once"):
        search(sample_db, "order:cost", sort="pow")


def test_limit_and_offset_page_through_the_result(sample_db):
    everything = search(sample_db, "o:a order:cost")
    pages = [
        search(sample_db, "o:a order:cost", limit=7, offset=start) for start in range(0, 200, 7)
    ]
    assert [card for page in pages for card in page] == everything
    assert search(sample_db, "o:a order:cost", offset=3) == everything[3:]


def test_rows_decode_lazily_into_the_same_cards(sample_db):
    rows = search_rows(sample_db, "k:fast or sym:medic")
    assert not isinstance(rows, list)  # read as the caller goes
    rows = list(rows)
    assert rows and all(isinstance(row, CardRow) for row in rows)
    assert [row.card() for row in rows] == search(sample_db, "k:fast or sym:medic")
    for row in rows:
        assert json.loads(row.to_json()) == row.to_dict()
        assert row.to_dict()["keywords"] == list(row.card().keywords)


def test_cli_json_csv_and_paging(sample_db_path: Path, sample_db, capsys):
    db_args = ["--db", str(sample_db_path)]
    main(["search", "t:zombie", *db_args, "--format", "json"])
    out = capsys.readouterr().out
    rows = json.loads(out)
    assert out.startswith("[\n{") and len(out.splitlines()) == len(rows) + 2  # one card per line
    assert rows == [row.to_dict() for row in search_rows(sample_db, "t:zombie")]
    main(["search", "t:zombie", *db_args, "--format", "ndjson", "--limit", "3", "--offset", "2"])
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == rows[2:5]
    main(["search", "t:zombie order:-pow", *db_args, "--format", "csv", "--limit", "2"])
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    best = max(row["power"] or 0 for row in rows)
    assert len(table) == 2 and int(table[0]["power"]) == best
    main(["search", "name:zzzz", *db_args, "--format", "json"])
    assert json.loads(capsys.readouterr().out) == []


def test_cli_csv_spreads_other_games_columns(tmp_path: Path, reference_dir: Path, capsys):
    path = tmp_path / "lorcana.db"
    import_sources(path, [str(reference_dir / "lorcana/sets/carddata.txt")])
    main(["search", "lore>=3", "--db", str(path), "--format", "csv", "--limit", "3"])
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 3 and all(int(row["Lore"]) >= 3 for row in table)
    assert "extra" not in table[0]
