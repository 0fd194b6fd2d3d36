"""The hand-written corpus of real-looking Lackey logs audits as its table says.

The logs in ``tests/logs/handwritten/`` were written by hand from ``docs/rules.md``, the rulings
and Lackey's line templates, as players really record games (no new-game line, no turn-1 line,
chat bids, misclicks, spectators, rematches, saved games, logs that begin mid-game), never from
the audit's output. ``expected.toml`` holds, per log, the exact set of violations (kind, line),
the warnings and unverifiable findings that must be present, and the lines the parser may not
recognise (the format is described at its top). The simulator, its mutators and the audit
prove each other; this corpus is the check that does not come from them.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from lackey_plugin.log.parser import ParsedLog, parse_log_file
from zcards.cards.model import Card
from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules import AuditReport, Finding, audit

CORPUS = Path(__file__).parent / "logs" / "handwritten"
TABLE: list[dict[str, Any]] = tomllib.loads((CORPUS / "expected.toml").read_text("utf-8"))["log"]
ENTRIES = {entry["file"]: entry for entry in TABLE}

# Every violation id the audit reports (the table at the end of docs/rules.md).
VIOLATION_IDS = {
    "draw-count",
    "resource-play",
    "card-play",
    "opening-survivors",
    "phase-order",
    "illegal-attacker",
    "combat-result",
    "food-upkeep",
    "infection-wound",
    "zombie-upgrade",
    "scavenge-food",
    "ability-use",
    "action-after-loss",
    "dead-survivor",
    "food-total",
    "bid-range",
    "bid-food",
    "opening-shuffle",
    "turn-order",
    "combat-move",
    "scavenge-penalty",
    "deck-to-resource",
    "food-loss",
    "readying",
}
NEVER_A_VIOLATION = {"food-total"}  # an unlogged change is resynchronised, never a violation
ENTRY_KEYS = {"file", "about", "violations", "warnings", "unverifiable", "options", "unparsed"}
OPTION_KEYS = {"players", "pov", "decks"}

Pair = tuple[str, int | None]  # a finding's line is None at the end of the log


def pairs(entry: dict[str, Any], key: str) -> list[Pair]:
    return [(kind, line) for kind, line in entry.get(key, [])]


@cache
def cards() -> list[Card]:
    return read_card_file(BUNDLED_SET)


@cache
def parsed(name: str) -> ParsedLog:
    options = ENTRIES[name].get("options", {})
    return parse_log_file(CORPUS / name, players=options.get("players", ()), game=ZOMBIE_GAME)


@cache
def report(name: str) -> AuditReport:
    options = ENTRIES[name].get("options", {})
    return audit(
        parsed(name).events,
        cards(),
        players=options.get("players"),
        pov=options.get("pov"),
        decks=options.get("decks"),
    )


def found(findings: Iterable[Finding]) -> list[Pair]:
    return [(str(finding.kind), finding.line) for finding in findings]


def describe(findings: Iterable[Finding], wanted: set[Pair]) -> str:
    return "\n".join(
        f"  {finding.kind} line {finding.line} [{finding.phase}] {finding.message}"
        for finding in findings
        if (str(finding.kind), finding.line) in wanted
    )


# --- the corpus and its table -------------------------------------------------------------


def test_every_log_has_one_row_and_every_row_a_log() -> None:
    logs = sorted(path.name for path in CORPUS.glob("*.txt"))
    assert sorted(ENTRIES) == logs
    assert len(ENTRIES) == len(TABLE), "a log is listed twice"
    assert len(logs) >= 30


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_row_is_well_formed(name: str) -> None:
    entry = ENTRIES[name]
    assert set(entry) <= ENTRY_KEYS, set(entry) - ENTRY_KEYS
    assert entry["about"].strip()
    assert set(entry.get("options", {})) <= OPTION_KEYS
    lines = (CORPUS / name).read_text("utf-8").splitlines()
    for key in ("violations", "warnings", "unverifiable"):
        for kind, line in pairs(entry, key):
            assert isinstance(kind, str) and isinstance(line, int), (key, kind, line)
            assert 1 <= line <= len(lines) and lines[line - 1].strip(), f"{key}: no line {line}"
            if key != "warnings":
                assert kind in VIOLATION_IDS, kind
    assert not {kind for kind, _ in pairs(entry, "violations")} & NEVER_A_VIOLATION
    assert len(set(pairs(entry, "violations"))) == len(pairs(entry, "violations"))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_log_reads_like_a_real_lackey_log(name: str) -> None:
    """Realistic length, no comments (Lackey writes none): explanations live in the table."""
    lines = [line for line in (CORPUS / name).read_text("utf-8").splitlines() if line.strip()]
    assert 40 <= len(lines) <= 200, len(lines)
    assert not [line for line in lines if line.lstrip().startswith(("#", "//"))]


def test_corpus_covers_every_violation_kind_and_enough_legal_games() -> None:
    kinds = Counter(kind for entry in TABLE for kind, _ in pairs(entry, "violations"))
    assert set(kinds) == VIOLATION_IDS - NEVER_A_VIOLATION
    legal = [entry for entry in TABLE if not entry["violations"]]
    assert len(legal) >= 12
    assert len(TABLE) - len(legal) >= 15


# --- the audit against the table -----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_every_line_is_a_lackey_line(name: str) -> None:
    unparsed = [event.line for event in parsed(name).unparsed]
    assert unparsed == sorted(ENTRIES[name].get("unparsed", []))


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_violations_are_exactly_the_expected_ones(name: str) -> None:
    expected = set(pairs(ENTRIES[name], "violations"))
    result = report(name)
    got = set(found(result.violations))
    missing, extra = expected - got, got - expected
    hint = ""
    if missing:
        near = describe(result.unverifiable, missing)
        hint += f"\nexpected, not reported as violations: {sorted(missing)}"
        hint += f"\n reported as unverifiable instead:\n{near}" if near else ""
    if extra:
        hint += f"\nreported, not expected:\n{describe(result.violations, extra)}"
    assert got == expected, hint


@pytest.mark.parametrize(
    "name", sorted(name for name, entry in ENTRIES.items() if entry.get("warnings"))
)
def test_expected_warnings_are_reported(name: str) -> None:
    got = set(found(report(name).warnings))
    assert set(pairs(ENTRIES[name], "warnings")) - got == set()


@pytest.mark.parametrize(
    "name", sorted(name for name, entry in ENTRIES.items() if entry.get("unverifiable"))
)
def test_expected_unverifiable_findings_are_reported(name: str) -> None:
    got = set(found(report(name).unverifiable))
    assert set(pairs(ENTRIES[name], "unverifiable")) - got == set()
