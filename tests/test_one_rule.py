"""One decision per rule: on tables built by hand, the executor's ``legal`` and the decision
of ``zcards/game/rules.py`` the audit asks give the same answer, legal and illegal, with the
same rule and reason (so neither side can drift from the other)."""

from __future__ import annotations

import pytest

from zcards.game import actions as a
from zcards.game.actions import Cause
from zcards.game.cards import CardIndex
from zcards.game.executor import apply, legal
from zcards.game.ledger import Game, Grant
from zcards.game.power import Powers
from zcards.game.rules import (
    DISCARD_COST_RULE,
    MEDIC_TEXT_RULE,
    NO_SCAVENGING_RULE,
    READY_RULE,
    TAKE_OVER,
    TAKE_OVER_RULE,
    WOUND_RULE,
    discard_cost_fault,
    discard_is_a_loss,
    medic_heal_fault,
    ready_fault,
    scavenging_ban,
    scavenging_banned_by,
    take_over_fault,
    wound_fault,
)
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie, Zombies

ALICE, ZED = "Alice", "Zed"  # the active survivor player, a zombie player


@pytest.fixture(scope="module")
def cards(bundled_cards) -> CardIndex:
    return CardIndex(bundled_cards)


def table(cards: CardIndex, phase: str, *survivors: str, zombies: Zombies | None = None) -> Game:
    """Alice's turn, in ``phase``: her survivors (ready, unwounded), Zed's zombies."""
    game = Game(cards)
    game.turn, game.phase, game.active = 2, phase, ALICE
    alice, zed = game.edit(ALICE), game.edit(ZED)
    alice.playing = zed.playing = True
    alice.deck = zed.deck = 30
    alice.survivors = [Survivor(name) for name in survivors]
    zed.zombies = zombies or Zombies()
    return game


def refusal(game: Game, action: a.Action) -> tuple[str, str] | None:
    """The executor's answer: None (allowed) or its rule and reason."""
    verdict = legal(game, action)
    assert verdict.allowed is not None, verdict
    return None if verdict.allowed else (verdict.rule or "", verdict.reason or "")


def up(name: str, *, combat: bool = False, spent: bool = False) -> Zombie:
    return Zombie(name, combat, spent, True)


# -- R4.1, R9.2: readying outside the Ready phase --------------------------------------------


@pytest.mark.parametrize("name", ["Zombie Dog", "Rotting Neighbour"])
def test_readying_as_it_arrives_in_combat_is_fast_only(cards, name) -> None:
    game = table(cards, "Recoup", zombies=Zombies().add_face_up(name))
    game.active = ZED
    apply(game, a.ToCombat(ZED, up(name)))
    said = refusal(game, a.Ready(ZED, up(name, combat=True, spent=True)))
    fault = ready_fault("Recoup", cards.get(name), arrived=True, spent_here=True)
    assert (said is None) == (fault is None) == (name == "Zombie Dog")
    assert said is None or said[0] == READY_RULE


@pytest.mark.parametrize("phase", ["Ready", "End"])
def test_a_card_spent_earlier_is_readied_in_the_ready_phase_only(cards, phase) -> None:
    zombies = Zombies().add_face_up("Rotting Neighbour", spent=True)
    game = table(cards, phase, zombies=zombies)
    info = cards.get("Rotting Neighbour")
    said = refusal(game, a.Ready(ZED, up("Rotting Neighbour", spent=True)))
    fault = ready_fault(phase, info, arrived=False, spent_here=False)
    assert said == (None if fault is None else (READY_RULE, fault))
    assert (fault is None) == (phase == "Ready")


# -- R4.2, R10.8, R12.5: what may wound a survivor ---------------------------------------------


@pytest.mark.parametrize(
    ("phase", "whose", "cause", "legal_"),
    [
        ("Ready", ALICE, Cause.INFECTION, True),  # an infected survivor's wound
        ("Build", ALICE, Cause.FIGHT, False),  # no fight in a Build phase
        ("Attack", ZED, Cause.FIGHT, False),  # only the active player's survivors fight
        ("Recoup", ZED, Cause.STARVATION, False),  # only the active player pays upkeep
    ],
)
def test_a_wound_needs_a_cause_of_its_phase(cards, phase, whose, cause, legal_) -> None:
    game = table(cards, phase)
    survivor = Survivor("Old Pete", infected=True, infected_by=ZED)
    game.edit(whose).survivors = [survivor]
    game.ledger.give(Grant("Wound", whose, survivor.uid, cause))
    said = refusal(game, a.Wound(whose, survivor.uid, cause))
    fault = wound_fault(phase, active=whose == ALICE, by_text=False)
    assert said == (None if fault is None else (WOUND_RULE, fault))
    assert (said is None) == legal_


# -- R11.3: Take Control --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("infected", "dead", "legal_"),
    [(True, True, True), (False, True, False), (True, False, False)],
)
def test_only_an_infected_dead_survivor_goes_to_its_infecter(cards, infected, dead, legal_):
    game = table(cards, "Attack", "Old Pete")
    pete = game.players[ALICE].survivors[0]
    pete.infected, pete.infected_by = infected, ZED
    if dead:
        pete.wounds = 2
        game.ledger.dying[pete.uid] = ALICE
    said = refusal(game, a.TakeControl(ZED, ALICE, pete.uid))
    health = Powers(cards, game).health(ALICE, pete)
    fault = take_over_fault(infected, None if dead else pete.wounds, health, overwhelmed=False)
    assert said == (None if fault is None else (TAKE_OVER_RULE, f"{fault}: {TAKE_OVER}"))
    assert (said is None) == legal_


# -- R10.6: an attacker leaving by discard -------------------------------------------------------


@pytest.mark.parametrize("name", ["Kamikaze Corpse", "Frothing Maniac"])
def test_a_winner_discards_itself_only_by_its_own_text(cards, name) -> None:
    attacker = up(name, combat=True)
    zombies = Zombies().add_face_up(name).move_named(name, to_combat=True)[0]
    game = table(cards, "Attack", "Old Pete", zombies=zombies)
    pete = game.players[ALICE].survivors[0].uid
    for action in (
        a.AssignFights(ALICE, (a.Fighting(pete, ((ZED, attacker),)),)),
        a.Resolve(ALICE, pete),
    ):
        assert legal(game, action).allowed, action
        apply(game, action)
    said = refusal(game, a.ZombieToDiscard(ZED, attacker, Cause.TEXT))
    # the audit reads such a discard as a lost fight unless the card's text discards it
    assert (said is None) == (not discard_is_a_loss(cards.get(name)))


# -- R16.1: Carrion Crows forbids Scavenger rolls from a combat zone ---------------------------


@pytest.mark.parametrize("in_combat", [False, True])
def test_carrion_crows_in_a_combat_zone_bans_scavenging(cards, in_combat) -> None:
    zombies = Zombies().add_face_up("Carrion Crows")
    if in_combat:
        zombies = zombies.move_named("Carrion Crows", to_combat=True)[0]
    game = table(cards, "Recoup", "Old Pete", zombies=zombies)
    said = refusal(game, a.Scavenge(ALICE, game.players[ALICE].survivors[0].uid))
    banned, surely = scavenging_banned_by(game, cards)
    assert surely == in_combat
    assert said == (None if banned is None else (NO_SCAVENGING_RULE, scavenging_ban(banned)))


# -- R16.1: Chef Antoine's and Prepper Vance's discard costs -------------------------------------


@pytest.mark.parametrize(
    ("card", "discard", "legal_"),
    [
        ("Chef Antoine", "Baseball Bat", True),
        ("Chef Antoine", "Shambler", False),  # not an Item
        ("Prepper Vance", "Shambler", True),  # any card
    ],
)
def test_a_discard_cost_is_paid_by_the_card_it_asks_for(cards, card, discard, legal_) -> None:
    game = table(cards, "Recoup", card)
    alice = game.edit(ALICE)
    alice.hand, alice.hand_names[discard] = 1, 1
    row = cards.get(card).rows()[0]
    chef = alice.survivors[0].uid
    said = refusal(game, a.UseAbility(ALICE, card, row.clause, chef, discard=discard))
    fault = discard_cost_fault(card, row.cost, cards.get(discard), hidden=False)
    assert said == (None if fault is None else (DISCARD_COST_RULE, fault))
    assert (said is None) == legal_


# -- R12.3, R16.1: the Medic and Ex-Con Dwayne ---------------------------------------------------


@pytest.mark.parametrize("patient", ["Old Pete", "Ex-Con Dwayne"])
def test_a_medic_heals_whom_text_allows(cards, patient) -> None:
    game = table(cards, "Recoup", "Paramedic Joe", patient)
    medic, target = game.players[ALICE].survivors
    target.wounds = 1
    said = refusal(game, a.Medic(ALICE, medic.uid, target.uid))
    fault = medic_heal_fault(cards.get(patient))
    assert said == (None if fault is None else (MEDIC_TEXT_RULE, fault))
    assert (said is None) == (patient == "Old Pete")
