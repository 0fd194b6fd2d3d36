"""Recording styles: each writes the same legal game the way real players record it, and
everything a style adds or changes is one of the contract's allowed deviations."""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import pairwise

import pytest

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import parse_log_text
from zcards.cli import main
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.sim.actions import ActionKind
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import RecordedLog, game_log, record
from zcards.sim.styles import (
    BID_FORMS,
    MIXED,
    STYLE_NAMES,
    STYLES,
    RecordingStyle,
    resolve_style,
)

INVERSE = {
    Meaning.WOUND: Meaning.HEAL,
    Meaning.HEAL: Meaning.WOUND,
    Meaning.INFECT: Meaning.CURE,
    Meaning.TO_COMBAT: Meaning.LEAVE_COMBAT,
    Meaning.SPEND: Meaning.READY,
}


@pytest.fixture(scope="module")
def results():
    return list(iter_games(load_decks([]), 30, 4, strategies=("random", "greedy")))


@pytest.mark.parametrize("name", STYLE_NAMES)
def test_every_style_parses_back_to_its_events_from_both_points_of_view(name, results):
    for result in results[:6]:
        for pov in result.players:
            style = resolve_style(name, result.seed)
            log = record(result, pov, style)
            assert game_log(result, pov, style=style) == log.text()  # the fast path agrees
            parsed = parse_log_text(log.text(), game=ZOMBIE_GAME)
            assert parsed.unparsed == []
            assert parsed.events == list(log.events)
            assert [event.line for event in parsed.events] == list(range(1, len(log.events) + 1))


@pytest.mark.parametrize("name", STYLE_NAMES)
def test_a_style_records_the_game_actions_of_the_protocol_log(name, results):
    """Take away the lines only the style adds and put moved lines back: what remains is the
    protocol log less the lines the style leaves out, action for action."""
    for result in results:
        style = resolve_style(name, result.seed)
        pov = result.players[result.seed % 2]
        protocol, styled = record(result, pov), record(result, pov, style)
        kept = {s: e for e, s in zip(styled.events, styled.sources, strict=True) if s is not None}
        dropped = set(range(len(result.actions))) - set(kept)
        assert {result.actions[index].kind for index in dropped} <= _may_drop(style)
        for index, event in zip(protocol.sources, protocol.events, strict=True):
            if index in kept:
                assert kept[index] == event or _is_bid_chat(kept[index], result.actions[index])


def _may_drop(style: RecordingStyle) -> set[ActionKind]:
    drops = {
        ActionKind.NEW_GAME: not style.new_game_line,
        ActionKind.NEXT_TURN: not style.turn_one_line,
        ActionKind.BID: style.bids == "silent",
    }
    return {kind for kind, dropped in drops.items() if dropped}


def _is_bid_chat(event: ev.Event, action) -> bool:
    forms = {form.format(action.new) for form in BID_FORMS}
    return action.kind is ActionKind.BID and isinstance(event, ev.Chat) and event.text in forms


def test_left_out_lines_are_the_new_game_the_turn_one_and_the_bid_lines(results):
    for result in results:
        for name, missing in (
            ("no-new-game", ev.NewGame),
            ("no-turn-one", ev.TurnChange),
            ("silent-bids", ev.Chat),
        ):
            events = record(result, result.players[0], STYLES[name]).events
            kept = record(result, result.players[0]).events
            assert sum(isinstance(e, missing) for e in kept) - sum(
                isinstance(e, missing) for e in events
            ) == (2 if missing is ev.Chat else 1)
        turns = [
            e.number
            for e in record(result, "Alice", STYLES["no-turn-one"]).events
            if isinstance(e, ev.TurnChange)
        ]
        assert turns == list(range(2, result.turns + 1))


def test_chat_bids_use_the_forms_people_type_and_silent_bids_keep_the_food_line(results):
    forms: Counter[str] = Counter()
    for result in results:
        bids = [a for a in result.actions if a.kind is ActionKind.BID]
        chats = [
            e for e in record(result, "Bob", STYLES["chat-bids"]).events if isinstance(e, ev.Chat)
        ]
        assert [int(re.search(r"-?\d+", c.text).group()) for c in chats] == [b.new for b in bids]
        assert [c.player for c in chats] == [b.player for b in bids]
        forms.update(re.sub(r"\d+", "N", chat.text) for chat in chats)
        silent = record(result, "Bob", STYLES["silent-bids"]).events
        food = [e for e in silent if isinstance(e, ev.StatChange)]
        setup_food = [
            a for a in result.actions[: _first_turn(result)] if a.kind is ActionKind.SET_FOOD
        ]
        assert len([e for e in food if e.line < _first_phase_line(silent)]) == len(setup_food)
    assert len(forms) == len(BID_FORMS)


def _first_turn(result) -> int:
    return next(i for i, a in enumerate(result.actions) if a.kind is ActionKind.NEXT_TURN)


def _first_phase_line(events) -> int:
    return next(e.line for e in events if isinstance(e, ev.PhaseChange | ev.TurnChange))


def test_corrections_are_exact_inverses_on_the_next_game_action(results):
    """Each added line and the next added line that is not chat undo each other: the same
    card (or player's food), counters chaining back, nothing of the game in between."""
    seen: Counter[str] = Counter()
    for result in results:
        log = record(result, result.players[1], STYLES["corrections"])
        added = [e for e, s in zip(log.events, log.sources, strict=True) if s is None]
        actions = [e for e in added if not isinstance(e, ev.Chat)]
        assert len(actions) % 2 == 0
        for first, second in zip(actions[::2], actions[1::2], strict=True):
            assert second.line == first.line + 1
            assert first.player == second.player
            seen[_check_inverse(first, second)] += 1
    assert set(seen) == {"counter", "food", "function", "play"}, seen


def _check_inverse(first: ev.Event, second: ev.Event) -> str:
    if isinstance(first, ev.CounterChange):
        assert isinstance(second, ev.CounterChange) and second.card == first.card
        assert INVERSE[first.meaning] == second.meaning
        assert (second.old, second.new) == (first.new, first.old)
        return "counter"
    if isinstance(first, ev.StatChange):
        assert isinstance(second, ev.StatChange) and second.target == first.target
        assert (second.old, second.new) == (first.new, first.old)
        return "food"
    if isinstance(first, ev.Perform):
        assert isinstance(second, ev.Perform) and second.card == first.card
        assert (first.meaning, second.meaning) == (Meaning.SPEND, Meaning.READY)
        return "function"
    assert isinstance(first, ev.Play) and first.src_zone == "Hand"
    assert isinstance(second, ev.TableToZone) and second.card == first.card
    assert (second.dst_owner, second.dst_zone) == (first.player, "Hand")
    return "play"


def test_lagged_draws_are_a_non_active_players_just_before_the_draw_phase_line(results):
    lagged = 0
    for result in results:
        log = record(result, result.players[0], STYLES["phase-lag"])
        events = log.events
        for index, event in enumerate(events):
            if not (isinstance(event, ev.PhaseChange) and event.new == "Draw"):
                continue
            before = index
            while isinstance(events[before - 1], ev.Draw):
                before -= 1
            early = events[before:index]
            assert len({e.player for e in early}) <= 1
            assert all(e.player != event.player for e in early)  # never the active player
            lagged += bool(early)
    assert lagged > 10


def test_spectators_watch_and_talk_but_never_act(results):
    for result in results[:10]:
        events = record(result, "Alice", STYLES["spectators"]).events
        joined = next(e for e in events if isinstance(e, ev.Seat) and e.action == "spectate")
        assert joined.player not in result.players
        assert all(isinstance(e, ev.Seat) for e in events[: joined.line - 1])
        spoken = {type(e) for e in events if getattr(e, "player", None) == joined.player}
        assert spoken <= {ev.Seat, ev.Chat} and ev.Chat in spoken


def test_mixed_styles_vary_per_game_and_both_logs_of_a_game_agree(results):
    styles = {resolve_style(MIXED, result.seed) for result in results}
    assert len(styles) > 10
    for result in results[:10]:
        style = resolve_style(MIXED, result.seed)
        assert style == resolve_style(MIXED, result.seed)
        alice, bob = (record(result, pov, style) for pov in result.players)
        assert alice.sources == bob.sources
        assert _style_lines(alice) == _style_lines(bob)


def _style_lines(log: RecordedLog) -> list[ev.Event]:
    return [e for e, s in zip(log.events, log.sources, strict=True) if s is None]


def test_simulate_writes_logs_in_the_chosen_style(tmp_path, capsys):
    args = ["simulate", "-n", "3", "--seed", "2", "--style", "no-turn-one", "--format", "json"]
    main([*args, "--out", str(tmp_path)])
    assert json.loads(capsys.readouterr().out)["style"] == "no-turn-one"
    for path in sorted(tmp_path.iterdir()):
        text = path.read_text(encoding="utf-8")
        assert "Current Turn: #1," not in text and "Current Turn: #2," in text
    with pytest.raises(SystemExit) as bad:
        main(["simulate", "--style", "sloppy"])
    assert bad.value.code == 2 and "sloppy" in capsys.readouterr().err


def test_stamps_never_go_backwards(results):
    for result in results[:5]:
        log = record(result, "Bob", STYLES["timestamps"])
        assert all(a.seconds < b.seconds for a, b in pairwise(log.events))
