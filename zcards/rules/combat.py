"""Zombies in combat: the Attack phase (R10). Moving them there (R9.1):
:mod:`zcards.rules.combat_moves`.

Fights are table drags and are not logged. What the log shows is their outcome: a zombie
player spending one of his zombies (it lost a fight, R10.6), the active player wounding,
infecting or discarding his survivors (they lost, R10.5). Each such line is kept with what it
showed (:mod:`zcards.rules.attack`); when the Attack phase ends (or the log stops in it) the
rules model is asked whether some assignment of the attackers to fights gives all of it
(:func:`zcards.game.assignment.fits`), with every power and Health card text gives and every
reading of the hidden cards, and if none does, the first line no assignment explains is the
violation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping

from lackey_plugin.log import events as ev
from zcards.game.assignment import fits
from zcards.game.catalogue import Kind
from zcards.game.definition import ATTACK_PHASE, Meaning
from zcards.game.effects import Effect, Target
from zcards.game.fight_question import Moment, Question, Seen
from zcards.game.moments import Hull, same_powers
from zcards.game.power import Fighter, Powers, Span
from zcards.game.table import Table
from zcards.game.wording import FIGHT_OUTCOMES, FIGHTS
from zcards.game.zombies import Fit
from zcards.rules.attack import (
    MAX_COPY_READINGS,
    MAX_WOUND_READINGS,
    Attack,
    Defender,
    Mark,
    Result,
    fighter,
)
from zcards.rules.context import (
    Area,
    Context,
    Fact,
    GameEnded,
    Handler,
    PhaseBegun,
    PhaseEnded,
)

NO_MARK = Mark()  # a survivor the lines showed nothing for
NO_RESULT = Result()
MAX_RESULT_LINES = 256  # fight-result lines of one Attack phase kept to place a violation


class CombatRules(Area):
    """R10."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.attack = Attack()
        self.before: Table | None = None

    def handlers(self) -> Mapping[type, Handler]:
        return {
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
            GameEnded: self.on_game_ended,
            ev.Perform: self.on_perform,
            ev.CounterChange: self.on_counter,
            ev.TableToZone: self.on_leave_table,
            ev.CardAction: self.on_leave_table,
        }

    # -- the attackers (R10.1) -------------------------------------------------------------

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase != ATTACK_PHASE:
            return
        defender = self.table.players.get(self.clock.active or "")
        readings: list[tuple[Fighter, ...]] = [()]
        names: dict[str, frozenset[str]] = {}
        for player in self.table.zombie_players():
            if player.zombies.unknown:
                readings = []
                break
            options = {
                tuple(sorted(fighter(u.name, player.name, u.generic) for u in b.attackers()))
                for b in player.zombies.readings
            }
            readings = [r + o for r in readings for o in options]
            names[player.name] = frozenset(
                u.name for b in player.zombies.readings for u in b.attackers() if u.name
            )
        self.before = self.table.fork()  # powers as the phase began, for the fights' spans
        self.attack = Attack(
            defender=defender.name if defender is not None else None,
            readings=tuple(sorted(set(readings))) if readings else None,
            survivors=tuple(
                Defender(s.uid, s.name, s.wounds, s.infected) for s in defender.survivors
            )
            if defender is not None
            else (),
        )
        self.ctx.text.set_attackers(names)

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase == ATTACK_PHASE and self.clock.number >= 1 and self.clock.known:
            self._settle(final=True)

    def on_game_ended(self, _: GameEnded, __: Fact) -> None:
        """The log stops in the Attack phase (the game was decided): what it showed so far
        must fit some assignment."""
        if self.clock.phase == ATTACK_PHASE and self.clock.number >= 1 and self.clock.known:
            self._settle(final=False)

    # -- spends and arrivals ---------------------------------------------------------------

    def on_perform(self, event: ev.Perform, fact: Fact) -> None:
        """A zombie player's zombie spent in the Attack phase fought (or a card spent an
        attacking zombie): it must have been ready in his combat zone."""
        if fact.meaning == Meaning.TAKE_CONTROL:
            self.on_leave_table(event, fact)
            return
        if fact.meaning == Meaning.READY and fact.what == "zombie" and fact.owner is not None:
            self._arrival(fact.owner.name, fact)
            return
        self._fought(fact, Effect.SPEND, "spends")

    def _fought(self, fact: Fact, effect: Effect, verb: str) -> None:
        """A zombie player's zombie spent (or discarded, ``effect``) in the Attack phase lost
        a fight, or a card did it to an attacking zombie: it was a ready one in his combat
        zone."""
        if fact.attack_fit is None or fact.owner is None:
            return
        me, what = fact.owner, fact.name or "a face-down zombie"
        if fact.attack_fit:
            self._spent(fighter(fact.name, me.name, self._generic(me.name, fact.name)))
            if fact.attack_fit is Fit.SOME:
                self.findings.cannot_decide(
                    Kind.ILLEGAL_ATTACKER,
                    f"{me.name} {verb} {what} in the Attack phase; the log does not show "
                    "whether it was a ready zombie in his combat zone (a face-down card's "
                    "zone is hidden)",
                    player=me.name,
                )
            elif fact.attack_fit is Fit.MAYBE:
                self.findings.cannot_decide(
                    Kind.ILLEGAL_ATTACKER,
                    f"{me.name} {verb} {what} in the Attack phase; his combat zone is not "
                    "known from the start of the log",
                    player=me.name,
                )
        elif fact.fit:
            self.check(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} {verb} {what} in the Attack phase, but no such ready zombie is in "
                "his combat zone",
                effect,
                me.name,
                not_on=Target.ATTACKING_ZOMBIE,
                player=me.name,
            )
        else:
            self.findings.violation(
                Kind.ILLEGAL_ATTACKER,
                f"{me.name} {verb} {what} in the Attack phase, but every such zombie is "
                "already spent",
                player=me.name,
            )

    def _generic(self, owner: str, name: str | None) -> bool:
        player = self.table.players[owner]
        return name is not None and any(
            u.generic for b in player.zombies.readings for u in b.up if u.name == name
        )

    def _spent(self, fighter: Fighter) -> None:
        attack = self.attack
        spent = Counter(dict(attack.spent))
        spent[fighter] += 1
        early = Counter(dict(attack.early))
        if not (attack.results or attack.wounds):
            early[fighter] += 1
        self._shown(
            attack._replace(spent=tuple(sorted(spent.items())), early=tuple(sorted(early.items())))
        )

    def _arrival(self, owner: str, fact: Fact) -> None:
        """A zombie readied or moved into a combat zone mid-attack (card text) may fight too."""
        attack = self.attack
        if (
            self.clock.phase != ATTACK_PHASE
            or owner == self.clock.active
            or not fact.fit
            or attack.readings is None
        ):
            return
        arriving = fighter(fact.name, owner)
        readings = tuple(tuple(sorted((*r, arriving))) for r in attack.readings)
        self.attack = attack._replace(readings=readings)

    def on_counter(self, event: ev.CounterChange, fact: Fact) -> None:
        if fact.meaning == Meaning.TO_COMBAT:  # the move's own rule: zcards.rules.combat_moves
            if fact.owner is not None:
                self._arrival(fact.owner.name, fact)
            return
        if self.clock.phase != ATTACK_PHASE or fact.survivor is None or fact.owner is None:
            return
        if fact.meaning == Meaning.WOUND and fact.added > 0 and self._attacked(fact, "wounded"):
            name, uid = fact.survivor.name, fact.survivor.uid
            self._shown(self.attack.counted(name, event.old, event.new, uid))
        elif fact.meaning == Meaning.HEAL and fact.owner.name == self.clock.active:
            name, uid = fact.survivor.name, fact.survivor.uid
            self.attack = self.attack.counted(name, event.old, event.new, uid)
        elif fact.meaning == Meaning.INFECT and fact.added > 0 and self._attacked(fact, "infected"):
            self._record(fact.survivor.uid, infected=True)

    # -- fight results (R10.5-R10.8) ---------------------------------------------------------

    def on_leave_table(self, event: ev.Event, fact: Fact) -> None:
        if fact.what == "zombie" and fact.attack_fit is not None:  # lost, discarded by text
            self._fought(fact, Effect.DISCARD_ZOMBIE, "discards")
            return
        if self.clock.phase != ATTACK_PHASE or fact.survivor is None or fact.owner is None:
            return
        if fact.owner.name == self.clock.active:
            self._shown(self.attack.killed(fact.survivor.name, fact.survivor.uid))
        elif fact.survivor.dying is None:
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
            Effect.WOUND,
            owner.name,
            rule="R10.8",
            player=owner.name,
        )
        return False

    def _record(self, uid: int, *, infected: bool = False) -> None:
        now = self.attack.result(uid)
        self._shown(self.attack.with_result(uid, Result(now.infected or infected)))

    def _shown(self, attack: Attack) -> None:
        """A line showed a fight result: kept with the line, to be judged when the phase
        ends (and, if it cannot be explained then, to find the first line that could not).
        Past :data:`MAX_RESULT_LINES` in one phase the results still count but the lines are
        not kept: a violation past them is placed at the line ending the phase."""
        if len(attack.lines) >= MAX_RESULT_LINES:
            self.attack = attack
            return
        event = self.clock.event
        line, raw = (event.line, event.raw) if event is not None else (0, "")
        self.attack = attack._replace(lines=(*attack.lines, (line, raw, attack._replace(lines=()))))

    def _questions(self, attack: Attack, powers: Powers) -> Iterator[Question] | None:
        """The question for every reading of the attackers and of the wound lines, made as
        they are asked (None: too many readings to ask)."""
        readings = attack.readings_of_wounds()
        if readings is None:
            return None
        return self._each_question(attack, powers, readings)

    def _each_question(
        self, attack: Attack, powers: Powers, readings: list[dict[int, Mark]]
    ) -> Iterator[Question]:
        assert attack.defender is not None
        spent = Counter(dict(attack.spent))
        early = Counter(dict(attack.early))
        loose = self.ctx.text.count(Effect.SPEND, Target.ATTACKING_ZOMBIE)
        results = dict(attack.results)
        healths: dict[int, Span | None] = {}  # a survivor's Health, when a result needs it
        survivors = [(d, d.survivor(), results.get(d.uid, NO_RESULT)) for d in attack.survivors]
        for wounds in readings:
            seen = []
            for defender, survivor, result in survivors:
                mark = wounds.get(defender.uid, NO_MARK)
                health = None
                if mark.wounds or mark.killed:
                    if defender.uid not in healths:
                        healths[defender.uid] = powers.health(attack.defender, survivor)
                    health = healths[defender.uid]
                seen.append(
                    Seen(
                        survivor,
                        defender.wounds,
                        health,
                        mark.wounds,
                        mark.killed,
                        result.infected,
                    )
                )
            for attackers in attack.readings or ((),):
                yield Question(attack.defender, attackers, seen, spent, loose, early)

    def _explained(self, attack: Attack, moment: Moment, *, final: bool) -> bool:
        questions = self._questions(attack, moment.powers)
        return questions is None or any(fits(q, moment, final=final) for q in questions)

    def _settle(self, *, final: bool) -> None:
        """Whether some assignment of the attackers to fights gives what the log showed; if
        none does, the violation is at the first line no assignment explains (or, when each
        line could be explained as far as it went, at the line ending the phase)."""
        attack = self.attack
        self.attack = attack._replace(lines=())
        if attack.defender is None or not attack.lines:
            return
        if attack.readings is None:
            self.findings.cannot_decide(
                Kind.COMBAT_RESULT,
                "fight results in the Attack phase; the attackers are not known from the start "
                "of the log",
                player=attack.defender,
            )
            return
        if attack.readings_of_wounds() is None:
            self.findings.cannot_decide(
                Kind.COMBAT_RESULT,
                "fight results on copies of one survivor: the lines fall on the copies in more "
                f"ways than the audit follows ({MAX_COPY_READINGS} a card, "
                f"{MAX_WOUND_READINGS} in all)",
                player=attack.defender,
            )
            return
        powers = self.ctx.powers()
        if self.before is not None and not same_powers(self.ctx.cards, self.before, self.table):
            powers = Hull(powers, Powers(self.ctx.cards, self.before, powers.boosts))
        moment = Moment(powers)
        if self._explained(attack, moment, final=final):
            return
        line, text, shown = next(
            (
                (line, raw, state)
                for line, raw, state in attack.lines
                if not self._explained(state, moment, final=False)
            ),
            (None, None, attack),
        )
        message = self._message(shown, final=line is None)
        # a line no fight explains needs text that adds to results; results left incomplete
        # may also come from text that prevents them
        areas = FIGHTS if line is not None else FIGHT_OUTCOMES
        unmodelled = self.ctx.text.unmodelled(areas, phase=ATTACK_PHASE)
        if unmodelled:
            self.findings.cannot_decide(
                Kind.COMBAT_RESULT,
                f"{message}; card text of {', '.join(unmodelled)} may allow it",
                rule="R10.5",
                player=attack.defender,
                line=line,
            )
        else:
            self.findings.violation(
                Kind.COMBAT_RESULT,
                message,
                rule="R10.5",
                player=attack.defender,
                line=line,
                text=text,
                provisional=True,
            )

    def _message(self, attack: Attack, *, final: bool) -> str:
        shown = []
        for name, options in attack.wounds:
            marks = min(options)
            wounds = sum(m.wounds for m in marks)
            killed = sum(1 for m in marks if m.killed)
            shown.append(f"{name}: {wounds} wound(s)" + (f", {killed} killed" if killed else ""))
        names = {d.uid: d.name for d in attack.survivors}
        shown += [f"{names.get(uid, 'a survivor')} infected" for uid, _ in attack.results]
        attackers = sorted(
            {
                (f.name or "a face-down zombie") + f" ({f.controller})"
                for r in attack.readings or ()
                for f in r
            }
        )
        spent = [f"{f.name or 'a face-down zombie'} x{n}" for f, n in attack.spent]
        how = "no assignment of the attackers to fights gives" + (" all of" if final else "")
        return (
            f"{how} {'; '.join(shown) or 'these results'}"
            f"{' with ' + ', '.join(spent) + ' spent (lost)' if spent else ''}; "
            f"attackers: {', '.join(attackers) or 'none'}"
        )
