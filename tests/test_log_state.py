"""``zcards log state LOG --at LINE``: the table after a line as the audit sees it, in text and
JSON, with the findings at that line and their rules quoted; readings that differ each shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.paths import LOGS, ROOT

from zcards.cli import main
from zcards.game.catalogue import rule_text

EXAMPLE_GAME = ROOT / "examples" / "game.txt"  # Bob draws a third card at line 38
CARDS = LOGS / "cards.txt"


@pytest.fixture(autouse=True)
def _capture(capsys: pytest.CaptureFixture[str]) -> None:
    global _capsys
    _capsys = capsys


def state(*args: object) -> tuple[int, str, str]:
    """``zcards log state`` through the real entry point: exit code, stdout, stderr."""
    try:
        main(["log", "state", *map(str, args)])
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = _capsys.readouterr()
    return code, out, err


def state_json(*args: object) -> dict:
    code, out, err = state(*args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_the_table_after_the_violation_line_with_its_rule_quoted() -> None:
    data = state_json(EXAMPLE_GAME, "--at", 38)
    assert (data["line"], data["text"]) == (38, "Bob draws a card.")
    [reading] = data["readings"]
    assert (reading["turn"], reading["phase"], reading["active"]) == (2, "Draw", "Bob")
    alice, bob = reading["players"]["Alice"], reading["players"]["Bob"]
    # 7 opening cards; Alice drew 2, discarded 1 and played a resource in each turn so far
    assert (alice["food"], alice["hand"], alice["discard"]) == (3, 7, ["Shambler"])
    assert (bob["food"], bob["hand"], bob["discard"]) == (10, 10, ["Baseball Bat"])
    assert [s["name"] for s in alice["survivors"]] == ["Kyle Bjorn", "Nurse Ratchet", "Old Pete"]
    assert alice["resource"]["face_down_ready"] == 1 and bob["resource"]["face_down_ready"] == 1
    [finding] = data["findings"]
    assert (finding["list"], finding["kind"], finding["rule"]) == (
        "violations",
        "draw-count",
        "R5.1",
    )
    assert finding["quote"] == rule_text("R5.1")


def test_text_names_the_line_each_player_and_the_finding() -> None:
    code, out, _ = state(EXAMPLE_GAME, "--at", 38)
    assert code == 0
    assert out.startswith("After line 38: Bob draws a card.\n\nTurn 2, Bob's turn, Draw phase\n")
    assert "\nAlice: food 3, hand 7, deck ?\n" in out and "\nBob: food 10, hand 10, deck ?\n" in out
    assert "  survivors:      Kyle Bjorn; Nurse Ratchet; Old Pete\n" in out
    assert f'      R5.1: "{rule_text("R5.1")}"\n' in out


def test_a_spent_survivor_and_a_line_between_events() -> None:
    """Old Pete is spent for his roll at line 29; line 35 readies him again."""
    spent = state_json(EXAMPLE_GAME, "--at", 29)["readings"][0]["players"]["Alice"]
    assert [s["spent"] for s in spent["survivors"]] == [False, False, True]
    ready = state_json(EXAMPLE_GAME, "--at", 35)["readings"][0]["players"]["Alice"]
    assert [s["spent"] for s in ready["survivors"]] == [False, False, False]


def test_readings_that_differ_are_each_shown_with_what_they_assume() -> None:
    """No turn line before turn 1: either player may have taken it (R17.10)."""
    data = state_json(LOGS / "legal-no-start-lines.txt", "--cards", CARDS, "--at", 17)
    assumed = {r["assumes"]: r["active"] for r in data["readings"]}
    assert assumed == {"if Alice took turn 1": "Alice", "if Bob took turn 1": "Bob"}
    code, out, _ = state(LOGS / "legal-no-start-lines.txt", "--cards", CARDS, "--at", 17)
    assert "Reading 1 of 2, if Alice took turn 1:" in out and "Reading 2 of 2, if Bob" in out
    # the players' parts are the same in both readings: shown once, before what differs
    assert out.count("\nAlice: food 3, hand 7") == 1
    assert out.index("In both readings:") < out.index("\nAlice: food 3") < out.index("Reading 1")
    assert "Reading 1 of 2, if Alice took turn 1:\nTurn 1, Alice's turn, Draw phase\n" in out


def test_a_hidden_zone_shows_what_the_boards_share_and_what_is_open() -> None:
    """Line 65 flips Runner, a face-down card whose zone the log never told."""
    data = state_json(LOGS / "legal-game.txt", "--cards", CARDS, "--at", 65)
    alice = data["readings"][0]["players"]["Alice"]
    assert alice["resource"]["face_down_ready"] == {"min": 1, "max": 2}
    assert [z["name"] for z in alice["resource"]["maybe"]] == ["Runner"]
    assert [z["name"] for z in alice["combat"]["maybe"]] == ["Runner"]
    code, out, _ = state(LOGS / "legal-game.txt", "--cards", CARDS, "--at", 65)
    assert "  resource zone:  1-2 face down ready, maybe Runner\n" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", 99), "--at 99: "),
        (("--at", 0), "--at"),
        (("--at", 38, "--pov", "Carol"), "--pov Carol: no line of"),
    ],
)
def test_bad_lines_and_names_are_usage_errors(args: tuple, message: str) -> None:
    code, _, err = state(EXAMPLE_GAME, *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_deck_list_makes_the_deck_count_known(tmp_path: Path) -> None:
    deck = tmp_path / "bob.txt"
    deck.write_text("40 Shambler\n")
    data = state_json(EXAMPLE_GAME, "--at", 38, "--deck", f"Bob={deck}")
    players = data["readings"][0]["players"]
    # 40 cards: 7 drawn, 2 opening survivors, 2 drawn on turn 1, 3 on turn 2
    assert (players["Bob"]["deck"], players["Alice"]["deck"]) == (26, None)


def test_a_blank_line_shows_the_table_after_the_line_before(tmp_path: Path) -> None:
    log = tmp_path / "gaps.txt"
    log.write_text("Alice sits down at seat 1\n\n\nBob sits down at seat 2\n")
    code, out, _ = state(log, "--at", 3)
    assert code == 0 and out.startswith("After line 1: Alice sits down at seat 1\n\nSetup\n")
    assert list(state_json(log, "--at", 4)["readings"][0]["players"]) == ["Alice", "Bob"]
