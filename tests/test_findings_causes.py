"""Every line accounted for and findings tied to their cause: an unreadable line is listed
with the template it resembles and makes only the findings it could explain doubts; a
finding that follows from an earlier one says so and is listed under it; a rule is quoted
once per report. The logs are the hand-written rule logs of ``tests/logs/``, edited where
the rules say what the edit does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lackey_plugin.log.nearest import nearest_template
from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.cli import main
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules import Kind, audit
from zcards.rules.findings import names_pattern, tie_causes
from zcards.rules.report import AuditReport, Finding

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "logs"
CARDS = LOGS / "cards.txt"


def _audit(lines: list[str]) -> AuditReport:
    events = parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events
    return audit(events, read_card_file(CARDS))


def _extra_draw_log() -> list[str]:
    """Bob draws 3 cards in turn 1's Draw phase (line 25): a violation of R5.1."""
    log = (LOGS / "draw-count-extra.txt").read_text(encoding="utf-8").splitlines()
    assert log[23] == "Bob draws a card."
    return log


def test_the_nearest_template_of_a_misspelt_line() -> None:
    like = nearest_template("Alice plays a face down card form his Hnd.", ["Alice", "Bob"])
    assert like is not None and like.template.family == "play"
    phase = nearest_template("Bob advanses to the next phase: Draw -> Build", ["Bob"])
    assert phase is not None and phase.template.family == "phase"
    assert nearest_template("#### ~~~~", ["Bob"]) is None


def test_another_players_unread_play_keeps_the_violation_of_his_turn() -> None:
    """Alice's misspelt resource play (line 21) cannot explain Bob's third draw (R5.1)."""
    log = _extra_draw_log()
    log.insert(20, "Alice plays a face down card form his Hnd.")
    report = _audit(log)
    assert report.unparsed == [21]
    assert [(f.kind, f.line, f.player) for f in report.violations] == [(Kind.DRAW_COUNT, 25, "Bob")]


def test_an_unread_line_doubts_its_writers_findings() -> None:
    """Bob's own unread line (line 21) may be anything of his: his extra draw is a doubt."""
    log = _extra_draw_log()
    log.insert(20, "Bob plays a face down card form his Hnd.")
    report = _audit(log)
    assert report.violations == []
    assert [(f.kind, f.line) for f in report.unverifiable] == [(Kind.DRAW_COUNT, 25)]
    assert "line 21 of this turn could not be read" in report.unverifiable[0].message


def test_an_unread_line_that_may_be_a_phase_line_doubts_everyone() -> None:
    """A misspelt phase line may be anyone's: it may explain any finding of its turn."""
    log = _extra_draw_log()
    log.insert(20, "Alice advanses to the next phase: Draw -> Build")
    report = _audit(log)
    assert report.violations == []
    assert [(f.kind, f.line) for f in report.unverifiable] == [(Kind.DRAW_COUNT, 25)]


def test_show_unparsed_lists_each_line_with_its_nearest_template(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = _extra_draw_log()
    log.insert(20, "Alice plays a face down card form his Hnd.")
    path = tmp_path / "game.txt"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["audit", str(path), "--cards", str(CARDS), "--show", "unparsed"])
    out = capsys.readouterr().out.splitlines()
    at = out.index("Lines that could not be read")
    assert out[at + 1].startswith("  line 21 could not be read; nearest template: {player} plays")
    assert out[at + 2] == "      > Alice plays a face down card form his Hnd."
    assert "VIOLATION" not in "\n".join(out)
    with pytest.raises(SystemExit):
        main(["audit", str(path), "--cards", str(CARDS), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["unparsed_lines"][0]["line"] == 21
    assert data["unparsed_lines"][0]["nearest"].startswith("{player} plays")


def _finding(line: int, message: str, kind: str = "combat-result", turn: int = 3) -> Finding:
    return Finding(kind, "R10.5", line, turn, "Attack", "Bob", message)


def test_a_finding_about_the_same_card_follows_from_the_first() -> None:
    names = names_pattern(["Librarian Ruth", "Walker"])
    violations = [_finding(190, "Bob moves Librarian Ruth to his discard pile, alive")]
    unverifiable = [
        _finding(230, "no assignment gives Librarian Ruth: 0 wound(s), 2 killed", turn=5),
        _finding(240, "Walker spent twice"),
        _finding(250, "Librarian Ruth again", turn=7),
    ]
    tie_causes((violations, unverifiable), names)
    assert violations[0].follows is None
    assert [f.follows for f in unverifiable] == [190, None, 190]


def test_the_text_report_lists_a_follow_on_under_its_cause_and_quotes_a_rule_once() -> None:
    report = AuditReport(players=["Alice", "Bob"])
    report.violations = [_finding(190, "Bob moves Librarian Ruth away alive")]
    report.unverifiable = [
        _finding(200, "Walker fought twice", turn=3),
        Finding(
            "combat-result", "R10.5", 230, 5, "Attack", "Bob", "Librarian Ruth: 2 killed", "", 190
        ),
    ]
    lines = report.to_text().splitlines()
    cause = next(i for i, line in enumerate(lines) if "line 190" in line)
    assert lines[cause + 2].startswith("      follows from line 190: line 230 [Attack]")
    assert "Turn 5" not in lines  # listed under its cause's turn
    assert sum('R10.5: "' in line for line in lines) == 1
