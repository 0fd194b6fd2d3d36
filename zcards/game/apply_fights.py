"""What fights, wounds, heals, infection, death and abilities do to a game (registered with
:mod:`zcards.game.handlers`, played by :func:`zcards.game.executor.apply`): a fight fought
gives the grants its result owes (R10.5 - R10.7), a death the grants its text allows."""

from __future__ import annotations

from zcards.game import actions as a
from zcards.game.actions import Cause
from zcards.game.effects import Effect, Target, Timing
from zcards.game.fights import keywords_of, resolve
from zcards.game.handlers import consume, give_rows, handles, spend_zombie
from zcards.game.ledger import Game, Grant
from zcards.game.legal_combat import fighter, takes_over
from zcards.game.legal_recoup import ability_rows
from zcards.game.power import Fight, Powers
from zcards.game.rules import dies, scavenge_succeeds
from zcards.game.table import Survivor
from zcards.game.zombies import Zombie

KAMIKAZE_WOUNDS = 2  # a Kamikaze Corpse discarded as it wins: two wounds more


@handles(a.AssignFights)
def _assign(game: Game, action: a.AssignFights) -> None:
    game.ledger.assigned = True
    game.ledger.fights = {fight.survivor: fight for fight in action.fights}


@handles(a.Resolve)
def _resolve(game: Game, action: a.Resolve) -> None:
    ledger, defender = game.ledger, action.player
    plan = ledger.fights.pop(action.survivor)
    survivor = game.players[defender].survivor(action.survivor)
    assert survivor is not None
    powers = Powers(game.cards, game)
    fight = Fight(survivor, defender, tuple(fighter(o, z) for o, z in plan.zombies))
    result = resolve(fight, powers)
    uid = survivor.uid
    if not result.zombies_win:
        for owner, zombie in plan.zombies:
            kind = "ZombieToDiscard" if fighter(owner, zombie) in result.losers_discarded else "Spend"
            ledger.give(Grant(kind, owner, zombie, Cause.FIGHT), must=True)
        ledger.give(Grant("Wound", defender, uid, Cause.FIGHT), result.backlash, must=True)
        _wins_food(game, defender, [(defender, survivor.name)])
        return
    _wins_food(game, defender, [(o, z.name) for o, z in plan.zombies if z.face_up and not z.generic])
    if result.killed:
        ledger.dying[uid] = defender
        return
    ledger.give(Grant("Wound", defender, uid, Cause.FIGHT), result.wounds, must=True)
    for owner, zombie in plan.zombies:
        if fighter(owner, zombie) in result.kamikazes:
            ledger.give(Grant("ZombieToDiscard", owner, zombie, Cause.TEXT))
            ledger.kamikaze[(owner, zombie)] = uid
    carrier = next((o for o, z in plan.zombies if _infectious(powers, o, z)), None)
    if result.infectious and carrier is not None:
        ledger.give(Grant("Infect", defender, uid, Cause.FIGHT, carrier))


def _infectious(powers: Powers, owner: str, zombie: Zombie) -> bool:
    return "infectious" in keywords_of(powers, fighter(owner, zombie))


def _wins_food(game: Game, defender: str, cards: list[tuple[str, str]]) -> None:
    """Food its text gives or takes when a card wins a fight (Hungry Masses, Survivalist
    Kim)."""
    for owner, name in cards:
        info = game.cards.get(name)
        for row in info.rows(Timing.WINS_FIGHT, Effect.FOOD) if info is not None else ():
            whom = defender if row.target is Target.SURVIVOR_PLAYER else owner
            game.ledger.give(Grant("ChangeFood", whom, row.amount, Cause.TEXT, owner, name))


@handles(a.ZombieToDiscard)
def _zombie_out(game: Game, action: a.ZombieToDiscard) -> None:
    me, zombie = game.edit(action.player), action.zombie
    if zombie.face_up:
        me.zombies, _ = me.zombies.remove_named(zombie.name, where=zombie.up)
    else:
        place = (zombie.combat, zombie.spent)
        me.zombies, _ = me.zombies.remove_face_down(zombie.name, place=place)
    me.discard.append(zombie.name)
    consume(game, "ZombieToDiscard", action.player, zombie, action.cause)
    uid = game.ledger.kamikaze.pop((action.player, zombie), None)
    if uid is not None and action.cause is Cause.TEXT:
        for name, me in game.players.items():
            if me.survivor(uid) is not None:
                grant = Grant("Wound", name, uid, Cause.FIGHT)
                game.ledger.give(grant, KAMIKAZE_WOUNDS, must=True)


# -- survivors ---------------------------------------------------------------------------


def _edit_survivor(game: Game, player: str, uid: int) -> Survivor:
    survivor = game.edit(player).survivor(uid)
    assert survivor is not None, uid
    return survivor


@handles(a.Wound)
def _wound(game: Game, action: a.Wound) -> None:
    survivor = _edit_survivor(game, action.player, action.survivor)
    survivor.wounds = (survivor.wounds or 0) + 1
    consume(game, "Wound", action.player, action.survivor, action.cause)
    if dies(survivor.wounds, Powers(game.cards, game).health(action.player, survivor)):
        game.ledger.dying[survivor.uid] = action.player


@handles(a.Heal)
def _heal(game: Game, action: a.Heal) -> None:
    survivor = _edit_survivor(game, action.player, action.survivor)
    survivor.wounds = max(0, (survivor.wounds or 0) - 1)
    consume(game, "Heal", action.player, action.survivor, action.cause)


@handles(a.Infect)
def _infect(game: Game, action: a.Infect) -> None:
    survivor = _edit_survivor(game, action.player, action.survivor)
    survivor.infected, survivor.infected_by = True, action.by
    consume(game, "Infect", action.player, action.survivor, Cause.FIGHT)


@handles(a.Cure)
def _cure(game: Game, action: a.Cure) -> None:
    survivor = _edit_survivor(game, action.player, action.survivor)
    survivor.infected, survivor.infected_by = False, None
    consume(game, "Cure", action.player, action.survivor, Cause.TEXT)


def _leaves(game: Game, owner: str, uid: int) -> Survivor:
    """A dead survivor leaves play (R11.1): the items on it go to the discard pile, what was
    owed or allowed on it is void, and its death text allows its heals."""
    me = game.edit(owner)
    survivor = me.survivor(uid)
    assert survivor is not None, uid
    me.survivors.remove(survivor)
    for item in [i for i in me.items if i.host == uid]:
        me.items.remove(item)
        me.discard.append(item.name)
    game.ledger.dying.pop(uid, None)
    game.ledger.drop(lambda g: g.target != uid)
    game.ledger.fights.pop(uid, None)
    info = game.cards.get(survivor.name)
    for row in info.rows(Timing.DIES, Effect.HEAL) if info is not None else ():
        if row.target is Target.YOUR_OTHER_SURVIVORS:
            for other in me.survivors:
                if other.wounds:
                    game.ledger.give(Grant("Heal", owner, other.uid, Cause.DEATH))
    return survivor


@handles(a.Bury)
def _bury(game: Game, action: a.Bury) -> None:
    survivor = _leaves(game, action.player, action.survivor)
    game.edit(action.player).discard.append(survivor.name)


@handles(a.TakeControl)
def _take_control(game: Game, action: a.TakeControl) -> None:
    assert takes_over(game, action.owner, action.survivor) == action.player
    survivor = _leaves(game, action.owner, action.survivor)
    taker = game.edit(action.player)
    taker.zombies = taker.zombies.add_face_up(
        survivor.name, generic=True, spent=bool(survivor.spent)
    )


# -- abilities (R12) ---------------------------------------------------------------------


def _spend_card(game: Game, player: str, uid: int) -> None:
    me = game.edit(player)
    card = me.survivor(uid) or next((i for i in me.items if i.uid == uid), None)
    assert card is not None, uid
    card.spent = True


@handles(a.UseAbility)
def _use(game: Game, action: a.UseAbility) -> None:
    if isinstance(action.source, int):
        _spend_card(game, action.player, action.source)
    else:
        spend_zombie(game, action.player, action.source)
    if action.also is not None:
        _spend_card(game, action.player, action.also)
    if action.discard is not None:
        me = game.edit(action.player)
        me.from_hand(action.discard)
        me.discard.append(action.discard)
    give_rows(game, action.player, ability_rows(game, action))


@handles(a.Scavenge)
def _scavenge(game: Game, action: a.Scavenge) -> None:
    _spend_card(game, action.player, action.survivor)
    game.ledger.give(Grant("Roll", action.player, None, Cause.SCAVENGE), must=True)


@handles(a.Roll)
def _roll(game: Game, action: a.Roll) -> None:
    consume(game, "Roll", action.player, None, Cause.SCAVENGE)
    if scavenge_succeeds(action.result):
        game.ledger.give(Grant("ChangeFood", action.player, 1, Cause.SCAVENGE), must=True)
        return
    for me in game.in_game():
        if me.name != game.active and me.deck:
            grant = Grant("TopToResource", me.name, None, Cause.SCAVENGE)
            game.ledger.give(grant, must=True)


@handles(a.Medic)
def _medic(game: Game, action: a.Medic) -> None:
    _spend_card(game, action.player, action.survivor)
    target = _edit_survivor(game, action.player, action.target)
    target.wounds = max(0, (target.wounds or 0) - 1)
