"""Every form of every violation next to its legal counterpart.

Each case edits a line or two of the legal game (tests/logs/legal-game.txt) and cuts it at
the same place: the edited log has exactly the expected violation at the expected line, the
legal cut has none. The hand-written fixtures of test_rules_fixtures.py are checked the same
way: each is a legal prefix of that game with at most a few lines changed, and that prefix is
clean, so the changed lines alone make the violation.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import pytest
from support.paths import LOGS

from lackey_plugin.log.parser import parse_log_text
from zcards.game.definition import ZOMBIE_GAME
from zcards.rules import KINDS, Kind, audit

LEGAL = (LOGS / "legal-game.txt").read_text().splitlines()


@dataclass(frozen=True)
class Variant:
    kind: Kind
    rule: str
    cut: int  # the last line of the legal game kept
    edits: tuple[tuple[int, int, tuple[str, ...]], ...]  # (line, lines removed, lines put there)
    line: int  # where the violation is, in the edited log

    def lines(self) -> list[str]:
        out = LEGAL[: self.cut]
        for line, removed, added in sorted(self.edits, reverse=True):
            out[line - 1 : line - 1 + removed] = added
        return out


def _moved(line: int, to: int) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
    """Move legal line ``line`` to just after legal line ``to``."""
    return (line, 1, ()), (to + 1, 0, (LEGAL[line - 1],))


VARIANTS: dict[str, Variant] = {
    "draws-one": Variant(Kind.DRAW_COUNT, "R5.1", 25, ((23, 1, ("Bob draws a card.",)),), 25),
    "discards-two": Variant(
        Kind.DRAW_COUNT,
        "R5.2",
        25,
        ((25, 0, ("Bob discards Scout from his Hand to the top of his Discard.",)),),
        25,
    ),
    "opening-from-hand": Variant(
        Kind.OPENING_SURVIVORS, "R2.4", 18, ((11, 1, ("Alice plays Scout from his Hand.",)),), 11
    ),
    "item-in-attack": Variant(Kind.CARD_PLAY, "R7.2", 51, _moved(47, 49), 49),
    "phase-repeated": Variant(
        Kind.PHASE_ORDER,
        "R3.2",
        37,
        (
            (
                29,
                0,
                (
                    "Alice advances to the next phase: Attack -> Build",
                    "Alice advances to the next phase: Build -> Attack",
                ),
            ),
        ),
        29,
    ),
    "attacker-spent": Variant(
        Kind.ILLEGAL_ATTACKER,
        "R10.1",
        91,
        ((92, 0, ("Alice performs Spend on Spitter.",) * 2),),
        93,
    ),
    "wound-beyond-power": Variant(
        Kind.COMBAT_RESULT,
        "R10.5",
        51,
        ((50, 1, ("Bob performs Wound (0 to 1) (+1) on Tank.",)),),
        50,
    ),
    "two-wounds-no-fierce": Variant(
        Kind.COMBAT_RESULT,
        "R10.5",
        96,
        ((92, 1, ("Bob performs Wound (0 to 2) (+2) on Tank.",)),),
        92,
    ),
    "zombie-player-wounded": Variant(
        Kind.COMBAT_RESULT,
        "R10.8",
        96,
        ((92, 0, ("Alice performs Wound (0 to 1) (+1) on Medic Mia.",)),),
        92,
    ),
    "upgrade-in-attack": Variant(Kind.ZOMBIE_UPGRADE, "R8.2", 70, _moved(66, 68), 68),
    "scavenger-not-spent": Variant(Kind.ABILITY_USE, "R12.1", 36, ((30, 1, ()),), 31),
    "scavenge-in-attack": Variant(
        Kind.ABILITY_USE, "R12.1", 36, ((29, 0, tuple(LEGAL[29:32])), (30, 3, ())), 31
    ),
}


def run(lines: list[str], cards):
    return audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, cards)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_is_found_at_its_line(name: str, log_cards) -> None:
    variant = VARIANTS[name]
    lines = variant.lines()
    assert lines != LEGAL[: variant.cut]
    report = run(lines, log_cards)
    assert [(f.kind, f.rule, f.line) for f in report.violations] == [
        (variant.kind, variant.rule, variant.line)
    ], report.to_text()
    assert report.violations[0].text == lines[variant.line - 1]
    assert variant.rule in KINDS[variant.kind].rules


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_legal_counterpart_is_clean(name: str, log_cards) -> None:
    report = run(LEGAL[: VARIANTS[name].cut], log_cards)
    assert report.violations == [] and report.unverifiable == [], report.to_text()


def _counterpart(fixture: list[str]) -> tuple[list[str], int]:
    """The legal prefix a fixture was made from, and how many lines it changes."""
    matcher = difflib.SequenceMatcher(a=LEGAL, b=fixture, autojunk=False)
    ops = matcher.get_opcodes()
    if ops[-1][0] == "delete" and ops[-1][3] == len(fixture):
        ops = ops[:-1]  # the legal game goes on after the fixture's end
    end = ops[-1][2]
    changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops if tag != "equal")
    return LEGAL[:end], changed


def _fixtures() -> list[str]:
    return sorted(
        p.stem
        for p in LOGS.glob("*.txt")
        if p.stem not in ("cards", "food-resync") and not p.stem.startswith("legal-")
    )


@pytest.mark.parametrize("name", _fixtures())
def test_fixture_differs_from_a_clean_legal_prefix_by_a_few_lines(name: str, log_cards) -> None:
    fixture = (LOGS / f"{name}.txt").read_text().splitlines()
    legal, changed = _counterpart(fixture)
    assert 1 <= changed <= 4, name
    clean = run(legal, log_cards)
    assert clean.violations == [] and clean.unverifiable == [], clean.to_text()
    assert run(fixture, log_cards).violations
