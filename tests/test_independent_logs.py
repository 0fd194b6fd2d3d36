"""The independent corpus (tests/logs/independent/, see the header of its expected.toml): logs
written from the rulebook and the rulings by judges who never read the audit, with
expectations fixed before the audit first ran on them. The audit reports exactly the lines
the judges expect as violations, each citing a rule of the section the judge named; where a
verdict explains from the rulebook why the project expects otherwise, its ``accepted`` list
decides instead."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from lackey_plugin.dek import read_deck
from zcards.cards.model import Card
from zcards.cards.normalise import read_card_file
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.rules import AuditReport
from zcards.rules.load import audit_log

CORPUS = Path(__file__).parent / "logs" / "independent"
TABLE: list[dict[str, Any]] = tomllib.loads((CORPUS / "expected.toml").read_text("utf-8"))["log"]


@cache
def cards(card_file: str | None = None) -> list[Card]:
    """The bundled set, or the card file an entry names (``cards``, relative to the corpus)."""
    return read_card_file(CORPUS / card_file if card_file else BUNDLED_SET)


@cache
def deck_sizes() -> dict[str, int]:
    return {path.name: read_deck(path).total for path in starter_decks()}


def section(judged: str) -> str:
    """The rule section a judge's ruling number stands for in docs/rules.md."""
    if judged == "card text":
        return "R16."
    number = int(judged)
    return "R2." if number <= 3 else f"R{number}."


def report_of(entry: dict[str, Any]) -> AuditReport:
    card_file = entry.get("cards")
    if card_file:  # another designer's set: its decks lie next to its card file
        folder = (CORPUS / card_file).parent
        decks = {
            player: read_deck(folder / name).total
            for player, name in entry.get("decks", {}).items()
        }
    else:
        decks = {player: deck_sizes()[name] for player, name in entry.get("decks", {}).items()}
    return audit_log(
        CORPUS / entry["file"],
        cards(card_file),
        players=entry["players"],
        pov=entry["pov"],
        decks=decks,
    )


def test_the_corpus_is_complete() -> None:
    files = {path.name for path in CORPUS.glob("*.txt")}
    assert {entry["file"] for entry in TABLE} == files and len(files) >= 40
    for entry in TABLE:
        assert entry["legal"] == (not entry.get("violations")), entry["file"]
        assert ("verdict" in entry) == ("accepted" in entry), entry["file"]


# Entries the audit does not yet meet, each with the reason (xfail strict: meeting one fails
# the run, so the entry leaves this table the day it passes).
KNOWN_FAILURES = {
    "fix-v03-wound-moved-off-never-put-back.txt": "the wound put on Dumpster Dave and taken "
    "off later in the phase reads as a misclick put right; that Hunter Jed lost his fight is "
    "said only in chat, which the audit never reads as a game action (R17.7): no violation",
    "fix-v04-third-card-kept.txt": "the third draw is reported at its own line (45, as the "
    "judge of case-b03-extra-draw-kept expects), the judge here expects the end of the Draw "
    "phase (50)",
    "fix-v05-discarded-twice-kept.txt": "the second discard is reported at its own line (51), "
    "the judge expects the end of the Draw phase (52)",
    "fix-v06-zombie-readied-in-later-phase.txt": "readying a card outside the Ready phase "
    "(R4.1) is not checked: the audit reads a Ready line as a spend taken back",
    "fix-v08-scavenger-food-double-not-undone.txt": "the extra food is reported at the gain's "
    "line (102, R12.2, as case-b05-food-misclick-overcorrected's judge expects), the judge "
    "here expects the end of the Recoup (108)",
    "fix-long-twin-upkeep-net-zero.txt": "the Recoup whose upkeep nets to zero is reported at "
    "its food lines (1036, 1079, 1087) instead of at its end (1088)",
    # batch D, another designer's set: a line placement
    "case-d08-scrounger-sam-rolls-while-spent.txt": "the roll without a ready Scavenger is "
    "reported at the food line it gave (37, R12.1, as the catalogue places ability-use), the "
    "judge expects the roll's line (36)",
}
# Batch C (the bundled set), failing as on the branch point: rule areas outside card-text
# reading (upkeep wounds, wounds outside fights, take-overs, readying, combat moves by drag,
# a reload after a loss, prohibitions printed on cards reported under their rule or missed).
_BATCH_C = {
    "case-c01-upkeep-extra-wound.txt": "an upkeep wound beyond the starvation owed is not checked",
    "case-c02-upkeep-wound-without-hunger.txt": "a wound after upkeep with no hunger is not "
    "checked",
    "case-c03-wound-in-zombie-players-own-build.txt": "a wound outside the Attack phase is not "
    "checked",
    "case-c03-kill-in-zombie-players-own-build.txt": "a kill outside the Attack phase is not "
    "checked",
    "case-c03-wound-in-build-before-attack.txt": "a wound outside the Attack phase is not checked",
    "case-c04-maniac-discarded-after-impossible-loss.txt": "a zombie discarded after an "
    "impossible loss is not checked",
    "case-c05-take-control-of-living-survivor.txt": "the take-over is reported as a fight result "
    "(R10.5), the judge names R11",
    "case-c05-take-control-of-uninfected-survivor.txt": "taking control of an uninfected "
    "survivor is not checked",
    "case-c06-crows-in-combat-scavenger-rolls.txt": "Carrion Crows' prohibition on attracting "
    "attention is not enforced",
    "case-c06-crows-spent-in-combat-scavenger-rolls.txt": "Carrion Crows' prohibition on "
    "attracting attention is not enforced",
    "case-c06-own-crows-to-combat-then-roll.txt": "Carrion Crows' prohibition on attracting "
    "attention is not enforced",
    "case-c07-chef-antoine-without-item.txt": "an ability's discard cost is not checked",
    "case-c07-chef-antoine-discards-a-zombie.txt": "an ability's discard cost is not checked",
    "case-c08-medic-heals-ex-con-dwayne.txt": "the forbidden heal is reported under R12.3, the "
    "judge names card text (R16)",
    "case-c09-firefighter-bo-infected.txt": "the forbidden infection is reported under R10.5, the "
    "judge names card text (R16)",
    "case-c10-non-fast-zombie-readied-after-move.txt": "readying outside the Ready phase (R4.1) "
    "is not checked",
    "case-c10-zombie-readied-in-end-phase.txt": "readying outside the Ready phase (R4.1) is not "
    "checked",
    "case-c11-dragged-berserker-readied-in-end-phase.txt": "a zombie dragged to the combat zone "
    "is not known there: a fight result is reported instead of the readying",
    "case-c11-twin-face-up-sprinter-dragged-to-combat.txt": "a false violation: a face-up zombie "
    "dragged to the combat zone is not known to attack (R10.5 at 62)",
    "case-c11-twin-face-up-berserker-dragged-to-combat.txt": "a false violation: a face-up "
    "zombie dragged to the combat zone is not known to attack (R10.5 at 62)",
    "case-c12-twin-reload-from-autosave-after-loss.txt": "a false violation: after a reload from "
    "an autosave the loss before it still stands (R14.2)",
    "case-c12-reload-then-third-draw.txt": "after a reload from an autosave the loss before it "
    "still stands (R14.2 on every line)",
    "case-c13-food-below-zero-log-ends-in-recoup.txt": "food below zero in a Recoup the log "
    "ends in is not checked",
}
KNOWN_FAILURES |= _BATCH_C


def _entries() -> list[Any]:
    return [
        pytest.param(
            entry,
            id=entry["file"],
            marks=pytest.mark.xfail(reason=KNOWN_FAILURES[entry["file"]], strict=True)
            if entry["file"] in KNOWN_FAILURES
            else (),
        )
        for entry in TABLE
    ]


@pytest.mark.parametrize("entry", _entries())
def test_the_audit_reports_exactly_the_judges_violations(entry: dict[str, Any]) -> None:
    report = report_of(entry)
    found = sorted((v.line, v.kind, v.rule) for v in report.violations)
    if "accepted" in entry:
        expected = sorted((a["line"], a["kind"], a["rule"]) for a in entry["accepted"])
        assert found == expected, report.to_text()
        return
    judged = entry.get("violations", [])
    assert sorted({line for line, _, _ in found}) == sorted(v["line"] for v in judged), (
        report.to_text()
    )
    for violation in judged:
        rules = {rule for line, _, rule in found if line == violation["line"]}
        wanted = section(violation["rule"])
        assert any(rule.startswith(wanted) for rule in rules), (violation, rules)
