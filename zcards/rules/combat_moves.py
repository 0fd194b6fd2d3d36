"""Moving zombies to the combat zone (R9.1): in the Recoup phase of his own turn a player
spends ready zombies and moves them to his combat zone.

The spend and the move are one action in the rules but two lines in the log, and people click
them in either order with other lines between (a food fix, a misclick put right). So a move is
matched with a spend of the same card (or of a face-down card for a face-down one) made
earlier in the same Recoup and not yet matched, or with the spend that is the next game
action; a spend taken back by a Ready no longer counts (its net effect is nothing).
"""

from __future__ import annotations

from collections.abc import Mapping

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import RECOUP_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.rules.context import (
    Area,
    Context,
    Fact,
    Handler,
    PhaseBegun,
    is_game_action,
    meaning_of,
)

Key = tuple[bool, str]  # hidden, and the card's name when it is not


def _key(event: ev.Perform | ev.CounterChange) -> Key:
    return (event.hidden, "" if event.hidden else event.card)


class CombatMoveRules(Area):
    """R9.1."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.spends: dict[Key, int] = {}  # the active player's spends of this Recoup, unmoved
        self.owed: dict[Key, int] = {}  # moves made before their spend (the next line)

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseBegun: self.on_phase_begun,
            ev.Perform: self.on_perform,
            ev.CounterChange: self.on_counter,
        }

    def on_phase_begun(self, _: PhaseBegun, __: Fact) -> None:
        if self.spends or self.owed:
            self.spends, self.owed = {}, {}

    def on_perform(self, event: ev.Perform, fact: Fact) -> None:
        clock = self.clock
        if clock.phase != RECOUP_PHASE or event.player != clock.active:
            return
        key = _key(event)
        if fact.meaning == Meaning.SPEND:
            if self.owed.get(key):
                self.owed[key] -= 1
            else:
                self.spends[key] = self.spends.get(key, 0) + 1
        elif fact.meaning == Meaning.READY and self.spends.get(key):
            self.spends[key] -= 1

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if fact.meaning != Meaning.TO_COMBAT:
            return
        clock, me = self.clock, event.player
        if clock.number < 1 or not clock.known:
            return
        key = _key(event)
        if clock.phase != RECOUP_PHASE or me != clock.active:
            reason = "outside the Recoup phase of his own turn"
        elif self.spends.get(key):
            self.spends[key] -= 1
            return
        elif self._spent_next(event):
            self.owed[key] = self.owed.get(key, 0) + 1
            return
        else:
            reason = "without spending it"
        self.check(
            Kind.COMBAT_MOVE,
            f"{me} moves {fact.name or 'a face-down zombie'} to his combat zone {reason}",
            Effect.TO_COMBAT,
            me,
            card=fact.name,
            player=me,
        )

    def _spent_next(self, event: ev.CounterChange) -> bool:
        """Whether the next game action is his spend of that card."""
        after = next((e for e in self.ctx.upcoming() if is_game_action(e)), None)
        return (
            isinstance(after, ev.Perform)
            and after.player == event.player
            and _key(after) == _key(event)
            and meaning_of(after) == Meaning.SPEND
        )
