"""The Attack phase: every zombie player's ready zombies in combat fight the active player."""

from __future__ import annotations

from zcards.sim.actions import ActionKind
from zcards.sim.players import Fight
from zcards.sim.simulator import Simulator
from zcards.sim.state import PlayerState


def attack_phase(sim: Simulator) -> None:
    """Defenders are declared, leftover attackers assigned, then fights resolved in order."""
    defender = sim.state.player(sim.state.active)
    zombie_players = sim.zombie_players()
    attackers = [zombie for player in zombie_players for zombie in player.attackers]
    if not attackers or not defender.survivors:
        return
    fights = sim.strategy(defender).defend(defender.survivors, attackers)
    assigned = {id(zombie) for fight in fights for zombie in fight.zombies}
    for player in zombie_players:
        leftover = [zombie for zombie in player.attackers if id(zombie) not in assigned]
        if leftover:
            sim.strategy(player).assign(fights, defender.survivors, leftover)
    for fight in sim.strategy(defender).fight_order(fights):
        _resolve(sim, defender, fight)


def _resolve(sim: Simulator, defender: PlayerState, fight: Fight) -> None:
    """Higher power wins, zombies win ties; double power kills; Fierce adds wounds."""
    survivor = fight.survivor
    total = fight.power
    if total < survivor.power:
        for zombie in fight.zombies:
            sim.spend(sim.state.player(zombie.controller), zombie)
        return
    if total >= 2 * survivor.power:
        sim.kill(defender, survivor)
        return
    wounds = 1 + sum(1 for zombie in fight.zombies if zombie.has_keyword("Fierce"))
    for _ in range(wounds):
        if sim.wound(defender, survivor):
            return
    carriers = [zombie for zombie in fight.zombies if zombie.has_keyword("Infectious")]
    if carriers and survivor.infected_by is None:
        infecter = sim.state.player(carriers[0].controller)
        if sim.strategy(infecter).infect(survivor):
            survivor.infected_by = infecter.name
            sim.record(ActionKind.INFECT, defender, card=survivor.name, old=0, new=1)
