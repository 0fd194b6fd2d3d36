"""Losing at setup (R2.5): a player who puts out no opening survivor has already lost, also
when the log stops before the turn-1 line (the simulator's logs of such games do)."""

from __future__ import annotations

import random

import pytest
from support.paths import LOGS

from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules import audit

SETUP = (LOGS / "legal-game.txt").read_text().splitlines()[:18]
BOB_OPENING = ["Bob plays Tank from his Deck.", "Bob plays Lookout from his Deck."]


def losses(lines: list[str], cards) -> list[tuple[str, int, int | None, str]]:
    report = audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, cards)
    assert report.violations == []
    return [(loss.player, loss.turn, loss.line, loss.reason) for loss in report.losses]


def without_bob_survivors() -> list[str]:
    assert SETUP[14:16] == BOB_OPENING and SETUP[16] == "Bob shuffles his Deck."
    return SETUP[:14] + SETUP[16:]


def test_no_opening_survivor_loses_at_the_end_of_a_log_without_turn_one(log_cards) -> None:
    lines = without_bob_survivors()[:-1]  # the log ends with Bob's shuffle
    assert lines[-1] == "Bob shuffles his Deck."
    assert losses(lines, log_cards) == [("Bob", 0, 15, "no survivors")]


def test_no_opening_survivor_loses_when_setup_ends(log_cards) -> None:
    lines = without_bob_survivors()
    assert lines[-1].startswith("Alice advances the turn. Current Turn: #1")
    assert losses(lines, log_cards) == [("Bob", 0, 15, "no survivors")]
    unshuffled = lines[:14] + lines[15:]  # no shuffle: decided by the turn-1 line itself
    assert losses(unshuffled, log_cards) == [("Bob", 0, 15, "no survivors")]


@pytest.mark.parametrize("turn_line", [False, True])
def test_acting_after_a_setup_loss_is_a_violation(log_cards, turn_line: bool) -> None:
    """With a turn-1 line after it, Bob's draw is still setup; without one, a draw after
    every hand is drawn is the first line of turn 1 (R17.10)."""
    lines = without_bob_survivors()
    lines.insert(15, "Bob draws a card.")
    if not turn_line:
        lines = lines[:16]
    report = audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, log_cards)
    turn, phase = (0, "Setup") if turn_line else (1, "Ready")
    assert [(v.kind, v.line, v.turn, v.phase, v.text) for v in report.violations] == [
        ("action-after-loss", 16, turn, phase, "Bob draws a card.")
    ]
    assert [(loss.player, loss.line) for loss in report.losses] == [("Bob", 15)]
    assert "Bob lost at setup (no survivors)" in report.to_text()


def test_an_opening_still_under_way_is_no_loss(log_cards) -> None:
    """Saved before Bob put out (and shuffled): his opening has not ended, nobody lost."""
    assert losses(SETUP[:14], log_cards) == []
    assert losses(SETUP[:16], log_cards) == []


def test_a_legal_opening_is_no_loss(log_cards) -> None:
    assert losses(SETUP[:17], log_cards) == []
    assert losses(SETUP, log_cards) == []


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
        report = audit(parse_log_text(text, game=ZOMBIE_GAME).events, card_list)
        assert report.violations == []
        shuffle = next(n for n, line in enumerate(lines, 1) if line == "Alice shuffles his Deck.")
        assert [(loss.player, loss.turn, loss.line) for loss in report.losses] == [
            ("Alice", 0, shuffle)
        ]
        assert report.remaining == ["Bob"]


def test_acting_after_a_simulated_setup_loss_is_found() -> None:
    """The simulator's mutator names the player who put out no survivor as the loser."""
    sim = pytest.importorskip("zcards.sim.game")
    from support.faults import mutate

    from lackey_plugin.log.writer import format_log
    from zcards.rules import Kind
    from zcards.sim.decklists import DeckList, load_decks
    from zcards.sim.recorder import pov_events

    decks = load_decks([])
    zombies = DeckList("zombies", tuple(c for c in decks[0].cards if c.type == "Zombie") * 3)
    card_list = read_card_file(BUNDLED_SET)
    cards = {card.name: card for card in card_list}
    # (seed, who has the zombie deck): the loser opens first, first, last
    for seed, loser in ((1, "Alice"), (3, "Bob"), (2, "Alice")):
        result = sim.play_game(
            [zombies, decks[1]] if loser == "Alice" else [decks[1], zombies], seed
        )
        assert [name for name, _, _ in result.losses] == [loser]
        for pov in result.players:
            mutation = mutate(
                Kind.ACTION_AFTER_LOSS, pov_events(result, pov), random.Random(seed), cards
            )
            report = audit(
                parse_log_text(format_log(mutation.events), game=ZOMBIE_GAME).events, card_list
            )
            assert [(v.kind, v.line, v.player) for v in report.violations] == [
                (Kind.ACTION_AFTER_LOSS, mutation.line, loser)
            ]
