"""Fixes found by their net effect (R17.3): edits of the hand-written log of late fixes
(tests/logs/handwritten/late-fixes.txt, legal), each with what the rules make of it. A fix
later in the phase is legal where its net effect is; it never excuses a change that stays."""

from __future__ import annotations

import re

from support.paths import LOGS

from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules import audit

BASE = (LOGS / "handwritten" / "late-fixes.txt").read_text("utf-8").splitlines()
CARDS = read_card_file(BUNDLED_SET)
SPEND = "Big Tony performs Spend on a face-down card."


def edited(after: str, *inserted: str, drop: str | None = None) -> tuple[list[str], int]:
    """The log with ``inserted`` after the first line ``after`` (and the first line ``drop``
    left out), and the line number of the first inserted line."""
    lines = list(BASE)
    if drop is not None:
        lines.remove(drop)
    at = lines.index(after) + 1
    lines[at:at] = inserted
    return lines, at + 1


def violations(lines: list[str]) -> list[tuple[str, int | None]]:
    report = audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, CARDS)
    return [(str(v.kind), v.line) for v in report.violations]


def test_the_log_of_late_fixes_is_legal() -> None:
    assert violations(BASE) == []


def test_food_noise_between_a_spend_and_its_move_to_combat_is_no_combat_move() -> None:
    lines, _ = edited(
        SPEND,
        "Big Tony changes Big Tony's Food to 7. (from 6 to 7) (+1)",
        "Big Tony changes Big Tony's Food to 6. (from 7 to 6) (-1)",
    )
    assert violations(lines) == []


def test_a_spend_taken_back_before_the_move_leaves_the_zombie_unspent() -> None:
    lines, at = edited(SPEND, "Big Tony performs Ready on a face-down card.")
    assert violations(lines) == [("combat-move", at + 1)]


def test_upkeep_given_back_in_full_is_upkeep_not_paid() -> None:
    """The fix overshoots: one food more than the Recoup allows (the roll's, less the upkeep),
    so no upkeep is paid, reported when the phase ends."""
    fix = "Big Tony changes Big Tony's Food to 7. (from 6 to 7) (+1)"
    lines, _ = edited(fix, "Big Tony changes Big Tony's Food to 8. (from 7 to 8) (+1)")
    end = lines.index("Big Tony advances to the next phase: Recoup -> End") + 1
    assert violations(lines)[:1] == [("food-upkeep", end)]


def test_a_food_loss_put_right_only_in_part_stays_a_violation() -> None:
    """Noor's -1 in the Build phase typed as -2 and given back by +1: one food lost that no
    rule explains, at the line that lost it."""
    lines = list(BASE)
    at = lines.index("Noor changes Noor's Food to 9. (from 10 to 9) (-1)")
    lines[at] = "Noor changes Noor's Food to 8. (from 10 to 8) (-2)"
    back = lines.index("Noor changes Noor's Food to 10. (from 9 to 10) (+1)")
    lines[back] = "Noor changes Noor's Food to 9. (from 8 to 9) (+1)"
    for index in range(back + 1, len(lines)):  # later food lines follow the lower total
        food = re.fullmatch(
            r"Noor changes Noor's Food to (\d+)\. \(from (\d+) to \d+\) (.*)", lines[index]
        )
        if food:
            new, old, delta = int(food[1]) - 1, int(food[2]) - 1, food[3]
            lines[index] = f"Noor changes Noor's Food to {new}. (from {old} to {new}) {delta}"
    assert violations(lines) == [("food-loss", at + 1)]


def test_a_wound_taken_off_in_a_later_phase_is_no_fix() -> None:
    """Nurse Ratchet's wound of the Attack phase taken off in the Recoup without spending a
    Medic: not the phase of the wound, so no fix, and no Medic's heal either."""
    lines = list(BASE)
    recoup = lines.index("Big Tony performs Heal (1 to 0) (-1) on Old Pete.") + 2
    assert lines[recoup] == "Big Tony performs Spend on Nurse Ratchet."
    del lines[recoup]
    assert violations(lines) == [("ability-use", recoup + 1)]


def test_a_wound_put_on_and_taken_off_in_its_phase_nets_out() -> None:
    """The wound Nurse Ratchet got in the Attack phase taken off again in that phase: the two
    lines net to nothing, and nothing in the log needs the wound (chat is no evidence)."""
    heal = "Big Tony performs Heal (1 to 0) (-1) on Old Pete."
    lines, _ = edited(heal, "Big Tony performs Heal (1 to 0) (-1) on Nurse Ratchet.")
    assert violations(lines) == []
