"""The searching player (zcards.sim.search): its games stay legal for the audit, it is the same
player in every process, it chump-blocks where that saves more than it costs, and it keeps its
deck. How much stronger it is than the greedy player is measured by scripts/bench_search.py
(a benchmark, not a test)."""

from __future__ import annotations

import json
import random

import pytest
from support.processes import run, zcards_argv

from lackey_plugin.log.parser import parse_log_text
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.game.ledger import Game
from zcards.resources import starter_decks
from zcards.rules.engine import audit
from zcards.sim.batch import game_seed
from zcards.sim.decklists import read_decks
from zcards.sim.declaring import Assignment
from zcards.sim.game import play_game
from zcards.sim.recorder import record
from zcards.sim.search import STRATEGIES, SearchStrategy


def test_games_of_the_searching_player_are_legal_for_the_audit() -> None:
    for deck in read_decks(starter_decks()):
        cards = CardIndex(deck.cards)
        for seat in (0, 1):
            strategies = ("search", "greedy") if seat == 0 else ("greedy", "search")
            result = play_game((deck, deck), game_seed(3, seat, deck.name), strategies=strategies)
            for pov in result.players:
                parsed = parse_log_text(record(result, pov).text(), game=ZOMBIE_GAME)
                report = audit(
                    parsed.events, cards, pov=pov, decks=dict.fromkeys(result.players, 40)
                )
                assert report.violations == [], (deck.name, seat, pov, report.violations[:3])


@pytest.mark.slow
def test_the_searching_player_is_the_same_in_every_process(tmp_path) -> None:
    reports = {
        run(
            zcards_argv(
                "balance", "-n", "1", "-j", "2", "--strategy", "search", "--format", "json"
            ),
            tmp_path,
            env={"PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(reports) == 1
    assert json.loads(reports.pop())["players"]["strategy"] == "search"


class Watching(SearchStrategy):
    """The searching player, noting each block it makes whose fight its survivor loses."""

    chump_blocks = 0

    def defend(self, assignment: Assignment) -> None:
        super().defend(assignment)
        for survivor, zombies in assignment.fights():
            if assignment.blocked(survivor) and assignment.outcomes(survivor, zombies).win:
                Watching.chump_blocks += 1


def test_the_searching_player_chump_blocks_and_the_greedy_one_never_does(monkeypatch) -> None:
    monkeypatch.setitem(STRATEGIES, "search", Watching)
    rage = next(deck for deck in read_decks(starter_decks()) if deck.name == "rage-starter")
    for index in range(6):
        play_game((rage, rage), game_seed(5, index), strategies=("search", "greedy"))
    assert Watching.chump_blocks > 0


def test_it_draws_by_card_text_only_while_its_deck_is_the_longer() -> None:
    decks = read_decks(starter_decks())
    cards = CardIndex(c for deck in decks for c in deck.cards)
    player = SearchStrategy(random.Random(0), cards)
    game = Game(cards)
    me, other = game.edit("Alice"), game.edit("Bob")
    player.game = game
    me.deck, other.deck = 20, 10
    assert player._may_draw(me)
    me.deck = 12
    assert not player._may_draw(me)
