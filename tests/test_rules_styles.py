"""The audit on the ways players really record a game (R17.3-R17.10): every fixture's
violation is still found at its line when the log has no new-game line, no turn-1 line, bids
typed another way or timestamps; and what a recording style changes is never a violation.
"""

from __future__ import annotations

import pytest
from support.paths import LOGS

from lackey_plugin.log.parser import parse_log_text
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules import audit

LEGAL = (LOGS / "legal-game.txt").read_text().splitlines()
FIXTURES = sorted(
    p.stem
    for p in LOGS.glob("*.txt")
    if p.stem not in ("cards", "food-resync") and not p.stem.startswith("legal-")
)


def run(lines: list[str], cards, **options):
    return audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, cards, **options)


def restyle(lines: list[str], style: str) -> tuple[list[str], dict[int, int]]:
    """``lines`` recorded in ``style``, and where each old line number went."""
    dropped: set[int] = set()
    out = list(lines)
    if style in ("no-new-game", "no-start-lines"):
        dropped |= {n for n, line in enumerate(lines, 1) if line.endswith("starts a new game.")}
    if style in ("no-turn-one", "no-start-lines"):
        dropped |= {n for n, line in enumerate(lines, 1) if "Current Turn: #1," in line}
    if style == "typed-bids":
        forms = iter(["I bid {} food", "my bid is {}", "I'll bid {}", "bid: {}"])
        out = [
            f"{line.split(':')[0]}: {next(forms).format(line.split()[-1])}"
            if line.split(": ")[-1].startswith("bid ")
            else line
            for line in lines
        ]
    if style == "timestamps":
        out = [f"[21:{n // 60:02d}:{n % 60:02d}] {line}" for n, line in enumerate(lines)]
    kept = [line for n, line in enumerate(out, 1) if n not in dropped]
    where = {n: n - sum(1 for d in dropped if d < n) for n in range(1, len(lines) + 2)}
    return kept, where


STYLES = ["no-new-game", "no-turn-one", "no-start-lines", "typed-bids", "timestamps"]


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", FIXTURES)
def test_a_violation_is_found_in_every_recording_style(name: str, style: str, log_cards) -> None:
    lines = (LOGS / f"{name}.txt").read_text().splitlines()
    expected = {(v.kind, v.line) for v in run(lines, log_cards).violations}
    assert expected
    styled, where = restyle(lines, style)
    report = run(styled, log_cards)
    assert {(v.kind, v.line) for v in report.violations} == {
        (kind, where[line]) for kind, line in expected
    }, report.to_text()


@pytest.mark.parametrize("style", STYLES)
def test_the_legal_game_is_clean_in_every_recording_style(style: str, log_cards) -> None:
    report = run(restyle(LEGAL, style)[0], log_cards)
    assert report.violations == [] and report.unverifiable == [], report.to_text()


def test_without_a_turn_one_line_the_first_turn_line_says_who_took_turn_one(log_cards) -> None:
    """Turn 1 (Alice's) is read from the first turn line, #2 Bob's, with the seat order: her
    survivor play in Build and Bob's missing upkeep are not findings, and nothing is left
    in doubt (R17.10)."""
    lines, _ = restyle(LEGAL, "no-start-lines")
    report = run(lines, log_cards)
    assert (report.violations, report.unverifiable) == ([], [])
    assert report.turns == 6 and report.players == ["Alice", "Bob"]


def test_a_log_that_ends_in_turn_one_keeps_both_readings(log_cards) -> None:
    """Cut before any turn line: who took turn 1 is open. Alice's Scavenger food is fine if
    she did; no reading is worse in every respect, so nothing is a violation."""
    lines, _ = restyle(LEGAL[:36], "no-start-lines")
    report = run(lines, log_cards)
    assert report.violations == []


def test_what_breaks_under_every_reading_of_turn_one_is_a_violation(log_cards) -> None:
    """A third draw is a violation whoever took turn 1."""
    lines, _ = restyle(LEGAL[:36], "no-start-lines")
    at = lines.index("Bob draws 2 cards.")
    lines.insert(at + 1, "Bob draws a card.")
    report = run(lines, log_cards)
    assert [(v.kind, v.line) for v in report.violations] == [("draw-count", at + 2)]


def test_an_action_in_a_phase_already_left_stays_a_violation(log_cards) -> None:
    """Bob's discard after ``Draw -> Build`` is no phase lag (R17.5): the Draw phase ended
    with his discard missing, and a hand-to-discard move in Build is no discard."""
    lines = list(LEGAL[:28])
    discard = lines.pop(23)  # Bob's discard
    lines.insert(24, discard)  # after "Draw -> Build"
    report = run(lines, log_cards)
    assert [(v.kind, v.rule, v.line) for v in report.violations] == [("draw-count", "R5.2", 24)]


def test_a_late_phase_line_needs_nothing_of_the_old_phase_in_between(log_cards) -> None:
    """Bob's draws before Alice's Ready All: not just before the phase line, so they are
    not in the Draw phase: a draw in the Ready phase (R5.3), none in the Draw phase."""
    lines = list(LEGAL[:45])
    moved = lines[39:41]  # Bob draws, discards (turn 2, Bob active)
    del lines[39:41]
    lines[37:37] = moved  # before Alice's Ready All and Bob's Ready -> Draw
    report = run(lines, log_cards)
    assert lines[43] == "Bob advances to the next phase: Draw -> Build"
    assert sorted((v.kind, v.rule, v.line) for v in report.violations) == [
        ("draw-count", "R5.1", 44),
        ("draw-count", "R5.2", 44),
        ("draw-count", "R5.3", 38),
    ]


def test_a_revert_to_an_earlier_turn_forgets_the_table(log_cards) -> None:
    """The turn number going back (R17.4): a warning, and no finding about the table."""
    lines = [*LEGAL[:56], "Bob advances the turn. Current Turn: #2, Bob's turn.", *LEGAL[38:56]]
    report = run(lines, log_cards)
    assert report.violations == []
    assert ("resync", 57) in {(w.kind, w.line) for w in report.warnings}


def test_a_saved_game_loaded_later_restores_that_moment(log_cards) -> None:
    """Saved at the end of turn 2 and loaded after turn 3 was played: turn 3 is played again
    from its start, which is neither a repeated phase nor a second resource (R17.8)."""
    save = "Bob saves the game as zombies.sav"
    load = "Bob loads a saved game from zombies.sav"
    lines = [*LEGAL[:55], save, *LEGAL[55:80], load, *LEGAL[55:117]]
    report = run(lines, log_cards)
    assert report.violations == [] and report.unverifiable == [], report.to_text()
    unknown = [*LEGAL[:80], "Bob loads a saved game from other.sav", *LEGAL[80:117]]
    report = run(unknown, log_cards)
    assert report.violations == []
    assert any(w.kind == "saved-game" for w in report.warnings)


def test_a_rematch_after_deck_loads_is_a_new_game(log_cards) -> None:
    """Deck loads after turns were played start a new game (R17.7): the abandoned game owes
    nothing where it stops (its Build phase here)."""
    rematch = [line for line in LEGAL[3:18] if "starts a new game" not in line]
    lines = [*LEGAL[:26], "Bob: gg, I concede", *rematch, *LEGAL[18:36]]
    report = run(lines, log_cards)
    assert report.games == 2
    assert report.violations == [], report.to_text()


def test_a_log_that_begins_mid_game_checks_the_turn_rules(log_cards) -> None:
    """From the first turn line on, a third draw is a violation even though the table before
    the log is unknown (R17.9)."""
    lines = LEGAL[55:80]
    at = lines.index("Bob draws 2 cards.")
    lines.insert(at + 1, "Bob draws a card.")
    report = run(lines, log_cards)
    assert [(v.kind, v.line) for v in report.violations] == [("draw-count", at + 2)]
    assert any(w.kind == "mid-game" for w in report.warnings)


def three_player_turn(next_player: str) -> list[str]:
    names = ("Alice", "Bob", "Carol")
    lines = [f"{name} sits down at seat {seat}" for seat, name in enumerate(names, 1)]
    lines.append("Alice starts a new game.")
    lines += [f"{name} loads a deck to the Deck zone and shuffles it." for name in names]
    lines += [f"{name} draws 7 cards." for name in names]
    for name in names:
        lines += [f"{name} plays Scout from his Deck.", f"{name} shuffles his Deck."]
    lines += [
        "Alice advances the turn. Current Turn: #1, Alice's turn.",
        "Alice advances to the next phase: Ready -> Draw",
    ]
    for name in names:
        lines += [
            f"{name} draws 2 cards.",
            f"{name} discards Walker from his Hand to the top of his Discard.",
        ]
    lines += [
        "Alice advances to the next phase: Draw -> Build",
        "Alice advances to the next phase: Build -> Attack",
        "Alice advances to the next phase: Attack -> Recoup",
        "Alice changes Alice's Food to 9. (from 10 to 9) (-1)",
        "Alice advances to the next phase: Recoup -> End",
        f"Alice advances the turn. Current Turn: #2, {next_player}'s turn.",
    ]
    return lines


def test_three_players_take_turns_in_seat_order(log_cards) -> None:
    """R13.2 with three players: after Alice comes Bob (seat 2), not Carol."""
    assert run(three_player_turn("Bob"), log_cards).violations == []
    lines = three_player_turn("Carol")
    report = run(lines, log_cards)
    assert [(v.kind, v.rule, v.line) for v in report.violations] == [
        ("turn-order", "R13.2", len(lines))
    ]
