"""Card statistics against independent counts of the bundled set file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from zcards.cards.model import Card
from zcards.cli import main
from zcards.query.stats import NO_COST, database_stats, summarise_cards


def test_database_stats_match_the_set_file(sample_db, bundled_cards: list[Card]) -> None:
    stats = database_stats(sample_db)
    assert stats.total == len(bundled_cards) == 100
    assert dict(stats.counts["type"]) == dict(Counter(card.type for card in bundled_cards))
    keywords = Counter(keyword for card in bundled_cards for keyword in card.keywords)
    assert dict(stats.counts["keyword"]) == dict(keywords)
    curve = stats.table("cost")
    assert [value for value, _ in curve][-1] == NO_COST
    numbers = [int(value) for value, _ in curve[:-1]]
    assert numbers == sorted(numbers)
    assert dict(curve)[NO_COST] == sum(1 for card in bundled_cards if card.cost is None)


def test_stats_of_a_query_and_of_copies(sample_db, bundled_cards: list[Card]) -> None:
    stats = database_stats(sample_db, "f:horde")
    assert stats.total == sum(1 for card in bundled_cards if card.faction == "Horde")
    assert set(stats.counts["faction"]) == {"Horde"}
    doubled = summarise_cards((2, card) for card in bundled_cards[:3])
    assert doubled.total == 6


def test_cli_stats(sample_db_path: Path, bundled_cards: list[Card], capsys) -> None:
    main(["stats", "--db", str(sample_db_path), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 100
    assert sum(data["type"].values()) == sum(data["cost"].values()) == 100
    assert set(data) == {"total", "type", "faction", "rarity", "keyword", "symbol", "cost"}
    main(["stats", "t:item", "--db", str(sample_db_path)])
    out = capsys.readouterr().out
    items = sum(1 for card in bundled_cards if card.type == "Item")
    assert out.startswith(f"cards: {items}\n") and "Item" in out and "Zombie" not in out
