"""The search language against real databases: each query's result is checked against the
same question asked in plain Python over every card of the database."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlite_utils

from zcards.cards.model import Card
from zcards.cli import main
from zcards.errors import UsageError
from zcards.ingest.importer import import_sources
from zcards.query.lookup import normalise_name
from zcards.query.parser import QueryError
from zcards.query.search import compile_query, count_matches, search
from zcards.store.db import iter_cards

LORCANA = "lorcana/sets/carddata.txt"


@pytest.fixture(scope="module")
def lorcana_db(tmp_path_factory: pytest.TempPathFactory, reference_dir: Path):
    path = tmp_path_factory.mktemp("lorcana") / "cards.db"
    import_sources(path, [str(reference_dir / LORCANA)])
    return sqlite_utils.Database(path)


def words(card: Card) -> list[str]:
    return re.findall(r"\w+", normalise_name(f"{card.name} {card.text}"))


def has_word_prefix(card: Card, prefix: str) -> bool:
    return any(word.startswith(prefix) for word in words(card))


def fast(card: Card) -> bool:
    return card.has_keyword("Fast")


def tough(card: Card) -> bool:
    return card.has_keyword("Tough")


def horde(card: Card) -> bool:
    return card.faction == "Horde"


WEIRD_ONES = ("Contagion", "Weird", "")


CASES: list[tuple[str, Callable[[Card], bool]]] = [
    ("ghoul", lambda c: has_word_prefix(c, "ghoul")),
    ("GHOUL", lambda c: has_word_prefix(c, "ghoul")),
    ("gho", lambda c: has_word_prefix(c, "gho")),
    ("zoe", lambda c: has_word_prefix(c, "zoe")),  # full-text search ignores accents
    ('"combat zone"', lambda c: "combat zone" in " ".join(words(c))),
    ("combat zone", lambda c: has_word_prefix(c, "combat") and has_word_prefix(c, "zone")),
    ("name:ghoul", lambda c: "ghoul" in c.name.casefold()),
    ('name:"gross ghoul"', lambda c: c.name == "Gross Ghoul"),
    ("name=shambler", lambda c: c.name == "Shambler"),
    ("name!=shambler", lambda c: c.name != "Shambler"),
    ("o:wound", lambda c: "wound" in c.text.casefold()),
    ("text:wound", lambda c: "wound" in c.text.casefold()),
    ("o:100%", lambda c: "100%" in c.text),  # LIKE wildcards are literal
    ("t:zombie", lambda c: c.type == "Zombie"),
    ("type:Survivor", lambda c: c.type == "Survivor"),
    ("t!=item", lambda c: c.type != "Item"),
    ("f:horde", lambda c: c.faction == "Horde"),
    ("faction:WEIRD", lambda c: c.faction == "Weird"),
    ("r:c", lambda c: c.rarity == "C"),
    ("rarity:rare", lambda c: c.rarity == "R"),
    ("r:special", lambda c: c.rarity == "S"),
    ("set:alpha", lambda c: c.set_name == "alpha"),
    ("set:beta", lambda c: False),
    ("k:fast", fast),
    ("kw:FAST", fast),
    ("keyword=fast", fast),
    ("k!=fast", lambda c: not fast(c)),
    ("sym:medic", lambda c: c.has_symbol("Medic")),
    ("symbol:scavenger", lambda c: c.has_symbol("Scavenger")),
    ("req:fast", lambda c: "fast" in {k.casefold() for k in c.requirements}),
    ("req!=tough", lambda c: "tough" not in {k.casefold() for k in c.requirements}),
    ("cost=0", lambda c: c.cost == 0),
    ("cost:2", lambda c: c.cost == 2),
    ("cost!=2", lambda c: c.cost is not None and c.cost != 2),
    ("cost<2", lambda c: c.cost is not None and c.cost < 2),
    ("cost<=2", lambda c: c.cost is not None and c.cost <= 2),
    ("cost>2", lambda c: c.cost is not None and c.cost > 2),
    ("cost>=2", lambda c: c.cost is not None and c.cost >= 2),
    ("pow>=3", lambda c: c.power is not None and c.power >= 3),
    ("power<2", lambda c: c.power is not None and c.power < 2),
    ("hp>2", lambda c: c.health is not None and c.health > 2),
    ("health=1", lambda c: c.health == 1),
    ("-cost=2", lambda c: c.cost != 2),  # a card without a cost is "not cost 2"
    ("-k:fast", lambda c: not fast(c)),
    ("-t:zombie -t:survivor", lambda c: c.type == "Item"),
    ("t:zombie f:rage", lambda c: c.type == "Zombie" and c.faction == "Rage"),
    ("t:zombie and f:rage", lambda c: c.type == "Zombie" and c.faction == "Rage"),
    ("f:rage or f:horde", lambda c: c.faction in ("Rage", "Horde")),
    ("f:rage OR f:horde k:tough", lambda c: c.faction == "Rage" or (horde(c) and tough(c))),
    ("(f:rage or f:horde) k:tough", lambda c: (c.faction == "Rage" or horde(c)) and tough(c)),
    ("-(f:rage or f:horde) t:zombie", lambda c: c.type == "Zombie" and c.faction in WEIRD_ONES),
    ("((t:item))", lambda c: c.type == "Item"),
    ("/^gr/", lambda c: re.search("^gr", c.name, re.I) or re.search("^gr", c.text, re.I)),
    (r"/\bwounds?\b/", lambda c: re.search(r"\bwounds?\b", f"{c.name}\n{c.text}", re.I)),
    ("name:/ghoul$/", lambda c: c.name.casefold().endswith("ghoul")),
    ("k:/^f/", lambda c: any(k.casefold().startswith("f") for k in c.keywords)),
    ("req:/^inf/", lambda c: any(k.casefold().startswith("inf") for k in c.requirements)),
    ("-/ready/", lambda c: "ready" not in f"{c.name}\n{c.text}".casefold()),
]  # fmt: skip


@pytest.mark.parametrize(("query", "predicate"), CASES, ids=[case[0] for case in CASES])
def test_query_matches_the_python_answer(
    sample_db: sqlite_utils.Database, sample_cards: list[Card], query: str, predicate
) -> None:
    expected = sorted(card.name for card in sample_cards if predicate(card))
    assert [card.name for card in search(sample_db, query)] == expected
    assert count_matches(sample_db, query) == len(expected)


def test_the_sample_answers_are_not_trivial(sample_cards: list[Card]) -> None:
    """Each field's test above must separate cards, or it would pass for a no-op."""
    for query, predicate in CASES:
        if query in ("set:alpha", "set:beta", "o:100%"):
            continue
        hits = sum(1 for card in sample_cards if predicate(card))
        assert 0 < hits < len(sample_cards), query


def test_values_are_parameters_never_sql(sample_db: sqlite_utils.Database) -> None:
    hostile = 'name:"x\' OR 1=1; DROP TABLE cards; --"'
    where, params = compile_query(hostile)
    assert "DROP" not in where and "1=1" not in where
    assert params == ["%x' OR 1=1; DROP TABLE cards; --%"]
    assert search(sample_db, hostile) == []
    assert sample_db["cards"].count == 100


def test_sort_and_limit(sample_db: sqlite_utils.Database, sample_cards: list[Card]) -> None:
    survivors = [c for c in sample_cards if c.type == "Survivor"]
    by_health = search(sample_db, "t:survivor", sort="-health", limit=3)
    assert [c.health for c in by_health] == sorted((c.health for c in survivors), reverse=True)[:3]
    by_cost = search(sample_db, "t:item", sort="cost")
    costs = [c.cost for c in by_cost]
    assert costs == sorted(costs, key=lambda cost: (cost is None, cost))
    with pytest.raises(UsageError) as caught:
        search(sample_db, "t:item", sort="colour")
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(
    ("query", "column", "reason"),
    [
        ("colour:red", 1, "unknown field 'colour'"),
        ("t:zombie colr:red", 10, "unknown field 'colr'"),
        ("cost<two", 6, "'cost' needs a whole number"),
        ("name<x", 5, "operator '<' does not apply to 'name'"),
        ("k>=2", 2, "operator '>=' does not apply to 'k'"),
        ("/[a/", 2, "bad regular expression"),
        ("name:/(x/", 7, "bad regular expression"),
        ("ghoul !!", 7, "nothing to search for"),
        ('name:""', 6, "empty value"),
    ],
)
def test_compile_errors_point_at_the_column(
    sample_db: sqlite_utils.Database, query: str, column: int, reason: str
) -> None:
    with pytest.raises(QueryError) as caught:
        search(sample_db, query)
    assert (caught.value.column, caught.value.reason[: len(reason)]) == (column, reason)


def test_non_zombie_columns_are_searchable_by_their_own_names(
    lorcana_db: sqlite_utils.Database,
) -> None:
    everything = list(iter_cards(lorcana_db))
    allies = sorted(c.name for c in everything if c.type == "Ally")
    assert allies and [c.name for c in search(lorcana_db, "type:Ally")] == allies

    def extra(card: Card, column: str) -> str:
        return card.extra.get(column, "")

    amber_lore = sorted(
        c.name for c in everything
        if "amber" in extra(c, "Color").casefold() and extra(c, "Lore").isdigit()
        and int(extra(c, "Lore")) >= 3
    )  # fmt: skip
    assert amber_lore == [c.name for c in search(lorcana_db, "color:amber lore>=3")]
    inkless = sorted(c.name for c in everything if extra(c, "Inkwell") == "False")
    assert inkless == [c.name for c in search(lorcana_db, "inkwell=false")]
    heroes = sorted(c.name for c in everything if "Hero" in extra(c, "Classifications"))
    assert heroes == [c.name for c in search(lorcana_db, "classifications:/\\bhero\\b/")]
    # "Strength" was imported as power; its own header name still finds it.
    assert search(lorcana_db, "strength>=9") == search(lorcana_db, "pow>=9") != []
    top = search(lorcana_db, "lore>=1", sort="-lore", limit=1)[0]
    assert int(top.extra["Lore"]) == max(int(extra(c, "Lore") or 0) for c in everything)
    with pytest.raises(QueryError, match=r"unknown field 'colour' \(did you mean 'Color'\?"):
        search(lorcana_db, "colour:amber")


def run(args: list[str], capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(args)
    captured = capsys.readouterr()
    return exited.value.code or 0, captured.out, captured.err


def test_cli_search_formats(sample_db_path: Path, sample_cards: list[Card], capsys) -> None:
    db_args = ["--db", str(sample_db_path)]
    main(["search", "k:fast -f:rage", *db_args, "--format", "json"])
    rows = json.loads(capsys.readouterr().out)
    assert rows and all("Fast" in row["keywords"] for row in rows)
    main(["search", "k:fast -f:rage", *db_args, "--format", "ndjson"])
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == rows
    main(["search", "t:item", *db_args, "--format", "csv", "--sort", "-cost", "--limit", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("name,set_name,image_file,type") and len(lines) == 3
    main(["search", "t:item", *db_args, "--format", "tsv", "--limit", "1"])
    assert "\t" in capsys.readouterr().out
    main(["search", "t:item", *db_args, "--count"])
    assert capsys.readouterr().out == f"{sum(1 for c in sample_cards if c.type == 'Item')}\n"
    main(["search", "-k:fast", "--count", *db_args])  # a leading '-' is the query, not an option
    assert capsys.readouterr().out == f"{sum(1 for c in sample_cards if not fast(c))}\n"
    main(["search", "name:ghoul", *db_args])
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:3] == ["name", "set_name", "type"]
    assert [line.split("  ")[0] for line in table[2:]] == ["Glowing Ghoul", "Gross Ghoul"]


def test_cli_search_error_exits_2_with_a_caret(sample_db_path: Path, capsys) -> None:
    code, out, err = run(["search", "t:zombie (f:rage", "--db", str(sample_db_path)], capsys)
    assert code == 2 and out == ""
    assert err.splitlines()[-2:] == ["  t:zombie (f:rage", "           ^"]
