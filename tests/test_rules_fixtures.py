"""Each violation kind is found at the right line of a hand-written log; legal logs are clean.

The fixtures in tests/logs/ are Lackey logs in the wording of docs/log-protocol.md; the
violating ones differ from a legal game (legal-game.txt) by a line or two.
"""

from __future__ import annotations

import pytest
from support.paths import LOGS

from lackey_plugin.log.parser import parse_log_file
from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules import KINDS, Kind, audit

# fixture -> (kind, rule, line of the finding)
VIOLATIONS: dict[str, tuple[Kind, str, int]] = {
    "draw-count-extra": (Kind.DRAW_COUNT, "R5.1", 24),
    "draw-count-no-discard": (Kind.DRAW_COUNT, "R5.2", 24),
    "resource-play-second": (Kind.RESOURCE_PLAY, "R6.1", 46),
    "resource-play-attack": (Kind.RESOURCE_PLAY, "R6.2", 51),
    "card-play-unpaid": (Kind.CARD_PLAY, "R7.3", 46),
    "card-play-inactive": (Kind.CARD_PLAY, "R7.1", 50),
    # a spend taken back by a Ready in Build pays for nothing (R4.1): Bat is unpaid
    "card-play-taken-back": (Kind.CARD_PLAY, "R7.3", 49),
    "opening-survivors-cost": (Kind.OPENING_SURVIVORS, "R2.4", 18),
    "opening-survivors-zombie": (Kind.OPENING_SURVIVORS, "R2.4", 14),
    "phase-order-skip": (Kind.PHASE_ORDER, "R3.2", 36),
    "phase-order-set": (Kind.PHASE_ORDER, "R3.2", 28),
    "illegal-attacker": (Kind.ILLEGAL_ATTACKER, "R10.1", 71),
    "combat-result": (Kind.COMBAT_RESULT, "R10.5", 92),
    # Runner (2) alone can fight Lookout (1): he is overwhelmed, never only wounded
    "combat-result-overwhelm-wounded": (Kind.COMBAT_RESULT, "R10.5", 94),
    "food-upkeep-missing": (Kind.FOOD_UPKEEP, "R12.5", 54),
    "food-upkeep-starvation": (Kind.FOOD_UPKEEP, "R12.5", 79),
    "infection-wound": (Kind.INFECTION_WOUND, "R4.2", 100),
    # taken over in the Ready phase with 2 wounds of 3: the killing infection wound is missing
    "infection-wound-taken-over": (Kind.INFECTION_WOUND, "R4.2", 116),
    "zombie-upgrade-requirement": (Kind.ZOMBIE_UPGRADE, "R8.1", 66),
    "zombie-upgrade-survivor": (Kind.ZOMBIE_UPGRADE, "R8.3", 66),
    "scavenge-food-roll-one": (Kind.SCAVENGE_FOOD, "R12.2", 33),
    "scavenge-food-no-roll": (Kind.SCAVENGE_FOOD, "R12.2", 30),
    "ability-use-no-spend": (Kind.ABILITY_USE, "R12.1", 71),
    "ability-use-attack": (Kind.ABILITY_USE, "R12.1", 71),
    "action-after-loss": (Kind.ACTION_AFTER_LOSS, "R14.2", 119),
    "dead-survivor": (Kind.DEAD_SURVIVOR, "R11.1", 95),
    "bid-range": (Kind.BID_RANGE, "R2.1", 7),
    "bid-food": (Kind.BID_FOOD, "R2.2", 8),
    "opening-shuffle": (Kind.OPENING_SHUFFLE, "R2.4", 17),
    "turn-order": (Kind.TURN_ORDER, "R13.2", 56),
    "combat-move": (Kind.COMBAT_MOVE, "R9.1", 52),
    "scavenge-penalty": (Kind.SCAVENGE_PENALTY, "R12.2", 35),
    "deck-to-resource": (Kind.DECK_TO_RESOURCE, "R6.3", 46),
    "opening-hand": (Kind.OPENING_HAND, "R2.3", 10),
    "food-loss": (Kind.FOOD_LOSS, "R12.5", 55),
    # a face-down card moved to combat is not Fast: readied again, it is readied outside Ready
    "readying": (Kind.READYING, "R4.1", 54),
}
# Legal games: the protocol's own and each recording style the audit accepts (R17).
LEGAL = [
    "legal-game",
    "legal-scavenge-fail",
    "legal-phase-back",
    "legal-overwhelm",
    "legal-bid-forms",
    "legal-silent-bids",
    "legal-no-start-lines",
    "legal-to-combat-spend-after",
    "legal-phase-lag",
    "legal-corrections",
    "legal-spend-taken-back",  # the taken-back spend is made again before the play
    "legal-overwhelm-alone",  # Runner alone overwhelms Lookout: killed
]


def run(name: str, cards):
    return audit(parse_log_file(LOGS / f"{name}.txt", game=ZOMBIE_GAME).events, cards)


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_violation_found_at_its_line(name: str, log_cards) -> None:
    kind, rule, line = VIOLATIONS[name]
    report = run(name, log_cards)
    assert [(f.kind, f.rule, f.line) for f in report.violations] == [(kind, rule, line)]
    finding = report.violations[0]
    source = (LOGS / f"{name}.txt").read_text().splitlines()
    assert finding.text == source[line - 1]
    assert finding.message and finding.player
    assert rule in KINDS[kind].rules


@pytest.mark.parametrize("name", LEGAL)
def test_legal_logs_have_no_violation(name: str, log_cards) -> None:
    report = run(name, log_cards)
    assert report.violations == []
    assert report.unverifiable == []
    assert report.unparsed == []


def test_every_kind_has_a_fixture() -> None:
    """Every kind but food-total, which an unlogged change makes unverifiable, never a
    violation (R17.4): its fixture is food-resync."""
    fixed = {kind for kind, _, _ in VIOLATIONS.values()} | {Kind.FOOD_TOTAL}
    missing = [
        f"Kind.{kind.name} has no fixture log: write tests/logs/{kind.value}.txt (a legal game "
        "changed by a line or two) and add it to VIOLATIONS (docs/extending.md, 'A new "
        "violation kind')"
        for kind in Kind
        if kind not in fixed
    ]
    assert not missing, "\n".join(missing)
    assert all((LOGS / f"{name}.txt").is_file() for name in [*VIOLATIONS, *LEGAL])


def test_an_unlogged_food_change_is_resynchronised(log_cards) -> None:
    """A food line starting from another total than the tracked one (line 54): a warning and
    an unverifiable food rule, never a violation; the food follows the log from there."""
    report = run("food-resync", log_cards)
    assert report.violations == []
    assert [(f.kind, f.line) for f in report.unverifiable] == [(Kind.FOOD_TOTAL, 54)]
    assert [(w.kind, w.line) for w in report.warnings] == [("resync", 54)]


@pytest.mark.parametrize(
    ("name", "warnings"),
    [
        ("legal-phase-lag", [("phase-lag", 19), ("phase-lag", 20)]),
        ("legal-corrections", [("correction", 28), ("correction", 54), ("correction", 59)]),
        ("legal-no-start-lines", []),
    ],
)
def test_recording_styles_are_warnings_at_most(name: str, warnings, log_cards) -> None:
    report = run(name, log_cards)
    assert [(w.kind, w.line) for w in report.warnings] == warnings


def test_legal_game_summary(log_cards) -> None:
    report = run("legal-game", log_cards)
    assert report.players == ["Alice", "Bob"]
    assert report.turns == 6
    assert [(loss.player, loss.turn, loss.line, loss.reason) for loss in report.losses] == [
        ("Bob", 6, 117, "no survivors")
    ]
    assert report.remaining == ["Alice"]
    assert report.pov == "Alice"


def test_moving_back_a_phase_is_a_warning(log_cards) -> None:
    report = run("legal-phase-back", log_cards)
    assert [(w.kind, w.rule, w.line) for w in report.warnings] == [("phase-back", "R3.3", 25)]


def test_card_text_makes_a_finding_unverifiable(log_cards, tmp_path) -> None:
    """R16.1: a face-up zombie whose text could raise power turns the kill into a doubt."""
    text = (
        (LOGS / "cards.txt")
        .read_text()
        .replace(
            "Contagion\t\t1\t\tInfectious\t\t\tC\tInfectious.",
            "Contagion\t\t1\t\tInfectious\t\t\tC\tInfectious. Your zombies get +3 power.",
        )
    )
    assert text != (LOGS / "cards.txt").read_text()
    card_file = tmp_path / "cards.txt"
    card_file.write_text(text)
    report = run("combat-result", read_card_file(card_file))
    assert report.violations == []
    assert [(f.kind, f.line) for f in report.unverifiable] == [("combat-result", 92)]
    assert "Spitter" in report.unverifiable[0].message
