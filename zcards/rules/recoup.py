"""The Recoup phase's symbols: Scavenger rolls and the food they give, what a roll of 1 owes
(R12.2), Medic heals and when the symbols may be used (R12.1, R12.3).

Food is gained only by a successful Scavenger roll or card text; a gain that gives back an
unexplained loss of the same phase is a misclick put right (:mod:`zcards.rules.food`).
A Medic may remove a wound only from a survivor whose text allows it (Ex-Con Dwayne's does
not): such a heal needs another explanation (Bandages, a First Aid Station).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import islice

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import DECK, RECOUP_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import (
    DIE_SIDES,
    MEDIC,
    MEDIC_TEXT_RULE,
    NO_SCAVENGING_RULE,
    SCAVENGER,
    medic_heal_fault,
    phase_allows_ability,
    scavenge_succeeds,
    scavenging_ban,
    scavenging_banned_by,
)
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded, TurnBegun

_SYMBOLS = (MEDIC, SCAVENGER)
ROLL_WINDOW = 64  # lines looked ahead for the roll a food gain was logged before


@dataclass(frozen=True)
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
        return (scavenge_succeeds(self.result), self.backed, self.phase == RECOUP_PHASE)


class RecoupRules(Area):
    """R12.1-R12.3."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.rolls: list[Roll] = []
        self.symbol_spends: list[tuple[str, frozenset[str]]] = []
        self.owed: dict[str, int] = {}  # top cards owed to a Scavenger roll of 1
        self.allowed: dict[str, int] = {}  # top cards any roll of 1 allows
        self.roll_line: dict[str, int] = {}
        self.early: dict[str, int] = {}  # food gains logged before their roll, by player

    def handlers(self) -> Mapping[type, Handler]:
        return {
            TurnBegun: self.on_turn_begun,
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
            ev.StatChange: self.on_stat,
            ev.DiceRoll: self.on_dice,
            ev.Perform: self.on_perform,
            ev.CounterChange: self.on_counter,
            ev.Play: self.on_play,
        }

    @property
    def in_turn(self) -> bool:
        return self.clock.number >= 1 and self.clock.known

    def on_turn_begun(self, _: TurnBegun, __: Fact) -> None:
        self.rolls.clear()

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        self.owed.clear()
        self.allowed.clear()
        self.early.clear()
        if signal.phase == RECOUP_PHASE:
            self.symbol_spends.clear()

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase != RECOUP_PHASE or not self.in_turn:
            return
        for name, owed in self.owed.items():
            me = self.table.players.get(name)
            if owed and me is not None and me.lost is None and me.deck != 0:
                self.findings.violation(
                    Kind.SCAVENGE_PENALTY,
                    f"{name} did not put the top card of his deck into his resource zone after "
                    f"the Scavenger roll of 1 (line {self.roll_line[name]})",
                    player=name,
                    provisional=True,
                )

    # -- food gained (R12.2) -----------------------------------------------------------------

    def on_stat(self, event: ev.StatChange, fact: Fact) -> None:
        gained = fact.added - fact.restores
        if fact.owner is not None and self.in_turn and gained > 0:
            self._food_gain(fact.owner.name, gained)

    def _food_gain(self, player: str, units: int) -> None:
        """R12.2: food is gained by a successful Scavenger roll (or card text); ``units`` at
        once, however many."""
        candidates = sorted(
            (i for i, roll in enumerate(self.rolls) if roll.player == player and not roll.used),
            key=lambda i: self.rolls[i].merit,
            reverse=True,
        )
        credited = candidates[:units]
        for index in credited:
            self.rolls[index] = replace(self.rolls[index], used=True)
            self._credited(player, self.rolls[index])
        missing = units - len(credited)
        while missing and self._roll_ahead(player):
            self.early[player] = self.early.get(player, 0) + 1
            missing -= 1
        if not missing:
            return
        self.check(
            Kind.SCAVENGE_FOOD,
            f"{player} gains food without a successful Scavenger roll",
            Effect.FOOD,
            player,
            gain=True,
            player=player,
        )

    def _roll_ahead(self, player: str) -> bool:
        """Whether a successful roll of ``player`` comes later in this phase that no gain
        logged before it has claimed yet (people click Food before the die, or in between)."""
        claimed = self.early.get(player, 0)
        for later in islice(self.ctx.upcoming(), ROLL_WINDOW):
            if isinstance(later, (ev.PhaseChange, ev.TurnChange)):
                return False
            if not isinstance(later, ev.DiceRoll) or later.player != player:
                continue
            if later.sides == DIE_SIDES:
                for result in later.results:
                    if scavenge_succeeds(result):
                        if not claimed:
                            return True
                        claimed -= 1
        return False

    def _credited(self, player: str, roll: Roll) -> None:
        if not scavenge_succeeds(roll.result):
            kind, message = (
                Kind.SCAVENGE_FOOD,
                f"{player}'s roll of {roll.result} (line {roll.line}) is credited with food; "
                "only 2-6 succeeds",
            )
        elif roll.phase != RECOUP_PHASE:
            kind, message = (
                Kind.ABILITY_USE,
                f"{player} scavenges in the {roll.phase} phase (roll on line {roll.line}); "
                "only in Recoup",
            )
        elif not roll.backed:
            kind, message = (
                Kind.ABILITY_USE,
                f"{player}'s Scavenger roll (line {roll.line}) was made without spending a "
                "ready Scavenger",
            )
        else:
            return
        self.check(kind, message, Effect.FOOD, player, gain=True, player=player)

    # -- the symbols (R12.1-R12.3) ---------------------------------------------------------

    def on_perform(self, event: ev.Perform, fact: Fact) -> None:
        survivor, info = fact.survivor, fact.info
        if fact.meaning == Meaning.READY and survivor is not None and fact.owner is not None:
            self._unspend(fact.owner.name, info)  # readied again: its symbol is not paid
            return
        if (
            fact.meaning == Meaning.SPEND
            and survivor is not None
            and fact.owner is not None
            and fact.fit
            and self.clock.phase == RECOUP_PHASE
            and info is not None
        ):
            symbols = frozenset(s for s in _SYMBOLS if info.has_symbol(s))
            if symbols:
                self.symbol_spends.append((fact.owner.name, symbols))

    def _unspend(self, owner: str, info: object) -> None:
        symbols = frozenset(
            s
            for s in _SYMBOLS
            if info is not None and info.has_symbol(s)  # type: ignore[attr-defined]
        )
        for index in range(len(self.symbol_spends) - 1, -1, -1):
            if self.symbol_spends[index] == (owner, symbols):
                del self.symbol_spends[index]
                return

    def _use_symbol(self, symbol: str, player: str | None = None) -> bool:
        for index, (owner, symbols) in enumerate(self.symbol_spends):
            if symbol in symbols and (player is None or owner == player):
                del self.symbol_spends[index]
                return True
        return False

    def on_dice(self, event: ev.DiceRoll, _: Fact) -> None:
        if event.sides != DIE_SIDES or not self.in_turn:
            return
        phase = self.clock.phase
        for result in event.results:
            backed = phase == RECOUP_PHASE and self._use_symbol(SCAVENGER, event.player)
            if backed:
                self._banned(event.player)
            roll = Roll(event.player, result, event.line, phase, backed)
            if scavenge_succeeds(result):
                if self.early.get(event.player):  # its food was logged before it
                    self.early[event.player] -= 1
                    roll = replace(roll, used=True)
                    self._credited(event.player, roll)
                self.rolls.append(roll)
                continue
            self.rolls.append(roll)
            for me in self.table.in_game():
                if me.name != event.player:
                    self.allowed[me.name] = self.allowed.get(me.name, 0) + 1
                    if backed:
                        self.owed[me.name] = self.owed.get(me.name, 0) + 1
                        self.roll_line[me.name] = event.line

    def _banned(self, player: str) -> None:
        """Card text may forbid attracting attention (Carrion Crows in a combat zone)."""
        banned, surely = scavenging_banned_by(self.table, self.ctx.cards)
        if banned is None:
            return
        message = f"{player}'s Scavenger attracts attention, but {scavenging_ban(banned)}"
        if surely:
            self.findings.violation(
                Kind.ABILITY_USE, message, rule=NO_SCAVENGING_RULE, player=player
            )
        else:
            self.findings.cannot_decide(
                Kind.ABILITY_USE,
                f"{message} in some reading of the table (a face-down card's zone is hidden)",
                rule=NO_SCAVENGING_RULE,
                player=player,
            )

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if (
            self.in_turn
            and fact.survivor is not None
            and fact.owner is not None
            and fact.meaning == Meaning.HEAL
        ):
            self._heal(fact.owner.name, fact.name)

    def _heal(self, owner: str, target: str | None) -> None:
        """A wound was removed from one of ``owner``'s survivors: a Medic's (or text's) doing;
        a Medic only where the survivor's text allows it (R12.3)."""
        phase = self.clock.phase
        info = self.ctx.cards.get(target)
        rule = "R12.1"
        if not phase_allows_ability(phase):
            message = (
                f"a wound is removed from {owner}'s survivor in the {phase} phase "
                "(Medic: only in Recoup)"
            )
        elif not self._use_symbol(MEDIC):
            message = f"a wound is removed from {owner}'s survivor without spending a ready Medic"
        elif (fault := medic_heal_fault(info)) is not None:
            message, rule = fault, MEDIC_TEXT_RULE
        else:
            return
        self.check(
            Kind.ABILITY_USE, message, Effect.HEAL, owner, card=target, rule=rule, player=owner
        )

    # -- a roll of 1 (R12.2) and cards from the deck (R6.3) ----------------------------------

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if not self.in_turn or fact.name is not None or event.src_zone != DECK:
            return
        me = event.player
        if self.owed.get(me):
            self.owed[me] -= 1
        if self.allowed.get(me):
            self.allowed[me] -= 1
            return
        self.check(
            Kind.DECK_TO_RESOURCE,
            f"{me} puts a face-down card from his deck onto the table; no Scavenger roll of 1 "
            "owed it",
            Effect.DECK_TO_RESOURCE,
            me,
            player=me,
        )
