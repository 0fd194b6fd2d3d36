"""The Recoup phase (R12): abilities (Scavenger, Medic, "Recoup -" text), zombies to the
combat zone (R9), then upkeep and starvation; every choice one of the executor's legal
actions."""

from __future__ import annotations

from dataclasses import replace

from zcards.game import actions as ga
from zcards.game.actions import Cause
from zcards.game.effects import Condition, Cost, Effect, Target
from zcards.game.legal_recoup import ability_rows
from zcards.game.options import Use
from zcards.game.rules import DIE_SIDES
from zcards.game.table import Survivor
from zcards.sim.actions import ActionKind
from zcards.sim.simulator import Simulator


def recoup_phase(sim: Simulator) -> None:
    active = sim.table.active or ""
    for name in sim.in_turn_order(active):
        while True:
            choices = _choices(sim, name, active)
            use = sim.strategy(name).ability(sim.me(name), [u for u, _ in choices])
            if not use:
                break
            _use(sim, name, use, choices[[u for u, _ in choices].index(use)][1])
    me = sim.me(active)
    if me.lost is not None:  # he lost this turn: no moves, no upkeep (R14.2)
        return
    moves = [action.zombie for action in sim.options(active, ga.ToCombat)]
    for zombie in sim.strategy(active).to_combat(me, moves):
        _to_combat(sim, active, zombie)
    old = me.food or 0
    sim.do(ga.Upkeep(active))
    if sim.me(active).food != old:
        sim.record(ActionKind.SET_FOOD, active, other=active, old=old, new=sim.me(active).food)
    while wounds := [w for w in sim.options(active, ga.Wound) if w.cause is Cause.STARVATION]:
        target = sim.strategy(active).starve(sim.me(active))
        assert any(w.survivor == target.uid for w in wounds)
        sim.wound(active, target, Cause.STARVATION)


def use_of(sim: Simulator, action: ga.UseAbility) -> Use:
    """An ability as the strategies weigh it: the card, its rows and its source."""
    me = sim.me(action.player)
    source = action.source
    if isinstance(source, int):
        found = me.survivor(source) or next(i for i in me.items if i.uid == source)
        return Use(action.player, action.card, tuple(ability_rows(sim.table, action)), found)
    return Use(action.player, action.card, tuple(ability_rows(sim.table, action)), source)


Choice = tuple[Use, ga.Action]


def _choices(sim: Simulator, name: str, active: str) -> list[Choice]:
    """The active player's symbols and abilities; the others' zombies' abilities."""
    me = sim.me(name)
    abilities = [
        (use, action)
        for action in sim.options(name, ga.UseAbility)
        if _resolvable(sim, use := use_of(sim, action))
    ]
    if name != active:
        return [(u, a) for u, a in abilities if not isinstance(a.source, int)]
    symbols: list[Choice] = []
    for action in sim.options(name, ga.Scavenge):
        survivor = me.survivor(action.survivor)
        assert survivor is not None
        symbols.append((Use(name, survivor.name, (), survivor), action))
    for action in sim.options(name, ga.Medic):
        medic, target = me.survivor(action.survivor), me.survivor(action.target)
        assert medic is not None
        symbols.append((Use(name, medic.name, (), medic, target, name), action))
    return symbols + abilities


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
    return not use.rows or use.rows[0].cost in PAID


PAID = frozenset({Cost.SPEND_SELF, Cost.SPEND_SELF_AND_DISCARD, Cost.SPEND_SELF_AND_DISCARD_ITEM})
"""The costs the simulator pays (the discarded Item: the move generator's first one)."""


def _use(sim: Simulator, name: str, use: Use, action: ga.Action) -> None:
    assert use.source is not None
    sim.used(name, use.source.name)
    if isinstance(action, ga.Scavenge):
        _scavenge(sim, name, action)
        return
    if isinstance(action, ga.Medic):
        healed = use.target
        assert isinstance(healed, Survivor)
        old = healed.wounds or 0
        sim.do(
            action,
            sim.line(ActionKind.SPEND, name, card=use.card),
            sim.line(ActionKind.HEAL, name, card=healed.name, old=old, new=old - 1),
        )
        return
    assert isinstance(action, ga.UseAbility)
    me = sim.me(name)
    if use.rows[0].cost is Cost.SPEND_SELF_AND_DISCARD:
        action = replace(action, discard=sim.strategy(name).discard(me))
    source = action.source
    spent = (
        sim.line(ActionKind.SPEND, name, card=use.card)
        if isinstance(source, int)
        else sim.spend_line(name, source)
    )
    discarded = (
        () if action.discard is None else (sim.line(ActionKind.DISCARD, name, card=action.discard),)
    )
    sim.do(action, spent, *discarded)
    target: Survivor | None = None
    for row in use.rows:
        if row.effect is Effect.FOOD:
            sim.change_food(name, row.amount, Cause.TEXT)
        elif row.effect is Effect.DRAW:
            sim.draw(name, row.amount, named=True, cause=Cause.TEXT)
        elif row.effect is Effect.DISCARD:
            sim.discard_from_hand(name, sim.strategy(name).discard(me), Cause.TEXT)
        elif row.effect is Effect.HEAL:
            target = sim.strategy(name).most_wounded([s for s in me.survivors if s.wounds])
            sim.heal(name, target)
        elif row.effect is Effect.CURE:
            target = next(s for s in me.survivors if s.infected)
            sim.cure(name, target)
        elif row.effect is Effect.WOUND and target is not None:
            sim.wound(name, target, Cause.TEXT)


def _scavenge(sim: Simulator, name: str, action: ga.Scavenge) -> None:
    """Scavenger: attract attention (R12.2): a roll, then food or each zombie player's top
    card face down into his resource zone."""
    sim.do(action)
    survivor = sim.me(name).survivor(action.survivor)
    assert survivor is not None
    sim.record(ActionKind.SPEND, name, card=survivor.name)
    roll = sim.rng.randint(1, DIE_SIDES)
    sim.do(ga.Roll(name, roll))
    sim.record(ActionKind.ROLL, name, new=roll)
    if any(food.cause is Cause.SCAVENGE for food in sim.options(name, ga.ChangeFood)):
        sim.change_food(name, 1, Cause.SCAVENGE)
        return
    for zombie_player in sim.zombie_players():
        if sim.options(zombie_player, ga.TopToResource):
            sim.play_top_face_down(zombie_player, Cause.SCAVENGE)


def _to_combat(sim: Simulator, name: str, zombie: ga.Zombie) -> None:
    """R9.1: spend a ready zombie and move it to the combat zone; Fast readies it (R9.2)."""
    moved = sim.line(
        ActionKind.TO_COMBAT, name, card=zombie.name, face_down=not zombie.face_up, old=0, new=1
    )
    sim.do(ga.ToCombat(name, zombie), sim.spend_line(name, zombie), moved)
    for ready in sim.options(name, ga.Ready)[:1]:  # Fast (R9.2)
        sim.do(ready)
        sim.record(ActionKind.READY, name, card=ready.zombie.name)
