"""The executor's registry of what each action does (see :mod:`zcards.game.executor`), and
the steps several actions share: a grant used up, a zombie spent, the grants of card text,
the losses checked after every action (R14.1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zcards.game.actions import Cause
from zcards.game.effects import Condition, Effect, Target
from zcards.game.ledger import Game, Grant
from zcards.game.rules import has_lost
from zcards.game.zombies import Zombie

Handler = Callable[[Game, Any], None]
HANDLERS: dict[type, Handler] = {}


def handles(kind: type) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        HANDLERS[kind] = handler
        return handler

    return register


def check_losses(game: Game) -> None:
    """R14.1: a player with an empty deck, or without survivors after the setup, has lost;
    what he still owed is dropped (R14.2)."""
    for me in game.in_game():
        reason = has_lost(me, setup_over=game.ledger.setup_over)
        if reason is not None:
            game.lose(me.name, reason, None)
            game.ledger.drop(lambda g, name=me.name: g.player != name)


def consume(game: Game, kind: str, player: str, target: object, cause: Cause) -> None:
    """Use up the grant that allowed this effect (none: the caller did not ask legal)."""
    grant = game.ledger.find(kind, player, target, cause)
    if grant is not None:
        game.ledger.use(grant)


def spend_zombie(game: Game, player: str, zombie: Zombie) -> None:
    me = game.edit(player)
    if zombie.face_up:
        me.zombies, _ = me.zombies.spend_named(zombie.name, where=zombie.up)
    else:
        me.zombies, _ = me.zombies.spend_face_down(zombie.name, combat=zombie.combat)


# -- text ----------------------------------------------------------------------------------


def give_rows(game: Game, player: str, rows: Any, *, target: int | None = None) -> None:
    """The grants of a one-shot item's or an ability's rows: what its text does now."""
    me = game.players[player]
    wounded = any(s.wounds for s in me.survivors)
    ledger = game.ledger
    for row in rows:
        effect = row.effect
        if effect is Effect.FOOD:
            if row.condition is Condition.NO_WOUNDED_SURVIVORS and wounded:
                continue
            ledger.give(Grant("ChangeFood", player, row.amount, Cause.TEXT))
        elif effect is Effect.DRAW:
            ledger.give(Grant("Draw", player, None, Cause.TEXT), row.amount)
        elif effect is Effect.DISCARD:
            ledger.give(Grant("Discard", player, None, Cause.TEXT), row.amount)
        elif effect is Effect.HEAL and (wounded or target is not None):
            ledger.give(Grant("Heal", player, None, Cause.TEXT), max(1, row.amount))
        elif effect is Effect.CURE:
            ledger.give(Grant("Cure", None, target, Cause.TEXT))
        elif effect is Effect.WOUND:
            whom = None if row.target is Target.INFECTED_SURVIVOR else player
            ledger.give(Grant("Wound", whom, None, Cause.TEXT), max(1, row.amount))
        elif effect is Effect.SPEND:
            ledger.give(Grant("Spend", None, None, Cause.TEXT, player), row.amount)
