"""Powers over a stretch of the game: fights are not logged, so one may have been fought at
any moment of the Attack phase, before the deaths and discards the log shows after it. A
:class:`Hull` gives every power and Health as a span covering the phase's start and its end;
:func:`same_powers` says when the two moments cannot differ, so one table stands for both.
"""

from __future__ import annotations

from zcards.game.cards import CardIndex
from zcards.game.effects import Condition, Effect
from zcards.game.power import Fight, Fighter, Powers, Span, hull
from zcards.game.table import Player, Survivor, Table


class Hull(Powers):
    """Power and Health at any moment between two tables (the Attack phase's start and now):
    fights are not logged, so one may have been fought before the deaths and discards the
    log shows after it. Each span covers both."""

    def __init__(self, now: Powers, then: Powers) -> None:
        super().__init__(now.cards, now.table, now.boosts)
        self.then = then

    def zombie(self, fighter: Fighter, fight: Fight) -> Span:
        return hull(super().zombie(fighter, fight), self.then.zombie(fighter, fight))

    def survivor(self, fight: Fight) -> Span:
        return hull(super().survivor(fight), self.then.survivor(fight))

    def health(self, owner: str, survivor: Survivor) -> Span | None:
        now, then = super().health(owner, survivor), self.then.health(owner, survivor)
        return None if now is None or then is None else hull(now, then)


def same_powers(cards: CardIndex, a: Table, b: Table) -> bool:
    """Whether every power and Health is the same on both tables: nothing :class:`Powers`
    reads differs (then one of them stands for any moment between them)."""
    if a.players.keys() != b.players.keys():
        return False
    changed = [name for name in a.players if a.players[name] is not b.players[name]]
    if not changed:
        return True
    names = {
        id(player): frozenset(player.face_up_names())
        for table in (a, b)
        for player in table.players.values()
    }
    conditions: set[Condition] = set()  # what the cards face up on either table read
    for found in set(names.values()):
        conditions |= cards.conditions_of(found)
    return all(
        _reads(a.players[name], cards, names, conditions)
        == _reads(b.players[name], cards, names, conditions)
        for name in changed
    )


def _reads(
    player: Player, cards: CardIndex, names: dict[int, frozenset[str]], conditions: set[Condition]
) -> list[object]:
    """What powers read of a player's part of the table, given the conditions of the cards
    in play: the rows his face-up cards apply to others and the keywords they grant, items
    and their hosts, zombie counts; food, survivors and discard pile only when a card reads
    them."""
    up = names[id(player)]
    reads: list[object] = [
        player.known,
        cards.table_rows_of(up),
        frozenset(n for n in up if (info := cards.get(n)) is not None and info.has(Effect.KEYWORD)),
        tuple((i.name, i.host) for i in player.items),
        player.zombies.unknown,
        frozenset(b.controlled for b in player.zombies.readings),
    ]
    if Condition.FOOD_BELOW_SURVIVORS in conditions:
        reads.append(player.food_now)
    if conditions & {Condition.FOOD_BELOW_SURVIVORS, Condition.SURVIVORS_AT_LEAST}:
        reads.append(len(player.survivors))
    if Condition.OTHER_SURVIVOR_READY in conditions:
        reads.append(tuple((s.uid, s.spent) for s in player.survivors))
    if Condition.ITEM_IN_DISCARD in conditions:
        reads.append(
            any((info := cards.get(n)) is not None and info.type == "Item" for n in player.discard)
        )
    return reads
