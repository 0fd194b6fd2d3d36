"""Zombies in combat: moving them there (R9.1) and the Attack phase (R10).

Fights are table drags and are not logged. What the log shows is their outcome: a zombie
player spending one of his zombies (it lost a fight, R10.6), the active player wounding or
discarding his survivors (they lost, R10.5). The checks bound what any assignment of the
attackers to fights can cause. Copies of one survivor are told apart by their wound counts
only, so which copy a line means is itself a reading: every consistent assignment of the
lines to copies is kept (a Fierce fight's two wounds are one fight, R17.5's copies rule).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import ATTACK_PHASE, RECOUP_PHASE, Meaning
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, is_game_action
from zcards.rules.functions import meaning_of
from zcards.rules.report import Immutable
from zcards.rules.state import Player
from zcards.rules.zombies import Board, Fit, Up

MAX_FIGHT_READINGS = 256


@dataclass(frozen=True, order=True)
class Copy(Immutable):
    """One copy of a survivor in one reading of the fights: its wounds (None: unknown) and
    the wounds it got in this Attack phase (0: it has not fought)."""

    wounds: int
    fought: int = 0
    unknown: bool = False

    def fits(self, wounds: int) -> bool:
        return self.unknown or self.wounds == wounds


Copies = tuple[tuple[str, tuple[Copy, ...]], ...]  # survivor name -> its copies, sorted


@dataclass(frozen=True)
class Reading(Immutable):
    """What the results so far need: power (fights being disjoint) and Fierce attackers."""

    needed: int
    extra: int
    copies: Copies

    def of(self, name: str) -> tuple[Copy, ...] | None:
        return next((c for n, c in self.copies if n == name), None)

    def with_copies(self, name: str, copies: Iterable[Copy], needed: int, extra: int) -> Reading:
        rest = tuple((n, c) for n, c in self.copies if n != name)
        return Reading(needed, extra, tuple(sorted((*rest, (name, tuple(sorted(copies)))))))


@dataclass
class Attack:
    """The bounds of this Attack phase: the most power and Fierce attackers any reading of
    the zombie players' cards can field (None: unseen cards may add to them)."""

    power: int | None = 0
    fierce: int | None = 0
    readings: set[Reading] = field(default_factory=lambda: {Reading(0, 0, ())})
    start: dict[str, tuple[Copy, ...]] = field(default_factory=dict)
    reported: set[str] = field(default_factory=set)


class CombatRules(Area):
    """R9.1 and R10."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.attack = Attack()

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseBegun: self.on_phase_begun,
            ev.Perform: self.on_perform,
            ev.CounterChange: self.on_counter,
            ev.TableToZone: self.on_leave_table,
            ev.CardAction: self.on_leave_table,
        }

    # -- the attackers (R10.1) -------------------------------------------------------------

    def _up_power(self, up: Up) -> int:
        info = None if up.generic else self.ctx.cards.get(up.name)
        return 1 if info is None else info.power

    def _is_fierce(self, up: Up) -> bool:
        info = None if up.generic else self.ctx.cards.get(up.name)
        return info is not None and info.has_keyword("Fierce")

    def _power(self, board: Board) -> int:
        return board.cr + sum(self._up_power(u) for u in board.up if u.combat and not u.spent)

    def _fierce(self, board: Board) -> int:
        return sum(1 for u in board.up if u.combat and not u.spent and self._is_fierce(u))

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase != ATTACK_PHASE:
            return
        attack = Attack()
        attackers: dict[str, set[str]] = {}
        for zombie_player in self.ctx.zombie_players():
            zombies = zombie_player.zombies
            power, fierce = zombies.max_of(self._power), zombies.max_of(self._fierce)
            attack.power = None if power is None or attack.power is None else attack.power + power
            attack.fierce = (
                None if fierce is None or attack.fierce is None else attack.fierce + fierce
            )
            attackers[zombie_player.name] = {
                u.name for b in zombies.readings for u in b.up if u.combat and not u.spent
            }
        active = self.table.players.get(self.clock.active or "")
        if active is not None:
            names = {s.name for s in active.survivors}
            for name in names:
                attack.start[name] = tuple(
                    sorted(
                        Copy(s.wounds or 0, unknown=s.wounds is None)
                        for s in active.survivors_named(name)
                    )
                )
        self.attack = attack
        self.ctx.text.set_attackers(attackers)

    def on_perform(self, event: ev.Perform, fact: Fact) -> None:
        """A zombie player's zombie spent in the Attack phase fought (or a card spent an
        attacking zombie): it must have been ready in his combat zone."""
        if fact.meaning == Meaning.TAKE_CONTROL:
            self.on_leave_table(event, fact)
            return
        if fact.meaning == Meaning.READY and fact.what == "zombie" and fact.owner is not None:
            self._arrival(fact.owner, fact)
            return
        if fact.attack_fit is None or fact.attack_fit is Fit.YES or fact.owner is None:
            return
        me, what = fact.owner, fact.name or "a face-down zombie"
        if fact.attack_fit is Fit.SOME:
            self.findings.cannot_decide(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack phase; the log does not show whether "
                "it was a ready zombie in his combat zone (a face-down card's zone is hidden)",
                player=me.name,
            )
        elif fact.attack_fit is Fit.MAYBE:
            self.findings.cannot_decide(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack phase; his combat zone is not known "
                "from the start of the log",
                player=me.name,
            )
        elif fact.fit:
            self.check(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack phase, but no such ready zombie is in "
                "his combat zone",
                "spend-zombie",
                me.name,
                player=me.name,
            )
        else:
            self.findings.violation(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} spends {what} in the Attack phase, but every such zombie is "
                "already spent",
                player=me.name,
            )

    def _arrival(self, me: Player, fact: Fact) -> None:
        """A zombie readied or moved into a combat zone mid-attack (card text) may fight too."""
        if self.clock.phase != ATTACK_PHASE or me.name == self.clock.active or not fact.fit:
            return
        up = Up(fact.name or "", True, False, generic=fact.name is None)
        if self.attack.power is not None:
            self.attack.power += self._up_power(up)
        if self.attack.fierce is not None:
            self.attack.fierce += int(self._is_fierce(up))

    # -- moving to combat (R9.1) -----------------------------------------------------------

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if fact.meaning == Meaning.TO_COMBAT:
            self._to_combat(event, fact)
            if fact.owner is not None:
                self._arrival(fact.owner, fact)
            return
        if self.clock.phase != ATTACK_PHASE or fact.survivor is None or fact.owner is None:
            return
        if fact.meaning == Meaning.WOUND and fact.added > 0:
            if self._attacked(fact, "wounded"):
                self._wound(fact.survivor.name, event.old, event.new, fact)
        elif fact.meaning == Meaning.HEAL and fact.owner.name == self.clock.active:
            self._heal(fact.survivor.name, event.old, event.new)

    def _to_combat(self, event: ev.CounterChange, fact: Fact) -> None:
        clock, me = self.clock, event.player
        if clock.number < 1 or not clock.known:
            return
        if clock.phase != RECOUP_PHASE or me != clock.active:
            reason = "outside the Recoup phase of his own turn"
        elif not self._spent_next_to(event):
            reason = "without spending it"
        else:
            return
        self.check(
            Kind.COMBAT_MOVE,
            f"{me} moves {fact.name or 'a face-down zombie'} to his combat zone {reason}",
            "to-combat",
            me,
            card=fact.name,
            player=me,
        )

    def _spent_next_to(self, event: ev.CounterChange) -> bool:
        """The spend may be the game action just before or just after the To Combat line."""
        after = next((e for e in self.ctx.upcoming() if is_game_action(e)), None)
        return any(
            isinstance(other, ev.Perform)
            and other.player == event.player
            and other.hidden == event.hidden
            and (event.hidden or other.card == event.card)
            and meaning_of(other) == Meaning.SPEND
            for other in (self.ctx.previous, after)
        )

    # -- fight results (R10.5, R10.8) ------------------------------------------------------

    def on_leave_table(self, event: ev.Event, fact: Fact) -> None:
        if self.clock.phase != ATTACK_PHASE or fact.survivor is None or fact.owner is None:
            return
        if fact.owner.name == self.clock.active:
            self._kill(fact.survivor.name, fact)
        elif fact.survivor.dead_line is None:
            self._attacked(fact, "killed")

    def _attacked(self, fact: Fact, what: str) -> bool:
        """Only the active player's survivors are attacked (R10.8)."""
        owner, survivor = fact.owner, fact.survivor
        assert owner is not None and survivor is not None
        if owner.name == self.clock.active:
            return True
        self.check(
            Kind.COMBAT_RESULT,
            f"{survivor.name} of {owner.name} is {what} in the Attack phase, but only "
            f"{self.clock.active}'s survivors are attacked",
            ("wound", "power"),
            owner.name,
            rule="R10.8",
            player=owner.name,
        )
        return False

    def _copies(self, reading: Reading, name: str) -> tuple[Copy, ...]:
        found = reading.of(name)
        return found if found is not None else self.attack.start.get(name, ())

    def _update(
        self, name: str, step: Callable[[Reading, tuple[Copy, ...]], list[Reading]]
    ) -> None:
        out: set[Reading] = set()
        for reading in self.attack.readings:
            out.update(step(reading, self._copies(reading, name)))
        self.attack.readings = _pareto(out) if out else self.attack.readings

    def _wound(self, name: str, old: int, new: int, fact: Fact) -> None:
        power = self._survivor_power(fact)
        added = new - old

        def step(reading: Reading, copies: tuple[Copy, ...]) -> list[Reading]:
            out = []
            pool = copies or (Copy(old, unknown=True),)
            matching = [i for i, c in enumerate(pool) if c.fits(old)] or list(range(len(pool)))
            for i in matching:
                copy = pool[i]
                needed, extra = reading.needed, reading.extra
                if copy.fought == 0:
                    needed, extra = needed + (power or 0), extra + added - 1
                else:
                    extra += added
                rest = [*pool[:i], Copy(new, copy.fought + added), *pool[i + 1 :]]
                out.append(reading.with_copies(name, rest, needed, extra))
            return out

        self._update(name, step)
        self._judge(fact, power, killed=False)

    def _heal(self, name: str, old: int, new: int) -> None:
        def step(reading: Reading, copies: tuple[Copy, ...]) -> list[Reading]:
            matching = [i for i, c in enumerate(copies) if c.fits(old)]
            return [
                reading.with_copies(
                    name,
                    [*copies[:i], Copy(new, copies[i].fought), *copies[i + 1 :]],
                    reading.needed,
                    reading.extra,
                )
                for i in matching
            ] or [reading]

        self._update(name, step)

    def _kill(self, name: str, fact: Fact) -> None:
        """A survivor left play in the Attack phase: dead by its wounds, or overwhelmed."""
        power = self._survivor_power(fact)
        health = fact.info.card.health if fact.info is not None else None

        def step(reading: Reading, copies: tuple[Copy, ...]) -> list[Reading]:
            out = []
            for i, copy in enumerate(copies):
                rest = [*copies[:i], *copies[i + 1 :]]
                dead = copy.unknown or health is None or copy.wounds >= health
                if dead:
                    out.append(reading.with_copies(name, rest, reading.needed, reading.extra))
                cost = (power or 0) * (2 if copy.fought == 0 else 1)
                out.append(reading.with_copies(name, rest, reading.needed + cost, reading.extra))
            return out or [reading]

        self._update(name, step)
        self._judge(fact, power, killed=True)

    def _survivor_power(self, fact: Fact) -> int | None:
        info = fact.info
        return None if info is None or info.card.power is None else info.power

    def _judge(self, fact: Fact, power: int | None, *, killed: bool) -> None:
        attack, player, name = self.attack, self.clock.active, fact.name or "a survivor"
        if power is None:
            self.findings.cannot_decide(
                Kind.COMBAT_RESULT, f"{name} has no power in the card data", player=player
            )
            return
        if attack.power is None or attack.fierce is None:
            self.findings.cannot_decide(
                Kind.COMBAT_RESULT,
                f"{name} is {'killed' if killed else 'wounded'}; the attackers are not known "
                "from the start of the log",
                player=player,
            )
            return
        fits = [r for r in attack.readings if r.needed <= attack.power]
        if fits and any(r.extra <= attack.fierce for r in fits):
            return
        result = (
            f"killing {name} (power {power}) needs {2 * power}"
            if killed
            else (f"wounding {name} (power {power}) needs {power}")
        )
        if not fits:
            if "power" in attack.reported:
                return
            attack.reported.add("power")
            least = min(r.needed for r in attack.readings)
            message = (
                f"{result}; the attackers have at most {attack.power} power for {least} "
                "needed in all"
            )
            events: tuple[str, ...] = ("power", "wound")
        else:
            if "fierce" in attack.reported:
                return
            attack.reported.add("fierce")
            least = min(r.extra for r in fits)
            message = (
                f"{name} gets more than one wound in a fight: {least} extra wounds need as "
                f"many Fierce attackers, there are at most {attack.fierce}"
            )
            events = ("wound",)
        self.check(Kind.COMBAT_RESULT, message, events, player, rule="R10.5", player=player)


def _pareto(readings: set[Reading]) -> set[Reading]:
    """Drop readings another reading with the same copies beats in both power and Fierce."""
    best: dict[Copies, list[Reading]] = {}
    for reading in sorted(readings, key=lambda r: (r.needed, r.extra)):
        kept = best.setdefault(reading.copies, [])
        if not any(k.needed <= reading.needed and k.extra <= reading.extra for k in kept):
            kept.append(reading)
    out = {r for kept in best.values() for r in kept}
    if len(out) > MAX_FIGHT_READINGS:  # keep the most lenient ones: only completeness suffers
        out = set(sorted(out, key=lambda r: (r.needed, r.extra))[:MAX_FIGHT_READINGS])
    return out
