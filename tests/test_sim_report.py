"""Simulated games as Lackey logs, the balance report, and ``zcards simulate``."""

from __future__ import annotations

import json
import re

import pytest

from lackey_plugin.log.parser import parse_log_text
from zcards.cli import main
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import starter_decks
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.game import play_game
from zcards.sim.recorder import game_log, pov_events
from zcards.sim.report import summarise_games, wilson


@pytest.fixture(scope="module")
def result():
    return play_game(load_decks([]), 11, strategies=("random", "greedy"))


def test_each_player_sees_his_own_single_draws_and_no_face_down_card(result):
    alice, bob = (game_log(result, name).splitlines() for name in result.players)
    assert len(alice) == len(bob) == len(result.actions)
    differing = [(a, b) for a, b in zip(alice, bob, strict=True) if a != b]
    assert differing, "single draws must differ between the two logs"
    for mine, theirs in differing:
        drawer = mine.split(" draws ")[0]
        named, hidden = (mine, theirs) if drawer == "Alice" else (theirs, mine)
        assert hidden == f"{drawer} draws a card." and named != hidden
    hidden = 0
    for action, seen_by_alice, seen_by_bob in zip(result.actions, alice, bob, strict=True):
        if action.face_down:
            hidden += 1
            for line in (seen_by_alice, seen_by_bob):
                assert action.card not in line
                assert "a face down card" in line or "a face-down card" in line
    assert hidden


def test_a_log_parses_back_to_the_events_it_was_written_from(result):
    for pov in result.players:
        events = pov_events(result, pov, timestamps=True)
        parsed = parse_log_text(game_log(result, pov, timestamps=True), game=ZOMBIE_GAME)
        assert parsed.unparsed == []
        assert parsed.events == events
        seconds = [event.seconds for event in parsed.events]
        assert seconds == sorted(seconds)


def test_wilson_interval_matches_known_values():
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_report_counts_wins_by_deck_and_turn_order():
    results = list(iter_games(load_decks([]), 20, 5))
    report = summarise_games(results)
    assert report.games == 20 and sum(report.endings.values()) == 20
    assert all(rate.games == 20 for rate in report.by_deck.values())
    survivors = [r for r in results if r.survivor]
    assert sum(rate.wins for rate in report.by_deck.values()) == len(survivors)
    first = sum(1 for r in survivors if r.survivor == r.first_player)
    assert report.by_seat_order["first player"].wins == first
    assert report.min_turns <= report.average_turns <= report.max_turns


def test_simulate_writes_one_log_per_game_and_a_json_report(tmp_path, capsys):
    args = ["simulate", "--games", "4", "--seed", "9", "--format", "json", "--timestamps"]
    main([*args, "--out", str(tmp_path / "a")])
    report = json.loads(capsys.readouterr().out)
    main([*args, "--out", str(tmp_path / "b")])
    assert report["games"] == 4 and sum(report["endings"].values()) == 4
    assert set(report["by_deck"]) == {path.stem for path in starter_decks()[:2]}
    logs = sorted(path.name for path in (tmp_path / "a").iterdir())
    assert logs == [f"game-000{n}.txt" for n in range(1, 5)]
    for name in logs:
        text = (tmp_path / "a" / name).read_text(encoding="utf-8")
        assert text == (tmp_path / "b" / name).read_text(encoding="utf-8")
        assert re.match(r"\[\d+:\d\d:\d\d\] Alice sits down at seat 1", text)


def test_simulate_text_report_with_decks_and_strategies(capsys):
    rage, horde = (str(p) for p in starter_decks() if p.stem in ("rage-starter", "horde-starter"))
    main(
        [
            "simulate",
            "-n",
            "6",
            "--deck",
            rage,
            "--deck",
            horde,
            "--strategy",
            "random",
            "--strategy",
            "greedy",
        ]
    )
    out = capsys.readouterr().out
    assert "games: 6" in out
    assert "random vs greedy (3), greedy vs random (3)" in out
    assert re.search(r"rage-starter\s+\d+/6 ", out)


def test_simulate_rejects_one_deck_and_unknown_cards(tmp_path, capsys):
    with pytest.raises(SystemExit) as one:
        main(["simulate", "--deck", str(starter_decks()[0])])
    assert one.value.code == 2 and "exactly two decks" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("2 Shambler\n3 Shamblr\n", encoding="utf-8")
    with pytest.raises(SystemExit) as unknown:
        main(["simulate", "--deck", str(bad), "--deck", str(bad)])
    err = capsys.readouterr().err
    assert unknown.value.code == 2 and "bad.txt" in err and "line 2" in err


def test_simulate_help_says_what_its_players_do(capsys):
    """The help tells a user what the automated players do with the rules and card text."""
    main(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for words in ("rules model", "card text", "items", "Medic heals", "Scavenger", "'greedy'"):
        assert words in out
