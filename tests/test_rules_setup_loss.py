"""Losing at setup (R2.5): a player who puts out no opening survivor has already lost, also
when the log stops before the turn-1 line (the simulator's logs of such games do)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lackey_plugin.log.parser import parse_log
from zcards.normalise import read_card_file
from zcards.resources import BUNDLED_SET
from zcards.rules import audit

LOGS = Path(__file__).parent / "logs"
SETUP = (LOGS / "legal-game.txt").read_text().splitlines()[:18]
BOB_OPENING = ["Bob plays Tank from his Deck.", "Bob plays Lookout from his Deck."]


@pytest.fixture(scope="module")
def cards():
    return read_card_file(LOGS / "cards.txt")


def losses(lines: list[str], cards) -> list[tuple[str, int, int | None, str]]:
    report = audit(parse_log("\n".join(lines) + "\n").events, cards)
    assert report.violations == []
    return [(loss.player, loss.turn, loss.line, loss.reason) for loss in report.losses]


def without_bob_survivors() -> list[str]:
    assert SETUP[14:16] == BOB_OPENING and SETUP[16] == "Bob shuffles his Deck."
    return SETUP[:14] + SETUP[16:]


def test_no_opening_survivor_loses_at_the_end_of_a_log_without_turn_one(cards) -> None:
    lines = without_bob_survivors()[:-1]  # the log ends with Bob's shuffle
    assert lines[-1] == "Bob shuffles his Deck."
    assert losses(lines, cards) == [("Bob", 0, 15, "no survivors")]


def test_no_opening_survivor_loses_when_setup_ends(cards) -> None:
    lines = without_bob_survivors()
    assert lines[-1].startswith("Alice advances the turn. Current Turn: #1")
    assert losses(lines, cards) == [("Bob", 0, 16, "no survivors")]


def test_an_opening_still_under_way_is_no_loss(cards) -> None:
    """Saved before Bob put out (and shuffled): his opening has not ended, nobody lost."""
    assert losses(SETUP[:14], cards) == []
    assert losses(SETUP[:16], cards) == []


def test_a_legal_opening_is_no_loss(cards) -> None:
    assert losses(SETUP[:17], cards) == []
    assert losses(SETUP, cards) == []


def test_a_simulated_setup_loss_is_reported_from_both_points_of_view() -> None:
    sim = pytest.importorskip("zcards.sim.game")
    from zcards.sim.decklists import DeckList, load_decks
    from zcards.sim.recorder import game_log

    decks = load_decks([])
    zombies = DeckList("zombies", tuple(c for c in decks[0].cards if c.type == "Zombie") * 3)
    result = sim.play_game([zombies, decks[1]], 3)
    assert result.losses == (("Alice", "no survivors", 0),)
    card_list = read_card_file(BUNDLED_SET)
    for pov in result.players:
        text = game_log(result, pov, timestamps=False)
        lines = text.splitlines()
        report = audit(parse_log(text).events, card_list)
        assert report.violations == []
        shuffle = next(n for n, line in enumerate(lines, 1)
                       if line == "Alice shuffles his Deck.")
        assert [(loss.player, loss.turn, loss.line) for loss in report.losses] == [
            ("Alice", 0, shuffle)]
        assert report.remaining == ["Bob"]
