"""The executor's cross-check: simulated games, whose players choose only from
``legal_actions`` and change the game only through ``apply``, replayed action by action
through ``legal`` (every action must be allowed); and the mutation check: a clause of ``legal``
switched off in the players' move generator lets illegal actions through, which the full
``legal`` refuses, and the audit reports where it checks that rule."""

from __future__ import annotations

import pytest
from support.executor_games import MUTANTS, TEXT_ONLY, Refusals, Refused, games, seated_games

from lackey_plugin.log.parser import parse_log_text
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules.engine import audit
from zcards.sim.recorder import record


def test_simulated_games_replay_legal_action_by_action(bundled_cards):
    """54 games: every pairing of starters and of text decks, each strategy mix, both seats."""
    refusals = Refusals()
    played = list(games(bundled_cards, 3, seed=11, refusals=refusals))
    assert len(played) == 54 and refusals.actions > 10_000
    assert not refusals.counts, refusals.examples


@pytest.mark.slow
def test_a_thousand_simulated_games_replay_legal_action_by_action(bundled_cards):
    refusals = Refusals()
    played = sum(1 for _ in games(bundled_cards, 56, seed=12, refusals=refusals))
    assert played >= 1000
    assert not refusals.counts, refusals.examples


SLOW_MUTANTS = {"fight-text"}  # its first illegal fight comes some 35 games in


@pytest.fixture(scope="module")
def card_index(bundled_cards):
    return CardIndex(bundled_cards)


@pytest.mark.parametrize(
    "clause",
    [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_MUTANTS else c for c in sorted(MUTANTS)],
)
def test_a_clause_switched_off_lets_illegal_actions_through(clause, bundled_cards, card_index):
    """The players' move generator without one clause: the game reaches an action the full
    ``legal`` refuses with that clause's rule, and the audit, where it checks the rule,
    reports the log of that game."""
    kind, rule, violation = MUTANTS[clause]
    refusals = Refusals(stop=True)
    text_only = clause in TEXT_ONLY
    played = games(bundled_cards, 40, 13, refusals, without={clause}, text_only=text_only)
    with pytest.raises(Refused) as stopped:
        for _ in played:
            pass
    assert stopped.value.args[0] == (kind, rule), refusals.examples
    if violation is None:
        return
    assert any(violation in kinds for kinds in _audited_mutants(clause, bundled_cards, card_index))


def _audited_mutants(clause, bundled_cards, card_index, wanted=3):
    """The audit's violation kinds on the first ``wanted`` mutant games that broke a rule."""
    mutant = Refusals()
    found = []
    text_only = clause in TEXT_ONLY
    for result in games(bundled_cards, 40, 13, mutant, without={clause}, text_only=text_only):
        if not mutant.counts:
            continue
        mutant.counts.clear()
        kinds = set()
        for pov in result.players:
            events = parse_log_text(record(result, pov).text(), game=ZOMBIE_GAME).events
            report = audit(events, card_index, pov=pov, decks=dict.fromkeys(result.players, 40))
            kinds |= {v.kind for v in report.violations}
        found.append(kinds)
        if len(found) == wanted:
            break
    return found


@pytest.mark.parametrize(
    ("players", "count"),
    [
        (3, 4),
        (4, 3),
        pytest.param(3, 60, marks=pytest.mark.slow),
        pytest.param(4, 60, marks=pytest.mark.slow),
    ],
)
def test_three_and_four_player_games_replay_legal_and_audit_clean(players, count, card_index):
    """Every zombie player attacks the active player, each pays a Scavenger's penalty, a
    player who lost leaves; every action is legal and every player's log audits without a
    violation, except where the audit still expects a survivor infected by a player who has
    since lost to go to him (R11.3 with R14.2: a player who lost takes no game action)."""
    refusals = Refusals()
    kinds: set[str] = set()
    for result in seated_games(players, count, 5, refusals):
        assert len(result.players) == players and result.survivor is not None
        for pov in result.players:
            events = parse_log_text(record(result, pov).text(), game=ZOMBIE_GAME).events
            report = audit(events, card_index, pov=pov, decks=dict.fromkeys(result.players, 40))
            kinds |= {v.kind for v in report.violations}
    assert refusals.actions > 300 * count and not refusals.counts, refusals.examples
    assert kinds <= {"dead-survivor"}, kinds
