"""The audit's question about fights (R10.3, R10.8): given the attackers and what the log
showed of each survivor and zombie so far (or by the end of the Attack phase), is there an
assignment of the attackers to fights, one survivor and any number of zombies each, whose
outcomes (:func:`zcards.game.fights.outcomes`) give exactly that?

The search runs over *groups*: how many zombies of each class of attackers fight one
survivor. When no text of the fighters reads who else is in the fight, a fight's outcomes
follow from the sums of the zombies' traits, so a group is judged by adding numbers; the
disjoint choices of groups are tried with memory of what failed, a survivor that no group
could satisfy ending the search at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import islice, product
from operator import sub

from zcards.game.effects import Effect
from zcards.game.fight_question import Group, Moment, Question, Seen
from zcards.game.fights import (
    Outcomes,
    Sums,
    Trait,
    judge,
    may_fight,
    outcomes,
)
from zcards.game.power import Fight, Fighter, Powers, Span, hull

MAX_GROUPS = 20_000  # groups tried in one question; past it the answer is "it fits"
QUICK_NODES = 32  # choices tried before the search looks for a survivor no group can satisfy


def fits(question: Question, powers: Powers | Moment, *, final: bool) -> bool:
    """Whether some assignment of the attackers to fights explains what the log showed: so
    far (the rest of the Attack phase may still add to it), or all of it (``final``).
    Questions about one moment share its :class:`Moment`."""
    attackers = Counter(question.attackers)
    if any(n > attackers[f] for f, n in question.spent.items()):
        return False
    solver = _Solver(question, powers if isinstance(powers, Moment) else Moment(powers), final)
    pool, spent = solver.vector(attackers), solver.vector(question.spent)
    free = _minus(pool, spent)
    early = solver.vector(question.early)
    results = sorted(  # the survivors that need the most first
        (i for i, s in enumerate(question.seen) if s.has_result),
        key=lambda i: (not question.seen[i].killed, -question.seen[i].wounds),
    )
    quiet = [i for i, s in enumerate(question.seen) if not s.has_result]
    for freed in _freed(spent, question.loose):
        late = tuple(max(0, f - e) for f, e in zip(freed, early, strict=True))
        winners = tuple(a + b for a, b in zip(free, late, strict=True))
        if solver.winning(results, winners) and solver.losing(quiet, _minus(spent, freed)):
            return True
        if solver.budget < 0:
            return True  # too many to try: no conclusion, so no violation
    return False


class _Solver:
    """One question's search over groups (a count of each class of attackers). A fight's
    outcomes are worked out once per survivor and group; when no text in it reads who else
    is in the fight, from the sums of the zombies' traits. The disjoint choices of groups
    are tried with memory of what failed."""

    def __init__(self, question: Question, moment: Moment, final: bool) -> None:
        self.question = question
        self.moment = moment
        self.powers = moment.powers
        self.final = final
        self.budget = MAX_GROUPS
        self.classes = tuple(sorted(set(question.attackers)))
        self._index = {f: i for i, f in enumerate(self.classes)}
        self._everyone = tuple(sorted(question.attackers))
        self._outcomes: dict[tuple[int, Group], Outcomes | None] = {}  # asked in this search
        self._worked_out = moment.outcomes(question.defender, self.classes)
        self._judged: dict[tuple[int, tuple[int, ...]], Outcomes] = {}
        self._gives: dict[tuple[int, Group], bool] = {}
        self._plain: dict[int, bool] = {}
        self._traits: dict[int, tuple[Trait, ...] | None] = {}
        self._bounds: dict[int, tuple[Span, ...]] = {}
        self._defence: dict[int, Span] = {}
        self._fight_free = not any(moment.reads_fight(f) for f in self.classes)
        self._backlash = tuple(moment.backlash(f) for f in self.classes)

    def vector(self, counts: Counter[Fighter]) -> Group:
        """A count of each class (fighters not among the attackers are left out)."""
        return tuple(counts.get(f, 0) for f in self.classes)

    # -- one fight -------------------------------------------------------------------------

    def traits(self, index: int) -> tuple[Trait, ...] | None:
        """Each class's traits against this survivor, when no text of theirs or his reads
        who else is in the fight (None: each fight has to be worked out whole)."""
        if index in self._traits:
            return self._traits[index]
        found: tuple[Trait, ...] | None = None
        if self.plain(index):
            survivor, defender = self.question.seen[index].survivor, self.question.defender
            found = tuple(self.moment.trait(f, survivor, defender) for f in self.classes)
        self._traits[index] = found
        return found

    def plain(self, index: int) -> bool:
        """Whether no text of the attackers or of this survivor reads who else is in a fight
        with him."""
        found = self._plain.get(index)
        if found is None:
            card = self.powers.cards.get(self.question.seen[index].survivor.name)
            found = self._plain[index] = self._fight_free and not (
                card is not None and card.reads_fight
            )
        return found

    def outcome(self, index: int, group: Group) -> Outcomes | None:
        """What this group fighting this survivor can end in (None: the fight may not be)."""
        key = (index, group)
        if key in self._outcomes:
            return self._outcomes[key]
        self.budget -= 1
        survivor = self.question.seen[index].survivor
        fought = (survivor.uid, survivor.wounds, survivor.infected, group)
        if fought in self._worked_out:
            found = self._outcomes[key] = self._worked_out[fought]
            return found
        traits = self.traits(index)
        if traits is not None:
            found = self._sum(index, traits, group)
        else:
            zombies = tuple(f for f, n in zip(self.classes, group, strict=True) for _ in range(n))
            fight = Fight(survivor, self.question.defender, zombies)
            found = outcomes(fight, self.powers) if may_fight(fight, self.powers) else None
        self._outcomes[key] = self._worked_out[fought] = found
        return found

    def _sum(self, index: int, traits: tuple[Trait, ...], group: Group) -> Outcomes | None:
        lo = hi = fierce = plague = kamikaze = backlash = 0
        infectious = False
        for one, n in zip(traits, group, strict=True):
            if not n:
                continue
            if one.banned:
                return None
            lo += one.power.lo * n
            hi += one.power.hi * n
            fierce += one.fierce * n
            plague += one.plague * n
            kamikaze += one.kamikaze * n
            backlash += one.backlash * n
            infectious = infectious or one.infectious
        key = (index, (lo, hi, fierce, plague, kamikaze, infectious, backlash))
        found = self._judged.get(key)
        if found is None:
            seen = self.question.seen[index]
            found = self._judged[key] = judge(
                Span(lo, hi),
                self.defence(index),
                self.powers.cards.get(seen.survivor.name),
                seen.survivor.infected,
                Sums(fierce, plague, kamikaze, infectious, backlash),
            )
        return found

    def defence(self, index: int) -> Span:
        """The survivor's power in any fight (no zombie, or every attacker, bound it)."""
        found = self._defence.get(index)
        if found is None:
            survivor, defender = self.question.seen[index].survivor, self.question.defender
            found = self.powers.survivor(Fight(survivor, defender, ()))
            if not self.plain(index):
                crowd = self.powers.survivor(Fight(survivor, defender, self._everyone))
                found = hull(found, crowd)
            self._defence[index] = found
        return found

    def bounds(self, index: int) -> tuple[Span, ...]:
        """Each class's power against this survivor in any fight with him: between its
        power alone and with every attacker (each condition of card text grows or shrinks
        with the zombies in the fight)."""
        found = self._bounds.get(index)
        if found is None:
            survivor, defender = self.question.seen[index].survivor, self.question.defender
            crowd = Fight(survivor, defender, self._everyone)
            found = self._bounds[index] = tuple(
                hull(
                    self.powers.zombie(f, Fight(survivor, defender, (f,))),
                    self.powers.zombie(f, crowd),
                )
                for f in self.classes
            )
        return found

    def hopeless(self, index: int, group: Group, *, lose: bool) -> bool:
        """Whether even the bounds rule out this group's result, before the fight is worked
        out whole: a win (or, ``lose``, a defeat) it cannot have, or a wound when it surely
        overwhelms. Not asked when the sums decide the fight (they are as quick)."""
        if self.plain(index) or (index, group) in self._outcomes:
            return False
        if any(n and back for n, back in zip(group, self._backlash, strict=True)):
            return False
        lo = hi = 0
        for power, n in zip(self.bounds(index), group, strict=True):
            lo, hi = lo + power.lo * n, hi + power.hi * n
        survivor = self.defence(index)
        if lose:
            return lo >= survivor.hi
        if hi < survivor.lo:
            return True
        seen = self.question.seen[index]
        card = self.powers.cards.get(seen.survivor.name)
        sturdy = card is not None and card.has(Effect.NO_OVERWHELM)
        return lo >= 2 * survivor.hi and not seen.killed and not sturdy

    def gives(self, index: int, group: Group) -> bool:
        """Whether this group can give this survivor what the log showed."""
        key = (index, group)
        found = self._gives.get(key)
        if found is None:
            result = None if self.hopeless(index, group, lose=False) else self.outcome(index, group)
            found = self._gives[key] = result is not None and _matches(
                self.question.seen[index], result, self.final
            )
        return found

    def loses(self, index: int, group: Group) -> bool:
        """Whether this group can lose its fight against this survivor (and be spent)."""
        if self.hopeless(index, group, lose=True):
            return False
        result = self.outcome(index, group)
        return result is not None and result.lose and not result.backlash

    # -- every fight -----------------------------------------------------------------------

    def winning(self, results: list[int], pool: Group) -> bool:
        """Each survivor with a result gets a group of its own that gives it: first a short
        search (most logs fit the first assignment tried); if that does not settle it, each
        survivor on his own (one that no group could give ends the search at once), then
        the full search, remembering the remaining pools that failed."""
        failed: set[tuple[int, Group]] = set()
        nodes = [QUICK_NODES]

        def choose(step: int, left: Group) -> bool | None:
            if step == len(results):
                return True
            if (step, left) in failed:
                return False
            nodes[0] -= 1
            if nodes[0] < 0:
                return None
            index = results[step]
            for group in _groups(left):
                if self.budget < 0:
                    return True
                self.budget -= 1
                if self.gives(index, group):
                    found = choose(step + 1, _minus(left, group))
                    if found is not False:
                        return found
            failed.add((step, left))
            return False

        found = choose(0, pool)
        if found is not None:
            return found
        for index in results:
            if not any(self.gives(index, group) for group in _groups(pool)):
                return False
        nodes[0] = MAX_GROUPS
        return bool(choose(0, pool))

    def losing(self, quiet: list[int], losers: Group) -> bool:
        """The spent attackers lost their fights against survivors the log shows no result
        for, each survivor in one fight: first the quick way (the strongest survivors take
        the zombies one by one, as long as they still beat them), else every way."""
        if not any(losers):
            return True
        if self._greedily_lost(quiet, losers):
            return True
        failed: set[tuple[int, Group]] = set()

        def place(step: int, left: Group) -> bool:
            if not any(left):
                return True
            if step == len(quiet) or self.budget < 0:
                return self.budget < 0
            if (step, left) in failed:
                return False
            index = quiet[step]
            for group in (*_groups(left), None):
                self.budget -= 1
                if group is None:
                    if place(step + 1, left):
                        return True
                elif self.loses(index, group) and place(step + 1, _minus(left, group)):
                    return True
            failed.add((step, left))
            return False

        return place(0, losers)

    def _printed_power(self, index: int) -> int:
        """A survivor's printed power: the order the quick way tries them in."""
        card = self.powers.cards.get(self.question.seen[index].survivor.name)
        return card.power if card is not None else 0

    def _greedily_lost(self, quiet: list[int], losers: Group) -> bool:
        order = sorted(quiet, key=self._printed_power, reverse=True)
        fights = {index: (0,) * len(self.classes) for index in quiet}
        for c in reversed(range(len(self.classes))):
            for _ in range(losers[c]):
                for index in order:
                    group = tuple(n + (i == c) for i, n in enumerate(fights[index]))
                    if self.loses(index, group):
                        fights[index] = group
                        break
                else:
                    return False
        return True


def _minus(a: Group, b: Group) -> Group:
    return tuple(map(sub, a, b))


def _freed(spent: Group, loose: int) -> Iterable[Group]:
    """The spent attackers card text may have spent instead: every choice of up to ``loose``."""
    for take in product(*(range(min(n, loose) + 1) for n in spent)):
        if sum(take) <= loose:
            yield take


def _groups(pool: Group) -> Iterable[Group]:
    """Every non-empty group of zombies the pool can make."""
    return islice(product(*(range(n + 1) for n in pool)), 1, None)  # all but the empty one


def _matches(seen: Seen, result: Outcomes, final: bool) -> bool:
    """Whether a fight with these outcomes gives what the log showed of its survivor."""
    if seen.infected and not (result.infect and result.win):
        return False
    before = seen.wounds_before
    health = seen.health
    if seen.killed:
        if result.overwhelm:
            return True
        if health is None or before is None:
            return result.wound or (result.lose and result.backlash > 0)
        dying = [k for k in result.wounds if before + k >= health.lo]
        backlash = bool(result.backlash) and before + result.backlash >= health.lo
        return (result.wound and bool(dying)) or (result.lose and backlash)
    options = set(result.wounds) if result.wound else set()
    if result.lose and result.backlash:
        options.add(result.backlash)
    if not seen.wounds:
        return not final and bool(options)  # an infection before its fight's wounds
    if final:
        reached = health is not None and before is not None and before + seen.wounds >= health.lo
        return seen.wounds in options or (reached and any(k >= seen.wounds for k in options))
    return any(k >= seen.wounds for k in options)
