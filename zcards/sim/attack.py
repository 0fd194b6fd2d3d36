"""The Attack phase (R10): begin-attack abilities, defenders and leftover attackers assigned,
then each fight fought by the executor, whose grants say what its result owes and allows."""

from __future__ import annotations

from dataclasses import replace

from zcards.game import actions as ga
from zcards.game.actions import Cause
from zcards.game.executor import apply, legal
from zcards.game.effects import Effect, Timing
from zcards.game.legal_recoup import ability_rows
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie, zombies_of
from zcards.sim.actions import ActionKind
from zcards.sim.players import Assignment
from zcards.sim.recoup import use_of
from zcards.sim.simulator import Simulator


def attack_phase(sim: Simulator) -> None:
    defender = sim.table.active or ""
    _begin_attack(sim, defender)
    attackers = _attackers(sim)
    survivors = list(sim.table.players[defender].survivors)
    if not attackers or not survivors:
        return
    def allows(fights: ga.AssignFights) -> bool:
        return legal(sim.table, fights, without=sim.without).allowed is not False

    assignment = Assignment(defender, survivors, attackers, sim.powers(), allows)
    sim.strategy(defender).defend(assignment)
    for name in sim.zombie_players():
        sim.strategy(name).assign(assignment, name)
    sim.do(assignment.declared())
    for survivor, zombies in sim.strategy(defender).fight_order(assignment.fights()):
        if sim.me(defender).survivor(survivor.uid) is not None:
            _fight(sim, defender, survivor, zombies)


def _attackers(sim: Simulator) -> list[tuple[str, Zombie]]:
    """Every zombie player's ready zombies in his combat zone (R10.1)."""
    return [
        (name, zombie)
        for name in sim.zombie_players()
        for zombie in zombies_of(sim.table.players[name].zombies.board)
        if zombie.combat and not zombie.spent
    ]


def _begin_attack(sim: Simulator, defender: str) -> None:
    """The survivor player's Attack abilities: spend an attacking zombie (R10.2)."""
    while True:
        actions = [
            action
            for action in sim.options(defender, ga.UseAbility)
            if any(row.effect is Effect.SPEND for row in ability_rows(sim.table, action))
        ]
        if not actions:
            return
        uses = [use_of(sim, action) for action in actions]
        targets = _targets(sim, actions[0])
        choice = sim.strategy(defender).attack_ability(uses, targets)
        if choice is None:
            return
        use, (owner, zombie) = choice
        action = actions[uses.index(use)]
        sim.used(defender, use.card)
        sim.do(action)
        sim.record(ActionKind.SPEND, defender, card=use.card)
        sim.spend(owner, zombie, Cause.TEXT, defender, use.card)


def _targets(sim: Simulator, use: ga.UseAbility) -> list[tuple[str, Zombie]]:
    """The zombies the ability could spend: tried on a fork of the game."""
    trial = apply(sim.table.fork(), use)
    return [
        (spend.player, spend.zombie)
        for spend in sim.options(use.player, ga.Spend, game=trial)
        if legal(trial, replace(spend, card=use.card))
    ]


def _fight(
    sim: Simulator, defender: str, survivor: Survivor, zombies: list[tuple[str, Zombie]]
) -> None:
    sim.do(ga.Resolve(defender, survivor.uid))
    ledger = sim.table.ledger
    lost = any(ledger.find("Spend", o, z, Cause.FIGHT) for o, z in zombies) or any(
        ledger.find("ZombieToDiscard", o, z, Cause.FIGHT) for o, z in zombies
    )
    if lost:
        for owner, zombie in zombies:
            if ledger.find("ZombieToDiscard", owner, zombie, Cause.FIGHT):
                _discard_zombie(sim, owner, zombie, Cause.FIGHT)
            else:
                sim.spend(owner, zombie, Cause.FIGHT)
        if _wounds(sim, defender, survivor):
            return
        _wins_fight_food(sim, [(defender, survivor.name)])
        return
    _wins_fight_food(sim, [(o, z.name) for o, z in zombies if z.face_up and not z.generic])
    if survivor.uid in ledger.dying:
        sim.kill(defender, survivor)
        return
    for owner, zombie in zombies:
        if (owner, zombie) in ledger.kamikaze and sim.strategy(owner).kamikaze(
            survivor, _owed_wounds(sim, defender, survivor)
        ):
            sim.used(owner, zombie.name)
            _discard_zombie(sim, owner, zombie, Cause.TEXT)
    if _wounds(sim, defender, survivor):
        return
    infect = next((g for g in ledger.may if g.kind == "Infect" and g.target == survivor.uid), None)
    if infect is not None and infect.by and sim.strategy(infect.by).infect(survivor):
        sim.do(ga.Infect(defender, survivor.uid, infect.by))
        sim.record(ActionKind.INFECT, defender, card=survivor.name, old=0, new=1)


def _owed_wounds(sim: Simulator, defender: str, survivor: Survivor) -> int:
    grant = sim.table.ledger.find("Wound", defender, survivor.uid, Cause.FIGHT)
    return sim.table.ledger.must[grant] if grant is not None else 0


def _wounds(sim: Simulator, defender: str, survivor: Survivor) -> bool:
    """The wounds the fight owes him; True when they killed him."""
    for _ in range(_owed_wounds(sim, defender, survivor)):
        current = sim.me(defender).survivor(survivor.uid)
        if current is None or sim.wound(defender, current, Cause.FIGHT):
            return True
    return False


def _discard_zombie(sim: Simulator, owner: str, zombie: Zombie, cause: Cause) -> None:
    sim.do(ga.ZombieToDiscard(owner, zombie, cause))
    sim.record(ActionKind.TO_DISCARD, owner, card=zombie.name)


def _wins_fight_food(sim: Simulator, cards: list[tuple[str, str]]) -> None:
    """Food its text gives or takes when a card wins a fight (Hungry Masses, Survivalist
    Kim): the grants the fight's result gave, each taken unless its owner declines it."""
    for owner, name in cards:
        for row in sim.info(name).rows(Timing.WINS_FIGHT, Effect.FOOD):
            grant = next(
                (g for g in sim.table.ledger.may if g.card == name and g.target == row.amount),
                None,
            )
            if grant is not None and (not row.optional or sim.strategy(owner).use_optional(row)):
                sim.used(owner, name)
                sim.change_food(str(grant.player), row.amount, Cause.TEXT)
