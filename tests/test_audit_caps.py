"""The audit's caps on hostile logs (the timings are measured by
scripts/bench_hostile_logs.py, never here): past a cap the audit concludes less, never more:
a finding it can no longer check is unverifiable with the reason, never a violation."""

from __future__ import annotations

from support.faults.hostile import setup

from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules import AuditReport, audit
from zcards.rules.engine import MAX_READINGS
from zcards.rules.findings import MAX_WARNINGS
from zcards.rules.reading import MAX_SAVES


def run(lines: list[str]) -> AuditReport:
    events = parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events
    return audit(events, read_card_file(BUNDLED_SET))


def third_draw_in_turn_one(players: list[str]) -> list[str]:
    """No turn-1 line; everyone draws 2 and discards 1, and P1 draws a third card."""
    lines = [*setup(tuple(players), turn_one=False), "P1 advances to the next phase: Ready -> Draw"]
    for name in players:
        lines += [f"{name} draws 2 cards.", f"{name} discards a card from his Hand to his Discard."]
    return [*lines, "P1 draws a card.", "P1 advances to the next phase: Draw -> Build"]


def test_more_players_who_may_have_taken_turn_one_than_readings_only_doubts():
    lines = third_draw_in_turn_one(["P1", "P2", "P3"])
    few = run(lines)
    third = lines.index("P1 draws a card.") + 1
    assert [(f.kind, f.line) for f in few.violations] == [(Kind.DRAW_COUNT, third)]
    many = [f"P{seat}" for seat in range(1, MAX_READINGS + 9)]
    report = run(third_draw_in_turn_one(many))
    assert report.violations == []
    doubts = [f for f in report.unverifiable if f.kind == Kind.DRAW_COUNT]
    assert doubts and all(
        f"{len(many)} players may have taken turn 1 and the audit follows at most "
        f"{MAX_READINGS} readings" in f.message
        for f in doubts
    )


def test_a_save_older_than_the_kept_ones_loads_an_unknown_table():
    lines = setup(("Alice", "Bob"))
    lines += [f"Alice saves the game as game-{n}" for n in range(MAX_SAVES + 1)]
    recent = run([*lines, f"Alice loads a saved game from game-{MAX_SAVES}"])
    assert any("earlier in this log was loaded" in w.message for w in recent.warnings)
    oldest = run([*lines, "Alice loads a saved game from game-0"])
    assert any(f"before the last {MAX_SAVES} saves" in w.message for w in oldest.warnings)


def test_endless_misclicks_list_a_bounded_number_of_warnings():
    lines = setup(("Alice", "Bob"))
    pairs = MAX_WARNINGS + 30
    for _ in range(pairs):
        lines += [
            "Alice performs Wound (0 to 1) (+1) on Kyle Bjorn.",
            "Alice performs Heal (1 to 0) (-1) on Kyle Bjorn.",
        ]
    report = run(lines)
    corrections = [w for w in report.warnings if w.kind == Topic.CORRECTION]
    assert len(corrections) == MAX_WARNINGS + 1
    assert corrections[-1].message.startswith(f"more than {MAX_WARNINGS} such warnings")
    assert report.violations == []


def test_a_run_of_table_clears_is_read_as_a_new_game_only_when_deck_loads_follow():
    game = setup(("Alice", "Bob"))
    clears = ["Alice clears the table."] * 50
    again = run([*game, *clears, *game])
    assert again.games > 1 and again.violations == []
    on = run([*game, *clears, "Alice advances to the next phase: Ready -> Draw"])
    assert on.games == 1


def scavenge_after_misclicks(pairs: int, food: list[str]) -> list[str]:
    """Alice's turn 1: ``pairs`` Wound/Heal misclicks in the Recoup, then Looter Lisa
    scavenges (a 2 succeeds) and ``food`` is logged."""
    lines = setup(("Alice", "Bob"), survivors=("Kyle Bjorn", "Old Pete", "Looter Lisa"))
    lines += ["Alice advances to the next phase: Ready -> Draw"]
    for name in ("Alice", "Bob"):
        lines += [f"{name} draws 2 cards.", f"{name} discards a card from his Hand to his Discard."]
    lines += [
        f"Alice advances to the next phase: {step}"
        for step in ("Draw -> Build", "Build -> Attack", "Attack -> Recoup")
    ]
    for _ in range(pairs):
        lines += [
            "Alice performs Wound (0 to 1) (+1) on Kyle Bjorn.",
            "Alice performs Heal (1 to 0) (-1) on Kyle Bjorn.",
        ]
    lines += ["Alice performs Spend on Looter Lisa.", "Alice rolls a 6-sided die... result: 2"]
    return [*lines, *food, "Alice advances to the next phase: Recoup -> End"]


def test_past_the_readings_cap_the_legal_reading_of_upkeep_and_scavenging_stays():
    """Upkeep -1 then the Scavenger's +1 look like a misclick and its undo; after more
    misclick pairs than readings, the two real actions must still be a reading."""
    paid = [
        "Alice changes Alice's Food to 9. (from 10 to 9) (-1)",
        "Alice changes Alice's Food to 10. (from 9 to 10) (+1)",
    ]
    unpaid = ["Alice changes Alice's Food to 11. (from 10 to 11) (+1)"]
    for pairs in (0, MAX_READINGS):
        assert run(scavenge_after_misclicks(pairs, paid)).violations == []
        twin = run(scavenge_after_misclicks(pairs, unpaid))
        assert [f.kind for f in twin.violations] == [Kind.FOOD_UPKEEP]
