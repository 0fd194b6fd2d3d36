"""``legal_actions(game, player)``: the move generator. It lists candidates broadly (every
card of the hand for every play, every zombie for every move, every ability of every card,
every effect a grant names) and keeps those :func:`~zcards.game.legal.legal` allows, so the
rules live in ``legal`` alone: a clause switched off there lets its illegal moves through
here (the mutation check of the simulator's cross-check).

Three choices are left to the player and checked by ``legal`` when he makes them: who pays
for a card (a candidate ``Play`` pays with his first ready zombies), where a permanent item
goes, and the fights of an Attack phase (the candidate declares none).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from zcards.game import actions as a
from zcards.game.actions import Cause
from zcards.game.effects import Cost, Timing
from zcards.game.ledger import Game
from zcards.game.legal import legal
from zcards.game.table import Player
from zcards.game.zombies import zombies_of

KINDS = frozenset(
    {
        a.PlayResource,
        a.Play,
        a.Upgrade,
        a.ToCombat,
        a.Ready,
        a.ReadyAll,
        a.UseAbility,
        a.Scavenge,
        a.Medic,
        a.Upkeep,
        a.AssignFights,
        a.Resolve,
        a.EndPhase,
    }
)
"""The player's own choices; the other actions are effects a grant names."""


def legal_actions(
    game: Game, player: str, kinds: Collection[type] = KINDS, *, without: Collection[str] = ()
) -> list[a.Action]:
    """Every action of ``kinds`` that ``player`` may take now (clauses in ``without`` off)."""
    return [
        action
        for action in candidates(game, player, kinds)
        if legal(game, action, without=without).allowed is not False
    ]


def candidates(game: Game, player: str, kinds: Collection[type]) -> Iterator[a.Action]:
    me = game.players[player]
    hand = sorted(me.hand_names.elements())
    if a.PlayResource in kinds:
        yield from (a.PlayResource(player, card) for card in hand)
    if a.Play in kinds:
        yield from _plays(game, me)
    board = zombies_of(me.zombies.board)
    if a.Upgrade in kinds:
        yield from (a.Upgrade(player, z) for z in board if not z.face_up)
    if a.ToCombat in kinds:
        yield from (a.ToCombat(player, z) for z in board)
    if a.Ready in kinds:
        yield from (a.Ready(player, z) for z in board if z.spent)
    if a.ReadyAll in kinds:
        yield a.ReadyAll(player)
    if a.UseAbility in kinds:
        yield from _abilities(game, me)
    if a.Scavenge in kinds:
        yield from (a.Scavenge(player, s.uid) for s in me.survivors)
    if a.Medic in kinds:
        for medic in me.survivors:
            yield from (a.Medic(player, medic.uid, s.uid) for s in me.survivors if s.wounds)
    if a.Upkeep in kinds:
        yield a.Upkeep(player)
    if a.AssignFights in kinds:
        yield a.AssignFights(player, ())
    if a.Resolve in kinds:
        yield from (a.Resolve(player, uid) for uid in game.ledger.fights)
    if a.EndPhase in kinds:
        yield a.EndPhase(player)
    yield from _effects(game, player, kinds)


def _plays(game: Game, me: Player) -> Iterator[a.Play]:
    ready = [z for z in zombies_of(me.zombies.board) if not z.spent]
    for name in sorted(me.hand_names):
        info = game.cards.get(name)
        if info is not None and info.type in ("Survivor", "Item"):
            yield a.Play(me.name, name, tuple(ready[: info.cost]))


def _abilities(game: Game, me: Player) -> Iterator[a.UseAbility]:
    sources: list[tuple[str, int | a.Zombie]] = [(s.name, s.uid) for s in me.survivors]
    sources += [(i.name, i.uid) for i in me.items]
    sources += [(z.name, z) for z in zombies_of(me.zombies.board) if z.face_up and not z.generic]
    for name, source in sources:
        info = game.cards.get(name)
        clauses: dict[str, Cost] = {}
        for row in info.rows(Timing.ACTIVATED) if info is not None else ():
            clauses.setdefault(row.clause, row.cost)
        for clause, cost in clauses.items():
            discard, also = None, None
            if cost in (Cost.SPEND_SELF_AND_DISCARD, Cost.SPEND_SELF_AND_DISCARD_ITEM):
                items = cost is Cost.SPEND_SELF_AND_DISCARD_ITEM
                discard = next(
                    (
                        n
                        for n in sorted(me.hand_names)
                        if not items or ((i := game.cards.get(n)) is not None and i.type == "Item")
                    ),
                    None,
                )
            if cost in (Cost.SPEND_SELF_AND_SURVIVOR, Cost.SPEND_SELF_AND_SCAVENGER):
                also = next((s.uid for s in me.survivors if s.uid != source and not s.spent), None)
            yield a.UseAbility(me.name, name, clause, source, discard, also)


def _effects(game: Game, player: str, kinds: Collection[type]) -> Iterator[a.Action]:
    """The effects the ledger's grants name for this player's cards."""
    if kinds is KINDS:
        return
    me = game.players[player]
    for grant in [*game.ledger.must, *game.ledger.may]:
        if grant.player not in (player, None):
            continue
        cause = grant.cause
        if grant.kind == "Wound" and a.Wound in kinds:
            uids = [grant.target] if isinstance(grant.target, int) else [s.uid for s in me.survivors]
            yield from (a.Wound(player, uid, cause) for uid in uids)
        elif grant.kind == "Heal" and a.Heal in kinds:
            uids = [grant.target] if isinstance(grant.target, int) else [s.uid for s in me.survivors]
            yield from (a.Heal(player, uid, cause) for uid in uids)
        elif grant.kind == "ChangeFood" and a.ChangeFood in kinds:
            yield a.ChangeFood(player, int(grant.target or 0), cause)
        elif grant.kind == "Draw" and a.Draw in kinds:
            yield a.Draw(player, None, cause)
        elif grant.kind == "TopToResource" and a.TopToResource in kinds:
            yield a.TopToResource(player, None, cause)
        elif grant.kind == "Spend" and grant.target is None and a.Spend in kinds:
            yield from _text_spends(game, grant.by or player)
        elif grant.kind in ("Spend", "ZombieToDiscard") and isinstance(grant.target, a.Zombie):
            kind = a.Spend if grant.kind == "Spend" else a.ZombieToDiscard
            if kind in kinds:
                yield kind(player, grant.target, cause)
        elif grant.kind == "Roll" and a.Roll in kinds:
            yield from (a.Roll(player, result) for result in range(1, 7))
    if a.Discard in kinds:
        hand = sorted(me.hand_names)
        yield from (a.Discard(player, card, c) for card in hand for c in (Cause.RULE, Cause.TEXT))


def _text_spends(game: Game, by: str, card: str | None = None) -> Iterator[a.Spend]:
    """Card text of ``by``'s that spends zombies: the other players' ready ones in combat, in
    turn order from him."""
    order = game.order
    start = order.index(by)
    for name in order[start + 1 :] + order[:start]:
        for zombie in zombies_of(game.players[name].zombies.board):
            if zombie.combat and not zombie.spent:
                yield a.Spend(name, zombie, Cause.TEXT, by, card)
