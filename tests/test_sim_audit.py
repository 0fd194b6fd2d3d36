"""Simulated games against the audit: legal logs are clean from both points of view, and every
injected violation is found at the injected line (and nothing else is)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from lackey_plugin.log.parser import parse_log
from lackey_plugin.log.writer import format_log
from zcards.normalise import read_card_file
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.rules.engine import audit
from zcards.rules.violations import Kind as Violation
from zcards.sim.batch import iter_games, write_logs
from zcards.sim.decklists import load_decks
from zcards.sim.mutators import MUTATORS, mutate
from zcards.sim.recorder import pov_events

DECK_SIZE = 40
STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
MUTATIONS_PER_KIND = 8


@pytest.fixture(scope="module")
def card_list():
    return read_card_file(BUNDLED_SET)


def _games(per_pairing: int, seed: int):
    """Every pairing of two different starter decks, with each mix of strategies."""
    for pair in itertools.combinations(starter_decks(), 2):
        decks = load_decks(list(pair))
        for strategies in STRATEGIES:
            yield from iter_games(decks, per_pairing, seed, strategies=strategies)


def test_two_hundred_simulated_games_are_clean_from_both_points_of_view(tmp_path, card_list):
    results = list(_games(23, seed=1))
    assert len(results) >= 200
    write_logs(results, tmp_path, timestamps=True)
    audited = Counter()
    for index, result in enumerate(results):
        path = tmp_path / f"game-{index + 1:04d}.txt"
        events = parse_log(path).events
        for pov in result.players:
            report = audit(
                events if pov == result.players[index % 2] else _reparsed(result, pov),
                card_list,
                pov=pov,
                decks=dict.fromkeys(result.players, DECK_SIZE),
            )
            assert report.violations == [], (path, pov, report.to_text())
            assert report.unparsed == []
            assert [loss.player for loss in report.losses] == [p for p, _, _ in result.losses]
            audited[pov] += 1
    assert sum(audited.values()) == 2 * len(results)


def _reparsed(result, pov):
    return parse_log(format_log(pov_events(result, pov, timestamps=True))).events


def test_every_violation_kind_has_a_mutator():
    assert set(MUTATORS) == set(Violation)


@pytest.fixture(scope="module")
def legal_logs():
    """(result, pov, events) for many games; rare situations need many games to appear."""
    return [
        (result, pov, pov_events(result, pov))
        for result in _games(12, seed=2)
        for pov in result.players
    ]


@pytest.mark.parametrize("kind", list(Violation), ids=str)
def test_an_injected_violation_is_found_at_its_line(kind, legal_logs, card_list):
    cards = {card.name: card for card in card_list}
    found, tried = 0, 0
    for number, (result, pov, events) in enumerate(legal_logs):
        decks = dict.fromkeys(result.players, DECK_SIZE)
        mutation = mutate(kind, events, random.Random(number), cards, decks)
        if mutation is None:
            continue
        tried += 1
        report = audit(
            parse_log(format_log(mutation.events)).events, card_list, pov=pov, decks=decks
        )
        findings = {(v.kind, v.line) for v in report.violations}
        assert findings == {(kind, mutation.line)}, (mutation.note, report.to_text())
        found += 1
        if tried == MUTATIONS_PER_KIND:
            break
    assert tried >= 3, f"only {tried} logs had a place for {kind}"
    assert found == tried
