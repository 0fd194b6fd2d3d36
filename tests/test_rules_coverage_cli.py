"""``zcards rules coverage``: the cards whose text the effect rows do not cover, as text or
JSON; exit code 1 when there are some."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zcards.cli import main

HEADER = "Name\tSet\tImageFile\tType\tFaction\tCost\tPower\tHealth\tKeywords\tRequirements\t"
HEADER += "Symbols\tRarity\tText\n"


def coverage(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(["rules", "coverage", *args])
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    return code, capsys.readouterr().out


def test_the_bundled_set_is_covered(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = coverage(capsys, "--format", "json")
    assert code == 0
    assert json.loads(out) == {"cards": 100, "covered": 100, "uncovered": []}


def test_a_card_no_row_covers_is_listed(capsys, tmp_path: Path) -> None:
    cards = tmp_path / "cards.txt"
    cards.write_text(
        HEADER
        + "Odd Zed\tx\todd\tSurvivor\t\t1\t1\t1\t\t\t\tC\tOdd Zed heals everyone. He is odd.\n"
        + "Scout\tx\tscout\tSurvivor\t\t1\t2\t2\t\t\t\tC\tKeeps watch.\n",
        encoding="utf-8",
    )
    code, out = coverage(capsys, "--cards", str(cards), "--format", "json")
    assert code == 1
    assert json.loads(out)["uncovered"] == [
        {
            "name": "Odd Zed",
            "text": "Odd Zed heals everyone. He is odd.",
            "unread": ["Odd Zed heals everyone."],
            "partly_read": [],
        }
    ]
    code, out = coverage(capsys, "--cards", str(cards))
    assert code == 1 and "Odd Zed: not read: Odd Zed heals everyone." in out
