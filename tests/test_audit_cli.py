"""``zcards audit`` end to end: exit codes, text and JSON output, the JSON schema, inputs."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from support.paths import LOGS, ROOT

from zcards.cli import main

CARDS = LOGS / "cards.txt"
SCHEMA = json.loads((ROOT / "docs" / "audit-schema.json").read_text())
EXAMPLE_GAME = ROOT / "examples" / "game.txt"  # Bob draws a third card at line 38


@pytest.fixture(autouse=True)
def _capture(capsys: pytest.CaptureFixture[str]) -> None:
    global _capsys
    _capsys = capsys


class Done:
    """The outcome of one ``zcards audit`` run through the real entry point."""

    def __init__(self, args: tuple[str | Path, ...]) -> None:
        try:
            main(["audit", *map(str, args)])
            self.returncode = 0
        except SystemExit as exit_:
            self.returncode = exit_.code if isinstance(exit_.code, int) else 1
        self.stdout, self.stderr = _capsys.readouterr()


def zcards(*args: str | Path) -> Done:
    return Done(args)


def audit_json(*args: str | Path) -> tuple[int, dict]:
    done = zcards(*args, "--format", "json")
    data = json.loads(done.stdout)
    jsonschema.validate(data, SCHEMA)
    return done.returncode, data


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_clean_log_exits_0_with_valid_json() -> None:
    code, data = audit_json(LOGS / "legal-game.txt", "--cards", CARDS)
    assert code == 0
    assert data["violations"] == []
    assert data["players"] == ["Alice", "Bob"]
    assert data["summary"]["turns"] == 6
    assert data["summary"]["lost"] == [
        {"player": "Bob", "turn": 6, "line": 117, "reason": "no survivors"}
    ]


def test_players_and_pov_options() -> None:
    code, data = audit_json(
        LOGS / "legal-game.txt",
        "--cards",
        CARDS,
        "--pov",
        "Bob",
        "--player",
        "Bob",
        "--player",
        "Alice",
    )
    assert code == 0
    assert data["pov"] == "Bob"
    assert data["players"] == ["Alice", "Bob"]  # the seats decide the turn order


def test_violations_exit_1_with_valid_json() -> None:
    code, data = audit_json(LOGS / "combat-result.txt", "--cards", CARDS)
    assert code == 1
    [finding] = data["violations"]
    assert finding["kind"] == "combat-result" and finding["rule"] == "R10.5"
    assert finding["line"] == 92 and finding["turn"] == 4 and finding["phase"] == "Attack"
    assert finding["text"] == "Bob moves Tank from the table to the top of his Discard."


def test_schema_rejects_a_finding_without_rule() -> None:
    code, data = audit_json(LOGS / "combat-result.txt", "--cards", CARDS)
    del data["violations"][0]["rule"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_text_output_groups_by_turn_and_quotes_the_rule_and_the_line() -> None:
    done = zcards(LOGS / "legal-phase-back.txt", "--cards", CARDS, "--show", "warnings")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    turn = lines.index("Turn 1")
    assert lines[turn + 1].startswith("  line 25 [Build] warning under R3.3 (phase-back): Alice:")
    assert lines[turn + 2] == (
        '      R3.3: "Moving back a phase is a correction, not a play: it is a warning, and play '
        'is replayed from the earlier phase."'
    )
    assert lines[turn + 3] == "      > Alice takes back a phase: Build -> Draw"
    assert lines[-1] == (
        "Summary: 2 turns, nobody lost. 0 violations, 0 unverifiable findings, 1 warning, "
        "0 unparsed lines."
    )


def test_show_chooses_what_is_listed_and_the_summary_counts_everything() -> None:
    """By default the violations and unverifiable findings are listed, the warnings counted."""
    default = zcards(LOGS / "legal-phase-back.txt", "--cards", CARDS)
    assert default.returncode == 0 and "warning under" not in default.stdout
    assert default.stdout.splitlines()[-1].endswith(
        "1 warning, 0 unparsed lines. Not listed: warnings (--show)."
    )
    violations = zcards(EXAMPLE_GAME, "--show", "violations")
    assert violations.returncode == 1
    assert "  line 38 [Draw] VIOLATION of R5.1 (draw-count): Bob draws 3 cards" in violations.stdout
    assert "1 violation, 0 unverifiable findings, 0 warnings" in violations.stdout
    only_warnings = zcards(EXAMPLE_GAME, "--show", "warnings")
    assert only_warnings.returncode == 1 and "VIOLATION" not in only_warnings.stdout
    assert "Not listed: violations (--show)." in only_warnings.stdout
    everything = zcards(LOGS / "legal-phase-back.txt", "--cards", CARDS, "--show", "all")
    assert "warning under R3.3" in everything.stdout and "Not listed" not in everything.stdout
    wrong = zcards(EXAMPLE_GAME, "--show", "violations,errors")
    assert wrong.returncode == 2 and "errors: choose from" in wrong.stderr


@pytest.mark.parametrize("option", ["--pov", "--player"])
def test_a_name_the_log_never_names_is_a_usage_error(option: str) -> None:
    done = zcards(EXAMPLE_GAME, option, "Carol")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{option} Carol: no line of " in done.stderr
    assert "(it names Alice, Bob)" in done.stderr
    assert zcards(EXAMPLE_GAME, "--pov", "Bob").returncode == 1  # a name it does show


def test_the_saved_game_warning_is_at_the_load_line() -> None:
    log = LOGS / "handwritten" / "saved-game-reloaded.txt"
    lines = log.read_text().splitlines()
    load = 1 + next(i for i, line in enumerate(lines) if "loads a saved game" in line)
    code, data = audit_json(log, "--cards", CARDS)
    assert [w["line"] for w in data["warnings"] if w["kind"] == "saved-game"] == [load]


def test_deck_sizes_make_an_empty_deck_a_loss(tmp_path: Path) -> None:
    """Bob's 11 cards: 7 drawn, 2 opening survivors, 2 drawn on turn 1 -> he lost (R14.1)
    and his discard right after is an action after losing."""
    deck = tmp_path / "bob.txt"
    deck.write_text("11 Walker\n")
    code, data = audit_json(LOGS / "legal-game.txt", "--cards", CARDS, "--deck", f"Bob={deck}")
    assert code == 1
    assert data["summary"]["lost"][0] == {
        "player": "Bob",
        "turn": 1,
        "line": 23,
        "reason": "empty deck",
    }
    assert data["violations"][0]["kind"] == "action-after-loss"
    assert data["violations"][0]["line"] == 24


def test_audit_with_a_database(sample_db_path: Path) -> None:
    code, data = audit_json(LOGS / "legal-game.txt", "--db", sample_db_path)
    # the bundled set has no "Scout" etc.: unknown cards make findings unverifiable, not wrong
    assert code == 0
    assert data["violations"] == []
    assert data["unverifiable"]


@pytest.mark.parametrize(
    "args",
    [
        ("--cards", CARDS, "--db", "x.db"),
        ("--deck", "Bob"),
        ("--deck", "Bob=/no/such/deck.txt"),
        ("--cards", "/no/such/cards.txt"),
    ],
)
def test_usage_errors_exit_2(args: tuple) -> None:
    done = zcards(LOGS / "legal-game.txt", *args)
    assert done.returncode == 2, done.stderr
    assert "Error" in done.stderr


def test_unreadable_logs_exit_2(tmp_path: Path) -> None:
    binary = tmp_path / "game.txt"
    binary.write_bytes(b"Alice sits down at seat 1\n\x00\x01\x02 binary\n")
    for log in (tmp_path / "missing.txt", binary):
        done = zcards(log, "--cards", CARDS)
        assert done.returncode == 2, done.stderr


def test_help() -> None:
    done = zcards("--help")
    assert done.returncode == 0
    assert "--deck PLAYER=FILE" in done.stdout and "--pov" in done.stdout


def test_simulated_games_audit_clean_then_a_doubled_resource_play_is_found(
    tmp_path: Path, sample_db_path: Path
) -> None:
    """`zcards simulate --out` logs through `zcards audit`, with the card file and with a
    database and both players' decks; then one extra resource play (R6.1) exits 1 at its line."""
    from zcards.resources import BUNDLED_SET, starter_decks

    deck_a, deck_b = starter_decks()[:2]
    assert main(
        [
            "simulate",
            "--games",
            "2",
            "--seed",
            "1",
            "--deck",
            str(deck_a),
            "--deck",
            str(deck_b),
            "--out",
            str(tmp_path),
        ]
    ) in (0, None)
    _capsys.readouterr()
    logs = sorted(tmp_path.glob("game-*.txt"))
    assert len(logs) == 2
    for index, log in enumerate(logs):
        alice, bob = (deck_a, deck_b) if index % 2 == 0 else (deck_b, deck_a)
        decks = ("--deck", f"Alice={alice}", "--deck", f"Bob={bob}")
        for cards in (("--cards", BUNDLED_SET), ("--db", sample_db_path)):
            code, data = audit_json(log, *cards, *decks)
            assert code == 0, data["violations"]
            assert (data["violations"], data["unparsed"]) == ([], [])
            # the only doubts a legal simulated game leaves: which zone a hidden card was in
            assert {f["kind"] for f in data["unverifiable"]} <= {"illegal-attacker"}
            assert all("zone is hidden" in f["message"] for f in data["unverifiable"])
            [loss] = data["summary"]["lost"]
            assert loss["line"] == data["summary"]["lines"]  # the log ends where he lost
    lines = logs[0].read_text().splitlines()
    first = next(
        n for n, line in enumerate(lines) if line.endswith("plays a face down card from his Hand.")
    )
    lines.insert(first + 1, lines[first])
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    code, data = audit_json(bad, "--cards", BUNDLED_SET)
    assert code == 1
    assert [(v["kind"], v["rule"], v["line"]) for v in data["violations"]] == [
        ("resource-play", "R6.1", first + 2)
    ]
    done = zcards(bad, "--cards", BUNDLED_SET)
    assert done.returncode == 1
    assert f"  line {first + 2} [Build] VIOLATION of R6.1 (resource-play):" in done.stdout
    assert f"      > {lines[first]}" in done.stdout


def test_player_option_sets_the_turn_order_of_a_log_without_seats(tmp_path: Path) -> None:
    lines = (LOGS / "legal-game.txt").read_text().splitlines()
    assert lines[0].endswith("sits down at seat 1") and lines[1].endswith("seat 2")
    unseated = tmp_path / "unseated.txt"
    unseated.write_text("\n".join(lines[2:]) + "\n")
    code, data = audit_json(unseated, "--cards", CARDS)
    assert (code, data["players"]) == (0, ["Alice", "Bob"])
    code, data = audit_json(unseated, "--cards", CARDS, "--player", "Bob", "--player", "Alice")
    assert (code, data["players"]) == (0, ["Bob", "Alice"])


def test_text_output_of_a_log_with_two_games_keeps_log_order(tmp_path: Path) -> None:
    """Turn numbers start again in the second game: headings follow the log, not the number."""
    first = (LOGS / "resource-play-attack.txt").read_text()
    both = tmp_path / "two-games.txt"
    both.write_text(first + (LOGS / "draw-count-extra.txt").read_text())
    second_line = len(first.splitlines()) + 24
    done = zcards(both, "--cards", CARDS)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    headings = [line for line in lines if line.startswith(("Setup", "Turn "))]
    assert headings == ["Turn 2", "Turn 1"]
    found = [line.split(" [")[0].strip() for line in lines if "VIOLATION" in line]
    assert found == ["line 51", f"line {second_line}"]
    assert lines[-1].startswith("Summary: 2 games, ")


def test_schema_lists_exactly_the_violation_kinds() -> None:
    from zcards.rules import Kind

    [_, kinds] = SCHEMA["$defs"]["violation"]["allOf"]
    assert set(kinds["properties"]["kind"]["enum"]) == {str(kind) for kind in Kind}


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("*.txt") if p != CARDS))
def test_every_fixture_report_is_valid_json(log: str) -> None:
    code, data = audit_json(LOGS / log, "--cards", CARDS)
    assert code == (1 if data["violations"] else 0)
    clean = log.startswith("legal-") or log == "food-resync.txt"  # an unlogged change (R17.4)
    assert code == (0 if clean else 1)
    assert data["summary"]["violations"] == len(data["violations"])


@pytest.mark.parametrize(
    "text",
    ["", "\n\n", "# zcards\n\nA toolkit for Zombie CCG.\n\n* import: card data in\n", "Note: hi\n"],
    ids=["empty", "blank-lines", "readme", "chat-only"],
)
def test_a_file_that_is_not_a_game_log_exits_2(tmp_path: Path, text: str) -> None:
    """No line is a Lackey event (chat alone is not a game): an unusable input, not a clean
    game."""
    log = tmp_path / "README.md"
    log.write_text(text)
    done = zcards(log, "--cards", CARDS)
    assert done.returncode == 2, done.stdout
    assert "not a Lackey game log" in done.stderr and str(log) in done.stderr


def test_a_huge_food_change_is_applied_at_once(tmp_path: Path) -> None:
    """Stat and counter deltas are arithmetic: a gain of 999,999,996 food
    (up to the largest number a log line may hold) is one unexplained gain, not a billion of
    them, and does not hang; a larger number leaves its line unread (reported, never fatal)."""
    lines = (LOGS / "legal-game.txt").read_text().splitlines()[:30]
    lines += [
        "Alice changes Alice's Food to 999999999. (from 3 to 999999999) (+999999996)",
        "Alice performs Wound (0 to 999999999) (+999999999) on Scout.",
        "Alice changes Alice's Food to 100000000000000000003. (from 999999999 to "
        "100000000000000000003) (+99999999999000000004)",
    ]
    log = tmp_path / "huge.txt"
    log.write_text("\n".join(lines) + "\n")
    code, data = audit_json(log, "--cards", CARDS)
    assert code == 1
    assert [(v["kind"], v["line"]) for v in data["violations"]] == [("scavenge-food", 31)]
    assert data["unparsed"] == [33]


def test_card_data_of_another_game_is_a_usage_error(reference_dir: Path) -> None:
    """A real Lackey card file without the Zombie columns cannot back an audit."""
    done = zcards(
        LOGS / "legal-game.txt", "--cards", reference_dir / "dbztcg" / "sets" / "Evolution.txt"
    )
    assert done.returncode == 2
    assert "not Zombie CCG card data: no Cost, Power, Health" in done.stderr


def test_a_missing_log_is_named_once_and_exits_2(tmp_path: Path, capsys) -> None:
    from zcards.cli import main

    missing = tmp_path / "nope.txt"
    with pytest.raises(SystemExit) as exit_info:
        main(["audit", str(missing), "--cards", str(ROOT / "zcards" / "data" / "alpha.txt")])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.count(str(missing)) == 1 and "cannot read the log" in error
