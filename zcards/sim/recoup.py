"""The Recoup phase (R12): abilities (Scavenger, Medic, "Recoup -" text), zombies to the
combat zone (R9), then upkeep and starvation."""

from __future__ import annotations

from zcards.game.effects import Condition, Cost, Effect, Target
from zcards.game.options import Use, activated, movable, symbol_uses
from zcards.game.rules import after_upkeep, scavenge_succeeds, starvation
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie
from zcards.sim.actions import ActionKind
from zcards.sim.simulator import Simulator


def recoup_phase(sim: Simulator) -> None:
    active = sim.table.active or ""
    for name in sim.in_turn_order(active):
        while use := sim.strategy(name).ability(sim.table.players[name], _uses(sim, name, active)):
            _use(sim, name, use)
    me = sim.me(active)
    for zombie in sim.strategy(active).to_combat(me, movable(me)):
        _to_combat(sim, active, zombie)
    if me.food is not None and me.food > 0:
        sim.change_food(active, after_upkeep(me.food) - me.food)
    for _ in range(starvation(len(me.survivors), me.food or 0)):
        sim.wound(active, sim.strategy(active).starve(me))


def _uses(sim: Simulator, name: str, active: str) -> list[Use]:
    """The active player's symbols and abilities; the others' zombies' abilities."""
    me = sim.table.players[name]
    uses = [u for u in activated(me, sim.cards, sim.table) if _resolvable(sim, u)]
    if name != active:
        return [u for u in uses if isinstance(u.source, Zombie)]
    return symbol_uses(me, sim.cards, sim.table) + uses


PLAYED = frozenset(
    {Effect.FOOD, Effect.DRAW, Effect.DISCARD, Effect.CURE, Effect.WOUND, Effect.HEAL, Effect.LOOK}
)  # the effects of "Recoup -" abilities the simulator carries out


def _resolvable(sim: Simulator, use: Use) -> bool:
    """The abilities the simulator plays: it can carry out each effect, and each does
    something (a heal needs a wounded survivor of his, a cure an infected one, a draw a deck;
    food on condition needs the condition); hurting an infected survivor is never chosen."""
    me = sim.table.players[use.player]
    wounded = any(s.wounds for s in me.survivors)
    infected = any(s.infected for s in me.survivors)
    for row in use.rows:
        if (
            row.effect not in PLAYED
            or (
                row.effect is Effect.FOOD
                and row.condition is Condition.NO_WOUNDED_SURVIVORS
                and wounded
            )
            or (row.effect is Effect.DRAW and not sim.decks[use.player])
            or (row.effect is Effect.CURE and not infected)
            or (row.effect is Effect.HEAL and not wounded)
            or (row.effect is Effect.WOUND and row.target is Target.INFECTED_SURVIVOR)
        ):
            return False
    return not use.rows or use.rows[0].cost in (Cost.SPEND_SELF, Cost.SPEND_SELF_AND_DISCARD)


def _use(sim: Simulator, name: str, use: Use) -> None:
    assert use.source is not None
    sim.used(name, use.source.name)
    if isinstance(use.source, Zombie):
        sim.spend(name, use.source)
    else:
        sim.spend_card(name, use.source)
    if not use.rows:
        _symbol(sim, name, use)
        return
    me = sim.me(name)
    if use.rows[0].cost is Cost.SPEND_SELF_AND_DISCARD:
        sim.discard_from_hand(name, sim.strategy(name).discard(me))
    target: Survivor | None = None
    for row in use.rows:
        if row.effect is Effect.FOOD:
            sim.change_food(name, row.amount)
        elif row.effect is Effect.DRAW:
            sim.draw(name, row.amount, named=True)
        elif row.effect is Effect.DISCARD:
            sim.discard_from_hand(name, sim.strategy(name).discard(me))
        elif row.effect is Effect.HEAL:
            target = sim.strategy(name).most_wounded([s for s in me.survivors if s.wounds])
            sim.heal(name, target)
        elif row.effect is Effect.CURE:
            target = next(s for s in me.survivors if s.infected)
            sim.cure(name, target)
        elif row.effect is Effect.WOUND and target is not None:
            sim.wound(name, target)


def _symbol(sim: Simulator, name: str, use: Use) -> None:
    """Medic: remove a wound (R12.3); Scavenger: attract attention (R12.2)."""
    if use.target is not None:
        assert isinstance(use.target, Survivor)
        sim.heal(name, use.target)
        return
    roll = sim.rng.randint(1, 6)
    sim.record(ActionKind.ROLL, name, new=roll)
    if scavenge_succeeds(roll):
        sim.change_food(name, 1)
        return
    for zombie_player in sim.zombie_players():
        sim.play_top_face_down(zombie_player)


def _to_combat(sim: Simulator, name: str, zombie: Zombie) -> None:
    """R9.1: spend a ready zombie and move it to the combat zone; Fast readies it (R9.2)."""
    sim.spend(name, zombie)
    me = sim.me(name)
    spent = zombie._replace(spent=True)
    if zombie.face_up:
        me.zombies, fit = me.zombies.move_named(zombie.name, to_combat=True, where=spent.up)
    else:
        me.zombies, fit = me.zombies.move_face_down(zombie.name, to_combat=True, spent=True)
    assert fit, zombie
    sim.record(
        ActionKind.TO_COMBAT, name, card=zombie.name, face_down=not zombie.face_up, old=0, new=1
    )
    if zombie.face_up and not zombie.generic and sim.info(zombie.name).has_keyword("Fast"):
        arrived = spent._replace(combat=True)
        me.zombies, fit = me.zombies.ready_named(zombie.name, where=arrived.up)
        assert fit, zombie
        sim.record(ActionKind.READY, name, card=zombie.name)
