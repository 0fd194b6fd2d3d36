"""The Build phase: one resource per player (R6), the active player's survivors and items
(R7) with what their text does, then upgrades (R8) with what turning a zombie up does. Every
choice is one of the executor's legal actions."""

from __future__ import annotations

from zcards.game import actions as ga
from zcards.game.actions import Cause
from zcards.game.effects import Effect, Row, Target, Timing
from zcards.game.options import host_rows, one_shot_rows
from zcards.game.zombies import Zombie
from zcards.sim.actions import ActionKind
from zcards.sim.simulator import Simulator


def build_phase(sim: Simulator) -> None:
    active = sim.table.active or ""
    for name in sim.in_turn_order(active):
        strategy = sim.strategy(name)
        resources = [action.card for action in sim.options(name, ga.PlayResource)]
        resource = strategy.resource(sim.me(name), resources) if resources else None
        if resource is not None:
            sim.do(ga.PlayResource(name, resource))
            sim.record(ActionKind.PLAY_RESOURCE, name, card=resource, face_down=True)
        while name == active:
            plays = {action.card: action for action in sim.options(name, ga.Play)}
            choice = strategy.play(sim.me(name), [sim.info(card) for card in plays])
            if not choice:
                break
            _play(sim, name, choice.name)
        while zombie := strategy.upgrade(
            sim.me(name), [action.zombie for action in sim.options(name, ga.Upgrade)]
        ):
            _flip(sim, name, zombie)


def _play(sim: Simulator, name: str, card: str) -> None:
    """Pay for a survivor or item and play it (R7), with what a one-shot item does (R7.5)."""
    strategy, info = sim.strategy(name), sim.info(card)
    paid = tuple(strategy.pay(sim.me(name), info.cost))
    host = strategy.host(sim.me(name), info, sim.powers()) if host_rows(info) else None
    sim.do(ga.Play(name, card, paid, host.uid if host is not None else None))
    for zombie in paid:
        sim.record_spend(name, zombie)
    sim.record(ActionKind.PLAY_FROM_HAND, name, card=card)
    if info.one_shot:
        sim.used(name, card)
        _one_shot(sim, name, one_shot_rows(info))
        sim.record(ActionKind.TO_DISCARD, name, card=card)


def _flip(sim: Simulator, name: str, zombie: Zombie) -> None:
    """Turn a face-down Zombie card up (R8.2) and do what its text does then."""
    sim.do(ga.Upgrade(name, zombie))
    sim.record(ActionKind.FLIP, name, card=zombie.name)
    for row in sim.info(zombie.name).rows(Timing.TURNED_UP):
        if row.effect is Effect.DECK_TO_RESOURCE and sim.options(name, ga.TopToResource):
            if not row.optional or sim.strategy(name).use_optional(row):
                sim.used(name, zombie.name)
                sim.play_top_face_down(name, Cause.TEXT)
        elif row.effect is Effect.DISCARD_TO_RESOURCE:
            me = sim.me(name)
            zombies = [c for c in me.discard if sim.info(c).type == "Zombie"]
            if zombies:
                card = sim.strategy(name).pick_card(zombies)
                sim.used(name, zombie.name)
                sim.do(ga.DiscardToResource(name, card))
                sim.record(ActionKind.DISCARD_TO_TABLE, name, card=card, face_down=True)


def _one_shot(sim: Simulator, name: str, rows: tuple[Row, ...]) -> None:
    """What a one-shot item does as it is played (R7.5)."""
    strategy = sim.strategy(name)
    me = sim.me(name)
    for row in rows:
        if row.effect is Effect.FOOD:
            sim.change_food(name, row.amount, Cause.TEXT)
        elif row.effect is Effect.HEAL:
            wounded = [s for s in me.survivors if s.wounds]
            if wounded:
                sim.heal(name, strategy.most_wounded(wounded))
        elif row.effect is Effect.CURE:
            infected = [s for s in me.survivors if s.infected]
            if infected:
                sim.cure(name, infected[0])
        elif row.effect is Effect.SPEND and row.target is Target.ZOMBIE_IN_COMBAT:
            targets = [(s.player, s.zombie) for s in sim.options(name, ga.Spend)]
            for owner, zombie in strategy.zombies_to_spend(targets, row.amount):
                sim.spend(owner, zombie, Cause.TEXT, name)
        elif row.effect is Effect.DRAW and sim.decks[name]:
            sim.draw(name, row.amount, named=True, cause=Cause.TEXT)
