"""The rule decisions the audit asks (and the executor may ask) about causes, readying, card
text bans and costs: pure functions of zcards/game/rules.py, checked on their own."""

from __future__ import annotations

from zcards.game.cards import CardIndex
from zcards.game.effects import Cost
from zcards.game.power import Span
from zcards.game.rules import (
    discard_is_a_loss,
    pays_discard,
    ready_fault,
    scavenging_banned_by,
    take_over_fault,
    wound_rule,
)
from zcards.game.table import Table


def test_only_three_rules_wound_a_survivor() -> None:
    assert wound_rule("Ready", active=False) == "R4.2"  # every infected survivor
    assert wound_rule("Attack", active=True) == "R10.5"
    assert wound_rule("Recoup", active=True) == "R12.5"
    for phase in ("Draw", "Build", "End"):
        assert wound_rule(phase, active=True) is None
    assert wound_rule("Attack", active=False) is None  # only the active player is attacked
    assert wound_rule("Recoup", active=False) is None  # only the active player pays upkeep


def test_only_an_infected_survivor_that_died_is_taken_over() -> None:
    health = Span(2, 2)
    assert take_over_fault(True, 2, health, overwhelmed=False) is None
    assert take_over_fault(True, 1, health, overwhelmed=True) is None  # killed in a fight
    assert take_over_fault(False, 2, health, overwhelmed=False) == "it was not infected"
    alive = take_over_fault(True, 1, health, overwhelmed=False)
    assert alive is not None and "alive" in alive
    assert take_over_fault(None, None, None, overwhelmed=False) is None  # the log cannot tell


def test_readying_outside_the_ready_phase(bundled_cards) -> None:
    cards = CardIndex(bundled_cards)
    dog, neighbour = cards.get("Zombie Dog"), cards.get("Rotting Neighbour")
    assert ready_fault("Ready", neighbour, arrived=False, spent_here=False) is None
    assert ready_fault("Recoup", dog, arrived=True, spent_here=True) is None  # Fast (R9.2)
    assert ready_fault("Recoup", neighbour, arrived=True, spent_here=True) is not None
    assert ready_fault("Build", neighbour, arrived=False, spent_here=True) is None  # taken back
    assert ready_fault("End", neighbour, arrived=False, spent_here=False) is not None


def test_a_discarded_attacker_lost_unless_its_text_discards_it_as_it_wins(bundled_cards):
    cards = CardIndex(bundled_cards)
    assert discard_is_a_loss(cards.get("Frothing Maniac"))
    assert not discard_is_a_loss(cards.get("Kamikaze Corpse"))


def test_carrion_crows_bans_scavenging_only_from_a_combat_zone(bundled_cards) -> None:
    cards = CardIndex(bundled_cards)
    table = Table(started=True)
    crows = table.edit("Zed")
    crows.playing = True
    crows.zombies = crows.zombies.add_face_up("Carrion Crows")
    assert scavenging_banned_by(table, cards) == (None, False)  # in the resource zone
    crows.zombies, _ = crows.zombies.move_named("Carrion Crows", to_combat=True)
    assert scavenging_banned_by(table, cards) == ("Carrion Crows", True)


def test_what_pays_a_discard_cost(bundled_cards) -> None:
    cards = CardIndex(bundled_cards)
    item, zombie = cards.get("Baseball Bat"), cards.get("Shambler")
    assert pays_discard(Cost.SPEND_SELF_AND_DISCARD_ITEM, item, hidden=False)
    assert not pays_discard(Cost.SPEND_SELF_AND_DISCARD_ITEM, zombie, hidden=False)
    assert pays_discard(Cost.SPEND_SELF_AND_DISCARD_ITEM, None, hidden=True)  # may be an Item
    assert pays_discard(Cost.SPEND_SELF_AND_DISCARD, zombie, hidden=False)
    assert not pays_discard(Cost.SPEND_SELF, item, hidden=False)  # it asks for no discard
