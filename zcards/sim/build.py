"""The Build phase: one resource per player (R6), the active player's survivors and items
(R7) with what their text does, then upgrades (R8) with what turning a zombie up does."""

from __future__ import annotations

from zcards.game.effects import Effect, Row, Target, Timing
from zcards.game.options import one_shot_rows, playable, upgradable
from zcards.game.table import Item, Survivor
from zcards.game.zombies import Zombie, zombies_of
from zcards.sim.actions import ActionKind
from zcards.sim.simulator import Simulator


def build_phase(sim: Simulator) -> None:
    active = sim.table.active or ""
    for name in sim.in_turn_order(active):
        strategy = sim.strategy(name)
        resource = strategy.resource(sim.table.players[name])
        if resource is not None:
            me = sim.me(name)
            me.from_hand(resource)
            me.zombies = me.zombies.add_face_down(resource)
            sim.record(ActionKind.PLAY_RESOURCE, name, card=resource, face_down=True)
        while name == active and (
            card := strategy.play(
                sim.table.players[name], playable(sim.table.players[name], sim.cards, sim.table)
            )
        ):
            sim.pay(name, card.cost)
            me = sim.me(name)
            me.from_hand(card.name)
            sim.record(ActionKind.PLAY_FROM_HAND, name, card=card.name)
            if card.type == "Survivor":
                me.survivors.append(Survivor(card.name))
            elif card.one_shot:
                sim.used(name, card.name)
                _one_shot(sim, name, one_shot_rows(card))
                me.discard.append(card.name)
                sim.record(ActionKind.TO_DISCARD, name, card=card.name)
            else:
                host = strategy.host(sim.table.players[name], card, sim.powers())
                me.items.append(Item(card.name, host.uid if host is not None else None))
        while zombie := strategy.upgrade(
            sim.table.players[name], upgradable(sim.table.players[name], sim.cards)
        ):
            _flip(sim, name, zombie)


def _flip(sim: Simulator, name: str, zombie: Zombie) -> None:
    """Turn a face-down Zombie card up (R8.2) and do what its text does then."""
    me = sim.me(name)
    me.zombies, fit = me.zombies.flip_up(zombie.name, place=(zombie.combat, zombie.spent))
    assert fit, zombie
    sim.record(ActionKind.FLIP, name, card=zombie.name)
    for row in sim.info(zombie.name).rows(Timing.TURNED_UP):
        if row.effect is Effect.DECK_TO_RESOURCE and sim.decks[name]:
            if not row.optional or sim.strategy(name).use_optional(row):
                sim.used(name, zombie.name)
                sim.play_top_face_down(name)
        elif row.effect is Effect.DISCARD_TO_RESOURCE:
            zombies = [c for c in me.discard if sim.info(c).type == "Zombie"]
            if zombies:
                card = sim.strategy(name).pick_card(zombies)
                sim.used(name, zombie.name)
                me.discard.remove(card)
                me.zombies = me.zombies.add_face_down(card)
                sim.record(ActionKind.DISCARD_TO_TABLE, name, card=card, face_down=True)


def _one_shot(sim: Simulator, name: str, rows: tuple[Row, ...]) -> None:
    """What a one-shot item does as it is played (R7.5)."""
    strategy = sim.strategy(name)
    me = sim.me(name)
    for row in rows:
        if row.effect is Effect.FOOD:
            sim.change_food(name, row.amount)
        elif row.effect is Effect.HEAL:
            wounded = [s for s in me.survivors if s.wounds]
            if wounded:
                sim.heal(name, strategy.most_wounded(wounded))
        elif row.effect is Effect.CURE:
            infected = [s for s in me.survivors if s.infected]
            if infected:
                sim.cure(name, infected[0])
        elif row.effect is Effect.SPEND and row.target is Target.ZOMBIE_IN_COMBAT:
            for owner, zombie in strategy.zombies_to_spend(_enemy_attackers(sim, name), row.amount):
                sim.spend(owner, zombie)
        elif row.effect is Effect.DRAW and sim.decks[name]:
            sim.draw(name, row.amount, named=True)


def _enemy_attackers(sim: Simulator, name: str) -> list[tuple[str, Zombie]]:
    """The other players' ready zombies in their combat zones (what attacks him next)."""
    return [
        (other, zombie)
        for other in sim.in_turn_order(name)
        if other != name
        for zombie in zombies_of(sim.table.players[other].zombies.board)
        if zombie.combat and not zombie.spent and not _untargetable(sim, zombie)
    ]


def _untargetable(sim: Simulator, zombie: Zombie) -> bool:
    info = sim.cards.get(zombie.name) if zombie.face_up and not zombie.generic else None
    return info is not None and info.has(Effect.NO_TARGETING)
