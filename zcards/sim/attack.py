"""The Attack phase (R10): begin-attack abilities, defenders and leftover attackers assigned,
then each fight resolved as the rules model decides (:func:`zcards.game.fights.resolve`)."""

from __future__ import annotations

from zcards.game.effects import Effect, Target, Timing
from zcards.game.fights import keywords_of, may_fight, resolve
from zcards.game.options import activated
from zcards.game.power import Fight
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie, zombies_of
from zcards.sim.actions import ActionKind
from zcards.sim.players import Assignment, fighter_of
from zcards.sim.simulator import Simulator


def attack_phase(sim: Simulator) -> None:
    defender = sim.table.active or ""
    _begin_attack(sim, defender)
    attackers = _attackers(sim)
    survivors = list(sim.table.players[defender].survivors)
    if not attackers or not survivors:
        return
    powers = sim.powers()
    assignment = Assignment(defender, survivors, attackers, powers)
    sim.strategy(defender).defend(assignment)
    for name in sim.zombie_players():
        sim.strategy(name).assign(assignment, name)
    for survivor, zombies in sim.strategy(defender).fight_order(assignment.fights()):
        if survivor in sim.table.players[defender].survivors:
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
        uses = [
            use
            for use in activated(sim.table.players[defender], sim.cards, sim.table)
            if (row := use.does(Effect.SPEND)) is not None and row.target is Target.ATTACKING_ZOMBIE
        ]
        targets = [
            (owner, zombie)
            for owner, zombie in _attackers(sim)
            if not (zombie.face_up and sim.info(zombie.name).has(Effect.NO_SURVIVOR_SPENDS))
            and not (zombie.face_up and sim.info(zombie.name).has(Effect.NO_TARGETING))
        ]
        choice = sim.strategy(defender).attack_ability(uses, targets)
        if choice is None:
            return
        use, (owner, zombie) = choice
        assert use.source is not None
        sim.used(defender, use.source.name)
        sim.spend_card(defender, use.source)
        sim.spend(owner, zombie)


def _fight(
    sim: Simulator, defender: str, survivor: Survivor, zombies: list[tuple[str, Zombie]]
) -> None:
    powers = sim.powers()
    fight = Fight(survivor, defender, tuple(fighter_of(o, z) for o, z in zombies))
    assert may_fight(fight, powers)
    result = resolve(fight, powers)
    if not result.zombies_win:
        for owner, zombie in zombies:
            if fighter_of(owner, zombie) in result.losers_discarded:
                _discard_zombie(sim, owner, zombie)
            else:
                sim.spend(owner, zombie)
        for _ in range(result.backlash):
            if sim.wound(defender, survivor):
                return
        _wins_fight_food(sim, defender, [(defender, survivor.name)])
        return
    _wins_fight_food(
        sim, defender, [(o, z.name) for o, z in zombies if z.face_up and not z.generic]
    )
    if result.killed:
        sim.kill(defender, survivor)
        return
    wounds = result.wounds
    for owner, zombie in zombies:
        kamikaze = fighter_of(owner, zombie) in result.kamikazes
        if kamikaze and sim.strategy(owner).kamikaze(survivor, wounds):
            sim.used(owner, zombie.name)
            _discard_zombie(sim, owner, zombie)
            wounds += 2
    for _ in range(wounds):
        if sim.wound(defender, survivor):
            return
    carrier = next((o for o, z in zombies if _infectious(sim, o, z)), None)
    if result.infectious and carrier is not None and sim.strategy(carrier).infect(survivor):
        survivor.infected, survivor.infected_by = True, carrier
        sim.record(ActionKind.INFECT, defender, card=survivor.name, old=0, new=1)


def _infectious(sim: Simulator, owner: str, zombie: Zombie) -> bool:
    return "infectious" in keywords_of(sim.powers(), fighter_of(owner, zombie))


def _discard_zombie(sim: Simulator, owner: str, zombie: Zombie) -> None:
    me = sim.me(owner)
    if zombie.face_up:
        me.zombies, fit = me.zombies.remove_named(zombie.name, where=zombie.up)
    else:
        place = (zombie.combat, zombie.spent)
        me.zombies, fit = me.zombies.remove_face_down(zombie.name, place=place)
    assert fit, zombie
    me.discard.append(zombie.name)
    sim.record(ActionKind.TO_DISCARD, owner, card=zombie.name)


def _wins_fight_food(sim: Simulator, defender: str, cards: list[tuple[str, str]]) -> None:
    """Food its text gives or takes when a card wins a fight (Hungry Masses, Survivalist
    Kim)."""
    for owner, name in cards:
        for row in sim.info(name).rows(Timing.WINS_FIGHT, Effect.FOOD):
            whom = defender if row.target is Target.SURVIVOR_PLAYER else owner
            if not row.optional or sim.strategy(owner).use_optional(row):
                sim.used(owner, name)
                sim.change_food(whom, row.amount)
