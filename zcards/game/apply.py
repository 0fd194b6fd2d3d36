"""What the actions of the setup, the cards' moves between zones, rotation, food and the
phases do to a game (registered with :mod:`zcards.game.handlers`, played by
:func:`zcards.game.executor.apply`)."""

from __future__ import annotations

from collections.abc import Iterator

from zcards.game import actions as a
from zcards.game.actions import Cause
from zcards.game.definition import DRAW_PHASE, PHASES, READY_PHASE
from zcards.game.effects import Effect, Timing
from zcards.game.handlers import check_losses, consume, give_rows, handles, spend_zombie
from zcards.game.ledger import Game, Grant
from zcards.game.rules import DISCARDS, DRAWS, after_upkeep
from zcards.game.table import SETUP, Item, Survivor

# -- setup -----------------------------------------------------------------------------------


@handles(a.Bid)
def _bid(game: Game, action: a.Bid) -> None:
    game.ledger.bids.append((action.amount, action.player))


@handles(a.ChooseFirst)
def _choose(game: Game, action: a.ChooseFirst) -> None:
    game.active = action.first


@handles(a.OpeningSurvivor)
def _opening(game: Game, action: a.OpeningSurvivor) -> None:
    me = game.edit(action.player)
    me.from_deck()
    me.survivors.append(Survivor(action.card))


# -- cards between zones -----------------------------------------------------------------


@handles(a.Draw)
def _draw(game: Game, action: a.Draw) -> None:
    me = game.edit(action.player)
    me.from_deck()
    me.to_hand(1, action.card)
    if action.cause is Cause.SETUP:
        game.ledger.opening[action.player] += 1
    else:
        consume(game, "Draw", action.player, None, action.cause)


@handles(a.Discard)
def _discard(game: Game, action: a.Discard) -> None:
    me = game.edit(action.player)
    me.from_hand(action.card)
    if action.card is not None:
        me.discard.append(action.card)
    consume(game, "Discard", action.player, None, action.cause)


@handles(a.PlayResource)
def _resource(game: Game, action: a.PlayResource) -> None:
    me = game.edit(action.player)
    me.from_hand(action.card)
    me.zombies = me.zombies.add_face_down(action.card or "")
    game.ledger.resources[action.player] += 1


@handles(a.TopToResource)
def _top(game: Game, action: a.TopToResource) -> None:
    me = game.edit(action.player)
    me.from_deck()
    me.zombies = me.zombies.add_face_down(action.card or "")
    consume(game, "TopToResource", action.player, None, action.cause)


@handles(a.DiscardToResource)
def _from_discard(game: Game, action: a.DiscardToResource) -> None:
    me = game.edit(action.player)
    me.discard.remove(action.card)
    me.zombies = me.zombies.add_face_down(action.card)
    consume(game, "DiscardToResource", action.player, None, Cause.TEXT)


@handles(a.Play)
def _play(game: Game, action: a.Play) -> Iterator[None]:
    info = game.cards.get(action.card)
    assert info is not None, action.card
    for zombie in action.paid:
        spend_zombie(game, action.player, zombie)
        yield
    me = game.edit(action.player)
    me.from_hand(action.card)
    if info.type == "Survivor":
        me.survivors.append(Survivor(action.card))
    elif info.one_shot:
        me.discard.append(action.card)
        give_rows(game, action.player, info.rows(Timing.ONE_SHOT))
    else:
        me.items.append(Item(action.card, action.host))


@handles(a.Upgrade)
def _upgrade(game: Game, action: a.Upgrade) -> None:
    me, zombie = game.edit(action.player), action.zombie
    me.zombies, _ = me.zombies.flip_up(zombie.name, place=(zombie.combat, zombie.spent))
    info = game.cards.get(zombie.name)
    for row in info.rows(Timing.TURNED_UP) if info is not None else ():
        if row.effect is Effect.DECK_TO_RESOURCE:
            game.ledger.give(Grant("TopToResource", action.player, None, Cause.TEXT))
        elif row.effect is Effect.DISCARD_TO_RESOURCE:
            game.ledger.give(Grant("DiscardToResource", action.player, None, Cause.TEXT))


# -- rotation ----------------------------------------------------------------------------


@handles(a.Spend)
def _spend(game: Game, action: a.Spend) -> None:
    spend_zombie(game, action.player, action.zombie)
    consume(game, "Spend", action.player, action.zombie, action.cause)


@handles(a.ToCombat)
def _to_combat(game: Game, action: a.ToCombat) -> Iterator[None]:
    zombie = action.zombie
    spend_zombie(game, action.player, zombie)
    yield
    me = game.edit(action.player)
    spent = zombie._replace(spent=True)
    if zombie.face_up:
        me.zombies, _ = me.zombies.move_named(zombie.name, to_combat=True, where=spent.up)
    else:
        me.zombies, _ = me.zombies.move_face_down(zombie.name, to_combat=True, spent=True)
    info = game.cards.get(zombie.name) if zombie.face_up and not zombie.generic else None
    if info is not None and info.has_keyword("Fast"):  # R9.2
        arrived = spent._replace(combat=True)
        game.ledger.give(Grant("Ready", action.player, arrived, Cause.TEXT))


@handles(a.Ready)
def _ready(game: Game, action: a.Ready) -> None:
    me, zombie = game.edit(action.player), action.zombie
    if zombie.face_up:
        me.zombies, _ = me.zombies.ready_named(zombie.name, where=zombie.up)
    else:
        me.zombies, _ = me.zombies.ready_face_down(zombie.name, combat=zombie.combat)
    consume(game, "Ready", action.player, zombie, Cause.TEXT)


@handles(a.ReadyAll)
def _ready_all(game: Game, action: a.ReadyAll) -> None:
    game.edit(action.player).ready_all()


# -- food and the phases -----------------------------------------------------------------


@handles(a.ChangeFood)
def _food(game: Game, action: a.ChangeFood) -> None:
    me = game.edit(action.player)
    me.food = max(0, (me.food or 0) + action.delta)
    if action.cause is not Cause.SETUP:
        consume(game, "ChangeFood", action.player, action.delta, action.cause)


@handles(a.Upkeep)
def _upkeep(game: Game, action: a.Upkeep) -> None:
    me = game.edit(action.player)
    me.food = after_upkeep(me.food or 0)
    game.ledger.upkept = True
    excess = max(0, len(me.survivors) - me.food)
    game.ledger.give(Grant("Wound", action.player, None, Cause.STARVATION), excess, must=True)


@handles(a.EndPhase)
def _end_phase(game: Game, action: a.EndPhase) -> None:
    ledger = game.ledger
    ledger.new_phase()
    if game.phase == SETUP:
        ledger.setup_over = True
        check_losses(game)
        if len(game.in_game()) < 2:
            return  # the game is over: no turn starts
        game.turn, game.phase = 1, READY_PHASE
    elif game.phase == PHASES[-1]:
        game.active = game.next_in_turn_order(game.active or "")[0]
        game.turn += 1
        game.phase = READY_PHASE
        ledger.resources.clear()
    else:
        game.phase = PHASES[PHASES.index(game.phase) + 1]
    start_phase(game)


def start_phase(game: Game) -> None:
    """What a phase owes from its start: the Ready phase's infection wounds (R4.2), the Draw
    phase's two draws and one discard for every player (R5.1, R5.2)."""
    ledger = game.ledger
    for me in game.in_game():
        if game.phase == READY_PHASE:
            for survivor in me.survivors:
                if survivor.infected:
                    grant = Grant("Wound", me.name, survivor.uid, Cause.INFECTION)
                    ledger.give(grant, must=True)
        elif game.phase == DRAW_PHASE:
            ledger.give(Grant("Draw", me.name), DRAWS, must=True)
            ledger.give(Grant("Discard", me.name), DISCARDS, must=True)
