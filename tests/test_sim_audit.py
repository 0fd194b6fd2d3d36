"""Simulated games against the audit, in every recording style: legal logs are clean from both
points of view, and every injected violation is found at the injected line (and nothing
else is). A failure names the style, so a false violation points at the audit rule that
does not yet accept that way of recording a game."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

import pytest
from support.faults import MUTATORS, UNVERIFIABLE, mutate

from lackey_plugin.log.parser import parse_log_text
from zcards.game.cards import CardIndex
from zcards.game.catalogue import Kind as Violation
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import starter_decks
from zcards.rules.engine import audit
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import RecordedLog, record
from zcards.sim.styles import STYLE_NAMES, resolve_style

DECK_SIZE = 40
STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
CONTRACT_KINDS = frozenset(Violation)  # every violation kind the audit reports
MUTATIONS_PER_STYLE = 3
# Styles whose logs cannot carry a kind: without bid chat, neither a bid nor the starting
# food it sets can be checked.
NO_PLACE = {("silent-bids", "bid-range"), ("silent-bids", "bid-food")}


@pytest.fixture(scope="module")
def card_index(bundled_cards):
    return CardIndex(bundled_cards)


def _games(per_pairing: int, seed: int):
    """Every pairing of two different starter decks, with each mix of strategies."""
    for pair in itertools.combinations(starter_decks(), 2):
        decks = load_decks(list(pair))
        for strategies in STRATEGIES:
            yield from iter_games(decks, per_pairing, seed, strategies=strategies)


@pytest.mark.slow
def test_a_thousand_legal_games_in_every_style_are_clean_from_both_points_of_view(card_index):
    """1,008 games, each recorded in one style (the styles take turns), audited from both
    players' logs as written and parsed back."""
    results = list(_games(112, seed=1))
    assert len(results) >= 1000
    false: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, str] = {}
    audited: Counter[str] = Counter()
    for index, result in enumerate(results):
        name = STYLE_NAMES[index % len(STYLE_NAMES)]
        style = resolve_style(name, result.seed)
        for pov in result.players:
            parsed = parse_log_text(record(result, pov, style).text(), game=ZOMBIE_GAME)
            assert parsed.unparsed == [], (name, result.seed, pov)
            report = audit(parsed.events, card_index, pov=pov, decks=_decks(result))
            audited[name] += 1
            for violation in report.violations:
                false[name][violation.kind] += 1
                examples.setdefault(name, f"seed {result.seed}, {pov}: {violation}")
            losers = [loss.player for loss in report.losses]
            if not report.violations and losers != [player for player, _, _ in result.losses]:
                false[name]["(losses)"] += 1  # who lost, as the audit tells it
                examples.setdefault(name, f"seed {result.seed}, {pov}: losses {losers}")
    assert set(audited) == set(STYLE_NAMES) and min(audited.values()) >= 180
    assert not false, _table(false, audited, examples)


def _decks(result) -> dict[str, int]:
    return dict.fromkeys(result.players, DECK_SIZE)


def _table(false: dict[str, Counter[str]], audited: Counter[str], examples: dict[str, str]):
    rows = [
        f"{name}: {sum(kinds.values())} false findings in {audited[name]} logs "
        f"({dict(kinds)}); e.g. {examples[name]}"
        for name, kinds in sorted(false.items())
    ]
    return "legal games with violations:\n" + "\n".join(rows)


def test_every_violation_kind_has_a_mutator():
    assert set(Violation) <= set(MUTATORS)
    assert set(MUTATORS) == CONTRACT_KINDS
    assert set(MUTATORS) >= UNVERIFIABLE


@pytest.fixture(scope="module")
def legal_games():
    """Games for the mutators; rare situations need many games to appear."""
    return list(_games(8, seed=2))


def _kinds_by_style() -> list:
    """Every violation kind in every style; the default run takes one style per kind, in
    turn (each kind once, each style two or three times), the slow run the rest."""
    kinds = sorted(CONTRACT_KINDS)
    return [
        pytest.param(
            kind,
            name,
            marks=() if s == k % len(STYLE_NAMES) else pytest.mark.slow,
        )
        for (k, kind), (s, name) in itertools.product(enumerate(kinds), enumerate(STYLE_NAMES))
    ]


@pytest.mark.parametrize(("kind", "name"), _kinds_by_style())
def test_an_injected_violation_is_found_at_its_line(
    kind, name, legal_games, bundled_cards, card_index
):
    """Each mutator's violation, in each style, is reported at its line and nothing else is;
    ``food-total`` (an unlogged change) is reported unverifiable and is no violation."""
    by_name = {card.name: card for card in bundled_cards}
    tried = 0
    for number, result in enumerate(legal_games):
        pov = result.players[number % 2]
        log = record(result, pov, resolve_style(name, result.seed))
        mutation = mutate(kind, log.events, random.Random(number), by_name, _decks(result))
        if mutation is None:
            continue
        tried += 1
        text = RecordedLog(mutation.events, (), log.pronoun).text()
        report = audit(
            parse_log_text(text, game=ZOMBIE_GAME).events, card_index, pov=pov, decks=_decks(result)
        )
        violations = {(v.kind, v.line) for v in report.violations}
        where = (name, result.seed, pov, mutation.note, report.to_text())
        if kind in UNVERIFIABLE:
            assert violations == set(), where
            assert (kind, mutation.line) in {(u.kind, u.line) for u in report.unverifiable}, where
        else:
            assert violations == {(kind, mutation.line)}, where
        if tried == MUTATIONS_PER_STYLE:
            break
    assert tried >= 1 or (name, kind) in NO_PLACE, f"no {name} log had a place for {kind}"
