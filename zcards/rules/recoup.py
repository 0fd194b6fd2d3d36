"""Food and the Recoup phase: the food total (R1.8), Scavenger rolls and what a roll of 1
owes (R12.2), Medic heals and when the symbols may be used (R12.1, R12.3), upkeep (R12.5).

A food line whose "from" value differs from the tracked total shows an unlogged change (an
undo, a revert, an edit): the total is resynchronised and the food rules of that player's
turn become unverifiable (R17.4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import DECK, RECOUP_PHASE, Meaning
from zcards.rules.cards import CardInfo
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded, TurnBegun
from zcards.rules.zombies import Fit

_SYMBOLS = ("Medic", "Scavenger")


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
        return (self.result >= 2, self.backed, self.phase == RECOUP_PHASE)


@dataclass
class Upkeep:
    """The active player's food and wounds since his food last changed (R12.5)."""

    line: int | None = None  # his upkeep food line
    survivors_at_mark: int = 0
    wounds_since_mark: int = 0


class RecoupRules(Area):
    """R1.8, R12.1-R12.3, R12.5."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.rolls: list[Roll] = []
        self.symbol_spends: list[tuple[str, frozenset[str]]] = []
        self.upkeep = Upkeep()
        self.owed: Counter[str] = Counter()  # top cards owed to a Scavenger roll of 1
        self.allowed: Counter[str] = Counter()  # top cards any roll of 1 allows
        self.roll_line: dict[str, int] = {}

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
        if signal.phase == RECOUP_PHASE:
            self.symbol_spends.clear()
            active = self.table.players.get(self.clock.active or "")
            self.upkeep = Upkeep(survivors_at_mark=active.known_survivors() if active else 0)

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase != RECOUP_PHASE or not self.in_turn:
            return
        self._check_upkeep()
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

    # -- food (R1.8, R12.2) ----------------------------------------------------------------

    def on_stat(self, event: ev.StatChange, fact: Fact) -> None:
        me = fact.owner
        if me is None:
            return
        if fact.fit is Fit.NO:
            reason = f"an unlogged change of {me.name}'s food before line {event.line}"
            self.findings.warn(
                Topic.RESYNC,
                f"{me.name}'s food changes from {event.old}, not from the tracked total: "
                "an unlogged change (undo, revert or edit); following the log",
                rule="R17.4",
                player=me.name,
            )
            self.findings.cannot_decide(
                Kind.FOOD_TOTAL,
                f"{me.name}'s food changes from {event.old}; {reason}",
                player=me.name,
            )
            self.findings.doubt((Kind.FOOD_UPKEEP, Kind.SCAVENGE_FOOD), me.name, reason)
        if event.new < 0:
            self.findings.warn(
                Topic.FOOD, f"{me.name}'s food goes below 0", rule="R1.8", player=me.name
            )
        if not self.in_turn:
            return
        if self.clock.phase == RECOUP_PHASE and me.name == self.clock.active:
            self.upkeep.survivors_at_mark = me.known_survivors()
            self.upkeep.wounds_since_mark = 0
            if fact.added == -1:
                self.upkeep.line = event.line
        if fact.added > 0:
            self._food_gain(me.name, fact.added)

    def _food_gain(self, player: str, units: int) -> None:
        """R12.2: food is gained by a successful Scavenger roll (or card text); ``units`` at
        once, however many."""
        candidates = sorted(
            (roll for roll in self.rolls if roll.player == player and not roll.used),
            key=lambda r: r.merit,
            reverse=True,
        )
        credited = candidates[:units]
        for roll in credited:
            roll.used = True
            self._credited(player, roll)
        if units > len(credited):
            self.check(
                Kind.SCAVENGE_FOOD,
                f"{player} gains food without a successful Scavenger roll",
                "food-gain",
                player,
                player=player,
            )

    def _credited(self, player: str, roll: Roll) -> None:
        if roll.result < 2:
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
        self.check(kind, message, "food-gain", player, player=player)

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

    def _unspend(self, owner: str, info: CardInfo | None) -> None:
        symbols = frozenset(s for s in _SYMBOLS if info is not None and info.has_symbol(s))
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
        if event.sides != 6 or not self.in_turn:
            return
        phase = self.clock.phase
        for result in event.results:
            backed = phase == RECOUP_PHASE and self._use_symbol("Scavenger", event.player)
            self.rolls.append(Roll(event.player, result, event.line, phase, backed))
            if result != 1:
                continue
            for me in self.table.in_game():
                if me.name != event.player:
                    self.allowed[me.name] += 1
                    if backed:
                        self.owed[me.name] += 1
                        self.roll_line[me.name] = event.line

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if not self.in_turn or fact.survivor is None or fact.owner is None:
            return
        owner = fact.owner.name
        if fact.meaning == Meaning.HEAL:
            self._heal(owner)
        elif (
            fact.meaning == Meaning.WOUND
            and self.clock.phase == RECOUP_PHASE
            and owner == self.clock.active
        ):
            self.upkeep.wounds_since_mark += max(0, fact.added)

    def _heal(self, owner: str) -> None:
        """A wound was removed from one of ``owner``'s survivors: a Medic's (or text's) doing."""
        phase = self.clock.phase
        if phase != RECOUP_PHASE:
            message = (
                f"a wound is removed from {owner}'s survivor in the {phase} phase "
                "(Medic: only in Recoup)"
            )
        elif not self._use_symbol("Medic"):
            message = f"a wound is removed from {owner}'s survivor without spending a ready Medic"
        else:
            return
        self.check(Kind.ABILITY_USE, message, "heal", owner, player=owner)

    # -- a roll of 1 (R12.2) and cards from the deck (R6.3) ----------------------------------

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if not self.in_turn or fact.name is not None or event.src_zone != DECK:
            return
        me = event.player
        if self.owed[me]:
            self.owed[me] -= 1
        if self.allowed[me]:
            self.allowed[me] -= 1
            return
        self.check(
            Kind.DECK_TO_RESOURCE,
            f"{me} puts a face-down card from his deck onto the table; no Scavenger roll of 1 "
            "owed it",
            "deck-to-resource",
            me,
            player=me,
        )

    # -- upkeep (R12.5) --------------------------------------------------------------------

    def _check_upkeep(self) -> None:
        me = self.table.players.get(self.clock.active or "")
        if me is None or me.lost is not None:
            return
        if me.food is None:
            self.findings.cannot_decide(
                Kind.FOOD_UPKEEP, "his food total is unknown", player=me.name
            )
            return
        if self.upkeep.line is None and me.food > 0:
            self.findings.violation(
                Kind.FOOD_UPKEEP,
                f"{me.name} did not pay upkeep: food stays {me.food} at the end of Recoup",
                player=me.name,
                provisional=True,
            )
            return
        needed = self.upkeep.survivors_at_mark - me.food
        got = self.upkeep.wounds_since_mark
        if needed <= got:
            return
        self.findings.violation(
            Kind.FOOD_UPKEEP,
            f"{me.name} has {self.upkeep.survivors_at_mark} survivors and {me.food} food: "
            f"{needed} starvation wounds due, {got} given",
            player=me.name,
            provisional=True,
        )
