"""Food and the Recoup abilities: the food total (R1.8), Scavenger rolls (R12.2), Medic
heals and when the symbols may be used (R12.1, R12.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lackey_plugin.log import events as ev
from zcards.rules.cards import Effect
from zcards.rules.violations import Kind

if TYPE_CHECKING:
    from zcards.rules.engine import Engine

    _Base = Engine
else:
    _Base = object

FOOD = "food"


@dataclass
class Roll:
    """One d6 result and whether a Scavenger was spent for it in the Recoup phase."""

    player: str
    result: int
    line: int
    phase: str
    backed: bool
    used: bool = False

    @property
    def merit(self) -> tuple[bool, bool, bool]:
        """Which roll a food gain is best credited to: the most legal one."""
        return (self.result >= 2, self.backed, self.phase == "Recoup")


class RecoupRules(_Base):
    """Food bookkeeping and the Medic and Scavenger symbols."""

    def reset_abilities(self) -> None:
        self.ability_spends: list[tuple[str, frozenset[str]]] = []
        if self.state.phase != "Recoup":
            self.rolls: list[Roll] = []

    def _use_symbol(self, symbol: str, player: str | None = None) -> bool:
        for index, (owner, symbols) in enumerate(self.ability_spends):
            if symbol in symbols and (player is None or owner == player):
                del self.ability_spends[index]
                return True
        return False

    def _anyone_text(self) -> set[str]:
        names = set(self.played_this_turn)
        for player in self.state.players.values():
            names |= player.face_up_names()
        return names

    # -- food (R1.8) -----------------------------------------------------------------------

    def on_stat(self, event: ev.StatChange) -> None:
        if event.stat.casefold() != FOOD or event.target is None:
            return
        me = self.state.player(event.target)
        if me.food is not None and event.old != me.food:
            self.violation(
                Kind.FOOD_TOTAL,
                f"{me.name}'s food changes from {event.old}, but his food total is {me.food}",
                player=me.name,
            )
        if event.new < 0:
            self.warn("food", f"{me.name}'s food goes below 0", rule="R1.8", player=me.name)
        me.food = event.new
        delta = event.new - event.old
        self.note_food_change(me.name, delta)
        if delta > 0 and self.state.turn >= 1:
            for _ in range(delta):
                self._food_gain(me.name)

    def _food_gain(self, player: str) -> None:
        """R12.2: food is gained by a successful Scavenger roll (or card text)."""
        candidates = [roll for roll in self.rolls if roll.player == player and not roll.used]
        names = self._own_text(player)
        if not candidates:
            self.check_or_doubt(
                Kind.SCAVENGE_FOOD,
                f"{player} gains food without a successful Scavenger roll",
                names,
                Effect.FOOD,
                player=player,
            )
            return
        roll = max(candidates, key=lambda r: r.merit)
        roll.used = True
        if roll.result < 2:
            self.check_or_doubt(
                Kind.SCAVENGE_FOOD,
                f"{player}'s roll of {roll.result} (line "
                f"{roll.line}) is credited with food; only 2-6 succeeds",
                names,
                Effect.FOOD,
                player=player,
            )
        elif roll.phase != "Recoup":
            self.check_or_doubt(
                Kind.ABILITY_USE,
                f"{player} scavenges in the {roll.phase} "
                f"phase (roll on line {roll.line}); only in Recoup",
                names,
                Effect.FOOD,
                player=player,
            )
        elif not roll.backed:
            self.check_or_doubt(
                Kind.ABILITY_USE,
                f"{player}'s Scavenger roll (line "
                f"{roll.line}) was made without spending a ready Scavenger",
                names,
                Effect.FOOD,
                player=player,
            )

    # -- Scavenger and Medic (R12.1-R12.3) ---------------------------------------------------

    def on_dice(self, event: ev.DiceRoll) -> None:
        if event.sides != 6:
            return
        phase = self.state.phase
        for result in event.results:
            backed = phase == "Recoup" and self._use_symbol("Scavenger", event.player)
            self.rolls.append(Roll(event.player, result, event.line, phase, backed))

    def check_heal(self, player: str) -> None:
        """A wound was removed from one of ``player``'s survivors: a Medic's (or text's) doing."""
        names = self._anyone_text()
        if self.state.phase != "Recoup":
            self.check_or_doubt(
                Kind.ABILITY_USE,
                f"a wound is removed from {player}'s survivor "
                f"in the {self.state.phase} phase (Medic: only in Recoup)",
                names,
                Effect.HEAL,
                player=player,
            )
        elif not self._use_symbol("Medic"):
            self.check_or_doubt(
                Kind.ABILITY_USE,
                f"a wound is removed from {player}'s survivor without spending a ready Medic",
                names,
                Effect.HEAL,
                player=player,
            )
