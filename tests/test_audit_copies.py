"""Identical copies of a survivor are one class (R10.8, R17.1): which copy a Wound line hit is
counted, not chosen copy by copy, so a log of 20 copies wounded line after line keeps a bounded
number of readings and still finds what no fight explains (timings: scripts/bench_hostile_logs.py
--kinds copies)."""

from __future__ import annotations

from support.faults.hostile import copies

from lackey_plugin.log.parser import parse_log_text
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules import audit
from zcards.rules.attack import MAX_COPY_READINGS
from zcards.rules.combat import CombatRules


def _audit(lines: list[str], cards, seen: list[int]):
    def watch(_event, readings) -> None:
        for reading in readings:
            combat = next(a for a in reading.areas if isinstance(a, CombatRules))
            seen.append(max((len(ways) for _, ways in combat.attack.wounds), default=0))

    events = parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events
    return audit(events, cards, watch=watch)


def test_twenty_copies_wounded_line_after_line_keep_bounded_readings(bundled_cards) -> None:
    lines = copies(70)
    seen: list[int] = []
    report = _audit(lines, bundled_cards, seen)
    assert seen and max(seen) <= MAX_COPY_READINGS
    wounds = [n for n, line in enumerate(lines, 1) if " performs Wound " in line]
    end = len(lines)
    # One face-down attacker fights one survivor once: its one wound is the first line; the
    # second (1 to 2) can fall only on the copy it already wounded. Each copy whose wounds reach
    # its Health (2) dies and stays in play until the phase ends.
    found = {(v.kind, v.line) for v in report.violations}
    assert found == {("combat-result", wounds[1]), ("dead-survivor", end)}, report.to_text()
    assert report.unverifiable == []


def test_one_wound_among_twenty_copies_is_a_fight(bundled_cards) -> None:
    head = copies(0)
    lines = [*head[:-1], "Alice performs Wound (0 to 1) (+1) on Grandma Edna.", head[-1]]
    report = _audit(lines, bundled_cards, [])
    assert (report.violations, report.unverifiable) == ([], [])
