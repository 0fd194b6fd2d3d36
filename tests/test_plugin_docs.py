"""docs/zombie-plugin.md documents every plugin label exactly as the game definition does."""

from __future__ import annotations

import re

from support.paths import ROOT

from zcards.game.definition import ZOMBIE_GAME

DOC = ROOT / "docs" / "zombie-plugin.md"
_ROW = re.compile(
    r"^\| `([^`]+)` \| (card|general) function `([A-Z0-9]+)`(?: \+ `(\w+)`)? \| "
    r"(.+) \|$",
    re.M,
)


def test_label_table_matches_the_game_definition() -> None:
    documented = [match.groups() for match in _ROW.finditer(DOC.read_text(encoding="utf-8"))]
    expected = [
        (f.label, "card", f.kind, f.colour, f.description) for f in ZOMBIE_GAME.card_functions
    ]
    expected += [
        (f.label, "general", f.kind, None, f.description) for f in ZOMBIE_GAME.general_functions
    ]
    assert documented == expected
