"""Fights (R10): what one fight can end in, and whether fight results fit some assignment of
the attackers to fights. The one place that decides fights, for the simulator and the audit.

In a fight the side with the greater power wins, the zombies winning ties (R10.4). A
survivor who loses gets 1 wound plus 1 for each Fierce zombie, or is killed when the zombies
have at least double his power (R10.5); zombies that lose are spent (R10.6). Card text adds
to that: wounds of a Kamikaze Corpse or a Plague Carrier, zombies discarded instead of spent,
a survivor that cannot be overwhelmed or infected, survivors that may not fight a zombie.

:func:`outcomes` gives what one fight can end in from the powers' spans (exact for the
simulator, a set of possibilities for the audit). :func:`fits` answers the audit's question:
given the attackers and what the log showed of each survivor and zombie so far (or by the end
of the Attack phase), is there an assignment of the attackers to fights, one survivor and any
number of zombies each, whose outcomes give exactly that?
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import islice, product
from operator import sub
from typing import NamedTuple

from zcards.game.cards import CardInfo
from zcards.game.effects import Effect, Target, Timing
from zcards.game.power import EXACT_ZERO, Fight, Fighter, Powers, Span, hull
from zcards.game.rules import may_be_infected
from zcards.game.table import Survivor
from zcards.game.zombies import HIDDEN

MAX_GROUPS = 20_000  # groups tried in one question; past it the answer is "it fits"
QUICK_NODES = 32  # choices tried before the search looks for a survivor no group can satisfy


@dataclass(frozen=True)
class Outcomes:
    """What one fight can end in."""

    zombies: Span  # their total power
    survivor: Span  # his power
    win: bool  # the zombies can win
    lose: bool  # they can lose
    overwhelm: bool  # they can win by at least double: he is killed
    wound: bool  # they can win without killing him
    wounds: frozenset[int]  # wounds he then suffers (Fierce, Plague Carrier, Kamikaze Corpse)
    infect: bool  # an Infectious zombie can put an Infected token on him
    backlash: int  # wounds he suffers when they lose (Unstoppable Fury)


def keywords_of(powers: Powers, fighter: Fighter) -> frozenset[str]:
    """A fighter's keywords: printed on a face-up zombie, granted to ex-survivors by text."""
    if fighter.name == HIDDEN:
        return frozenset()
    info = powers.cards.get(fighter.name)
    own = info.keywords if info is not None and not fighter.generic else frozenset()
    if fighter.generic:
        owner = powers.table.players.get(fighter.controller)
        for name in owner.face_up_names() if owner is not None else ():
            card = powers.cards.get(name)
            for row in card.rows(Timing.STATIC, Effect.KEYWORD) if card is not None else ():
                if row.target is Target.YOUR_EX_SURVIVORS and row.keyword:
                    own = own | {row.keyword.casefold()}
    return own


def _info(powers: Powers, fighter: Fighter) -> CardInfo | None:
    return None if fighter.name == HIDDEN or fighter.generic else powers.cards.get(fighter.name)


def _can_wound(zombies: Span, survivor: Span, overwhelm: bool) -> bool:
    """Whether the zombies can win without killing: some power pair with S <= P (< 2S)."""
    if not overwhelm:
        return zombies.hi >= survivor.lo
    top = min(survivor.hi, survivor.lo + 64)
    return any(
        max(zombies.lo, s) <= min(zombies.hi, 2 * s - 1)
        for s in range(max(survivor.lo, 0), top + 1)
    ) or (survivor.hi > top and zombies.hi >= top)


def outcomes(fight: Fight, powers: Powers) -> Outcomes:
    """What ``fight`` can end in (R10.4-R10.7 and the fighters' text)."""
    zombies = Span(0, 0)
    for fighter in fight.zombies:
        zombies = zombies + powers.zombie(fighter, fight)
    traits = [_trait(powers, z, EXACT_ZERO, weak=False) for z in fight.zombies]
    return _judge(
        zombies,
        powers.survivor(fight),
        powers.cards.get(fight.survivor.name),
        fight.survivor.infected,
        _Sums(
            fierce=sum(t.fierce for t in traits),
            plague=sum(t.plague for t in traits),
            kamikaze=sum(t.kamikaze for t in traits),
            infectious=any(t.infectious for t in traits),
            backlash=sum(t.backlash for t in traits),
        ),
    )


class _Trait(NamedTuple):
    """What one zombie brings to any fight with one survivor, when no text in it reads the
    other zombies in the fight."""

    power: Span
    fierce: int
    plague: int  # wounds more on an infected survivor (Plague Carrier)
    kamikaze: int  # may discard itself for 2 more wounds (Kamikaze Corpse)
    infectious: bool
    backlash: int  # wounds the survivor when it loses (Unstoppable Fury)
    banned: bool  # may not fight this survivor (Red-Eyed Reaver)


class _Sums(NamedTuple):
    fierce: int
    plague: int
    kamikaze: int
    infectious: bool
    backlash: int


def _trait(powers: Powers, fighter: Fighter, power: Span, *, weak: bool) -> _Trait:
    info = _info(powers, fighter)
    keywords = keywords_of(powers, fighter)
    if info is None:
        return _Trait(power, int("fierce" in keywords), 0, 0, "infectious" in keywords, 0, False)
    return _Trait(
        power,
        fierce=int("fierce" in keywords),
        plague=int(_triggers(info, Timing.WINS_FIGHT, Target.INFECTED_DEFENDER)),
        kamikaze=int(_triggers(info, Timing.WINS_FIGHT, Target.DEFENDER)),
        infectious="infectious" in keywords,
        backlash=int(_triggers(info, Timing.LOSES_FIGHT, Target.DEFENDER)),
        banned=weak and info.has(Effect.NO_WEAK_DEFENDERS),
    )


def _judge(
    zombies: Span, survivor: Span, card: CardInfo | None, infected: bool | None, sums: _Sums
) -> Outcomes:
    """The outcomes of a fight of these powers and these zombies' traits."""
    no_overwhelm = card is not None and card.has(Effect.NO_OVERWHELM)
    win = zombies.hi >= survivor.lo
    overwhelm = win and not no_overwhelm and zombies.hi >= 2 * survivor.lo
    base = 1 + sums.fierce
    counts = {base + 2 * k for k in range(sums.kamikaze + 1)}
    if sums.plague and infected:
        counts = {c + sums.plague for c in counts}
    elif sums.plague and infected is None:
        counts |= {c + sums.plague for c in counts}
    return Outcomes(
        zombies=zombies,
        survivor=survivor,
        win=win,
        lose=zombies.lo < survivor.hi,
        overwhelm=overwhelm,
        wound=win and _can_wound(zombies, survivor, not no_overwhelm),
        wounds=frozenset(counts),
        infect=sums.infectious and infected is not True and may_be_infected(card),
        backlash=sums.backlash,
    )


@cache
def _triggers(info: CardInfo, timing: Timing, target: Target) -> bool:
    """Whether the card's text wounds ``target`` at ``timing`` (read once per card)."""
    return any(row.effect is Effect.WOUND and row.target is target for row in info.rows(timing))


def may_fight(fight: Fight, powers: Powers) -> bool:
    """Whether the rules let this fight happen at all: no zombie in it forbids a survivor of
    its power (Red-Eyed Reaver)."""
    for fighter in fight.zombies:
        info = _info(powers, fighter)
        weak = powers.survivor(Fight(fight.survivor, fight.defender, ())).hi <= 1
        if info is not None and info.has(Effect.NO_WEAK_DEFENDERS) and weak:
            return False
    return True


def discarded_instead(fight: Fight, fighter: Fighter, powers: Powers) -> bool:
    """Whether this zombie, losing this fight, is discarded instead of spent (its own text,
    or the text of an item that may be on the survivor)."""
    info = _info(powers, fighter)
    if info is not None and info.rows(Timing.LOSES_FIGHT, Effect.DISCARD_INSTEAD):
        return True
    if info is not None and info.rows(Timing.LOSES_FIGHT, Effect.DISCARD_ZOMBIE):
        return True
    defender = powers.table.players[fight.defender]
    for item in defender.items:
        card = powers.cards.get(item.name)
        rows = card.rows(effect=Effect.DISCARD_INSTEAD) if card is not None else []
        on_him = item.host in (None, fight.survivor.uid)
        if on_him and any(r.target is Target.FIGHTING_ZOMBIES for r in rows):
            return True
    return False


# -- the audit's question --------------------------------------------------------------------


@dataclass
class Seen:
    """What the log showed of one survivor in this Attack phase."""

    survivor: Survivor
    wounds_before: int | None  # at the start of the Attack phase
    health: Span | None  # None: unknown, or not asked (the log shows him no wound)
    wounds: int = 0
    killed: bool = False
    infected: bool = False

    @property
    def has_result(self) -> bool:
        return bool(self.wounds or self.killed or self.infected)


@dataclass
class Question:
    """Attackers and what the log showed so far. ``spent``: attackers of each class seen
    spent (they lost a fight); ``loose``: how many of those card text may have spent instead
    (Kyle Bjorn). A zombie card text spends is no longer attacking (R10.1): spent before any
    fight result (``early``), it fought nowhere; spent later, it may have won a fight before
    (or fought nowhere)."""

    defender: str
    attackers: Sequence[Fighter]
    seen: Sequence[Seen]
    spent: Counter[Fighter] = field(default_factory=Counter)
    loose: int = 0
    early: Counter[Fighter] = field(default_factory=Counter)


Group = tuple[int, ...]  # how many zombies of each class of attackers are in one fight


def fits(question: Question, powers: Powers, *, final: bool) -> bool:
    """Whether some assignment of the attackers to fights explains what the log showed: so
    far (the rest of the Attack phase may still add to it), or all of it (``final``)."""
    attackers = Counter(question.attackers)
    if any(n > attackers[f] for f, n in question.spent.items()):
        return False
    solver = _Solver(question, powers, final)
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

    def __init__(self, question: Question, powers: Powers, final: bool) -> None:
        self.question = question
        self.powers = powers
        self.final = final
        self.budget = MAX_GROUPS
        self.classes = tuple(sorted(set(question.attackers)))
        self._index = {f: i for i, f in enumerate(self.classes)}
        self._everyone = tuple(sorted(question.attackers))
        self._outcomes: dict[tuple[int, Group], Outcomes | None] = {}
        self._judged: dict[tuple[int, tuple[int, ...]], Outcomes] = {}
        self._gives: dict[tuple[int, Group], bool] = {}
        self._plain: dict[int, bool] = {}
        self._trait_of: dict[tuple[Fighter, Span, bool], _Trait] = {}
        self._traits: dict[int, tuple[_Trait, ...] | None] = {}
        self._bounds: dict[int, tuple[Span, ...]] = {}
        self._defence: dict[int, Span] = {}
        self._fight_free = not any(
            (info := _info(powers, f)) is not None and info.reads_fight for f in self.classes
        )
        self._backlash = tuple(_backlash(powers, f) for f in self.classes)

    def vector(self, counts: Counter[Fighter]) -> Group:
        """A count of each class (fighters not among the attackers are left out)."""
        return tuple(counts.get(f, 0) for f in self.classes)

    # -- one fight -------------------------------------------------------------------------

    def traits(self, index: int) -> tuple[_Trait, ...] | None:
        """Each class's traits against this survivor, when no text of theirs or his reads
        who else is in the fight (None: each fight has to be worked out whole)."""
        if index in self._traits:
            return self._traits[index]
        found: tuple[_Trait, ...] | None = None
        if self.plain(index):
            survivor, defender = self.question.seen[index].survivor, self.question.defender
            weak = self.powers.survivor(Fight(survivor, defender, ())).hi <= 1
            found = tuple(
                self._trait(f, self.powers.zombie(f, Fight(survivor, defender, (f,))), weak)
                for f in self.classes
            )
        self._traits[index] = found
        return found

    def _trait(self, fighter: Fighter, power: Span, weak: bool) -> _Trait:
        key = (fighter, power, weak)
        found = self._trait_of.get(key)
        if found is None:
            found = self._trait_of[key] = _trait(self.powers, fighter, power, weak=weak)
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
        traits = self.traits(index)
        seen = self.question.seen[index]
        found: Outcomes | None
        if traits is not None:
            found = self._sum(index, traits, group)
        else:
            zombies = tuple(f for f, n in zip(self.classes, group, strict=True) for _ in range(n))
            fight = Fight(seen.survivor, self.question.defender, zombies)
            found = outcomes(fight, self.powers) if may_fight(fight, self.powers) else None
        self._outcomes[key] = found
        return found

    def _sum(self, index: int, traits: tuple[_Trait, ...], group: Group) -> Outcomes | None:
        lo = hi = fierce = plague = kamikaze = backlash = 0
        infectious = False
        for trait, n in zip(traits, group, strict=True):
            if not n:
                continue
            if trait.banned:
                return None
            lo += trait.power.lo * n
            hi += trait.power.hi * n
            fierce += trait.fierce * n
            plague += trait.plague * n
            kamikaze += trait.kamikaze * n
            backlash += trait.backlash * n
            infectious = infectious or trait.infectious
        key = (index, (lo, hi, fierce, plague, kamikaze, infectious, backlash))
        found = self._judged.get(key)
        if found is None:
            seen = self.question.seen[index]
            found = self._judged[key] = _judge(
                Span(lo, hi),
                self.defence(index),
                self.powers.cards.get(seen.survivor.name),
                seen.survivor.infected,
                _Sums(fierce, plague, kamikaze, infectious, backlash),
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


def _backlash(powers: Powers, fighter: Fighter) -> bool:
    info = _info(powers, fighter)
    return info is not None and _triggers(info, Timing.LOSES_FIGHT, Target.DEFENDER)


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


# -- the simulator's fights --------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """How one fight the simulator plays ends."""

    zombies_win: bool
    killed: bool
    wounds: int  # before optional Kamikaze wounds
    kamikazes: tuple[Fighter, ...]  # zombies that may discard themselves for 2 more wounds
    infectious: bool
    losers_discarded: tuple[Fighter, ...]  # losing zombies discarded instead of spent
    backlash: int


def resolve(fight: Fight, powers: Powers) -> Resolution:
    """The one outcome a fight of known powers has."""
    result = outcomes(fight, powers)
    assert result.zombies.lo == result.zombies.hi and result.survivor.lo == result.survivor.hi
    win = result.zombies.lo >= result.survivor.lo
    kamikazes = tuple(
        z
        for z in fight.zombies
        if (i := _info(powers, z)) is not None and _triggers(i, Timing.WINS_FIGHT, Target.DEFENDER)
    )
    return Resolution(
        zombies_win=win,
        killed=win and result.overwhelm,
        wounds=min(result.wounds),
        kamikazes=kamikazes if win else (),
        infectious=win and result.infect,
        losers_discarded=()
        if win
        else tuple(z for z in fight.zombies if discarded_instead(fight, z, powers)),
        backlash=0 if win else result.backlash,
    )
