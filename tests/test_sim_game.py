"""The simulator plays complete, rule-following games, deterministically, from the starter decks."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from zcards.game.definition import PHASES
from zcards.game.table import EMPTY_DECK, NO_SURVIVORS
from zcards.resources import starter_decks
from zcards.sim.actions import ActionKind
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.game import TURN_CAP, DeckList, play_game


@pytest.fixture(scope="module")
def decks():
    return load_decks([])


@pytest.fixture(scope="module")
def games():
    """Every pairing of starter decks, with random and greedy players."""
    played = []
    for pair in itertools.combinations_with_replacement(starter_decks(), 2):
        for strategies in (("greedy", "greedy"), ("random", "greedy"), ("random", "random")):
            played.extend(iter_games(load_decks(list(pair)), 6, 3, strategies=strategies))
    return played


def test_the_same_seed_plays_the_same_game(decks):
    first = play_game(decks, 42, strategies=("random", "greedy"))
    again = play_game(decks, 42, strategies=("random", "greedy"))
    other = play_game(decks, 43, strategies=("random", "greedy"))
    assert first == again
    assert first.actions != other.actions


def test_games_end_when_one_player_remains(games):
    endings = Counter(result.ending for result in games)
    assert set(endings) <= {NO_SURVIVORS, EMPTY_DECK}
    for result in games:
        ((loser, reason, turn),) = result.losses
        assert reason == result.ending and turn == result.turns
        assert result.survivor == next(p for p in result.players if p != loser)
        last = result.actions[-1]
        if last.kind is ActionKind.TAKE_CONTROL:
            assert last.player == result.survivor
        else:
            assert last.player == loser


def test_a_game_stops_at_the_turn_cap(decks):
    result = play_game(decks, 7, max_turns=2)
    assert (result.ending, result.turns, result.survivor, result.losses) == (TURN_CAP, 2, None, ())
    assert [a.new for a in result.actions if a.kind is ActionKind.NEXT_TURN] == [1, 2]


def test_a_player_without_opening_survivors_has_lost_before_turn_one(decks):
    zombies = DeckList("zombies", tuple(c for c in decks[0].cards if c.type == "Zombie") * 3)
    result = play_game([zombies, decks[1]], 3)
    assert (result.ending, result.turns, result.survivor) == (NO_SURVIVORS, 0, "Bob")
    assert result.losses == (("Alice", NO_SURVIVORS, 0),)
    assert not any(action.kind is ActionKind.NEXT_TURN for action in result.actions)


def test_setup_follows_the_bidding_and_opening_rulings(games, bundled_by_name):
    for result in games:
        actions = list(result.actions)
        bids = [(a.new, a.player) for a in actions if a.kind is ActionKind.BID]
        assert len(bids) == 2 and all(0 <= bid <= 10 for bid, _ in bids)
        winning_bid, winner = min(bids, key=lambda bid: bid[0])  # the earlier bid wins ties
        food = [
            a
            for a in actions[: _first(actions, ActionKind.NEXT_TURN)]
            if a.kind is ActionKind.SET_FOOD
        ]
        expected = [] if winning_bid == 10 else [(winner, 10, winning_bid)]
        assert [(a.other, a.old, a.new) for a in food] == expected
        opening = Counter()
        for action in actions:
            if action.kind is ActionKind.PLAY_FROM_DECK:
                assert bundled_by_name[action.card].type == "Survivor"
                opening[action.player] += bundled_by_name[action.card].cost
        assert all(total <= 6 for total in opening.values())
        first_turn = actions[_first(actions, ActionKind.NEXT_TURN)]
        assert first_turn.other == result.first_player == first_turn.player


def test_every_turn_runs_the_phases_in_order(games):
    for result in games:
        turns = _turns(result.actions)
        for number, turn in enumerate(turns, start=1):
            assert turn[0].kind is ActionKind.NEXT_TURN and turn[0].new == number
            phases = [(a.old, a.new) for a in turn if a.kind is ActionKind.NEXT_PHASE]
            complete = list(itertools.pairwise(PHASES))
            assert phases == complete[: len(phases)]
            assert len(phases) == len(complete) or number == len(turns)


def _drawing_text(card) -> bool:
    """A card whose text draws or discards (Road Map, Swarm Caller, Librarian Ruth)."""
    return any(word in card.text for word in ("in your hand", "draw a card", "discard a card"))


def test_draw_build_and_costs_follow_the_rules(games, bundled_by_name):
    for result in games:
        for turn in _turns(result.actions):
            active = turn[0].other
            phase = "Ready"
            drawn, discarded, resources = Counter(), Counter(), Counter()
            for index, action in enumerate(turn):
                if action.kind is ActionKind.NEXT_PHASE:
                    phase = action.new
                elif action.kind in (ActionKind.DRAW, ActionKind.DRAW_MANY, ActionKind.DISCARD):
                    if phase != "Draw":  # card text: right after the card is played or spent
                        used = [a for a in turn[:index] if a.player == action.player][-2:]
                        assert any(
                            _drawing_text(bundled_by_name[a.card]) for a in used if a.card
                        ), action
                    elif action.kind is ActionKind.DISCARD:
                        assert drawn[action.player] == 2
                        discarded[action.player] += 1
                    else:
                        drawn[action.player] += (
                            action.new if action.kind is ActionKind.DRAW_MANY else 1
                        )
                elif action.kind is ActionKind.PLAY_RESOURCE:
                    assert phase == "Build"
                    resources[action.player] += 1
                elif action.kind is ActionKind.PLAY_FROM_HAND:
                    assert phase == "Build" and action.player == active
                    cost = bundled_by_name[action.card].cost
                    paid = turn[index - cost : index] if cost else []
                    assert all(a.kind is ActionKind.SPEND and a.player == active for a in paid)
            assert all(count == 1 for count in resources.values())
            if PHASES.index(phase) > PHASES.index("Draw"):  # else the game ended before
                assert set(drawn.values()) == {2} and set(discarded.values()) == {1}


def test_scavenging_gains_food_only_on_two_to_six(games):
    rolls = Counter()
    for result in games:
        actions = result.actions
        for index, action in enumerate(actions):
            if action.kind is ActionKind.ROLL:
                after = actions[index + 1]
                gained = after.kind is ActionKind.SET_FOOD and after.new == after.old + 1
                assert gained == (action.new >= 2)
                rolls[action.new >= 2] += 1
                if action.new == 1:
                    assert (
                        after.kind is ActionKind.PLAY_TOP_FACE_DOWN
                        and after.player != action.player
                    )
    assert rolls[True] and rolls[False]


def test_simulated_games_use_every_kind_of_action(games):
    used = Counter(action.kind for result in games for action in result.actions)
    assert set(ActionKind) <= set(used), set(ActionKind) - set(used)


def _first(actions, kind: ActionKind) -> int:
    return next(index for index, action in enumerate(actions) if action.kind is kind)


def _turns(actions):
    starts = [i for i, action in enumerate(actions) if action.kind is ActionKind.NEXT_TURN]
    return [list(actions[a:b]) for a, b in zip(starts, [*starts[1:], len(actions)], strict=True)]


def test_a_simulated_game_shows_an_item_changing_a_fight(monkeypatch):
    """The simulator plays card text: a Baseball Bat or a Fire Axe on a survivor, a Boarded
    Windows or a Riot Armour, makes some fight end otherwise than it would without the items
    on the table (the same fight, resolved by the rules model with the defender's items
    taken away)."""
    from zcards.game import apply_fights, fights
    from zcards.game.power import Powers

    changed = []

    def spy(fight, powers):
        result = fights.resolve(fight, powers)
        defender = powers.table.players[fight.defender]
        items, defender.items = defender.items, []
        without = fights.resolve(fight, Powers(powers.cards, powers.table, powers.boosts))
        defender.items = items
        if (result.zombies_win, result.killed) != (without.zombies_win, without.killed):
            changed.append((fight.survivor.name, [item.name for item in items]))
        return result

    monkeypatch.setattr(apply_fights, "resolve", spy)  # where the executor fights
    pair = [path for path in starter_decks() if "horde" in path.name or "rage" in path.name]
    list(iter_games(load_decks(pair), 20, 11))
    assert changed, "no fight in 20 games was changed by an item"
    assert all(items for _, items in changed)
