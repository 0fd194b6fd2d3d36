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
from itertools import product

from zcards.game.cards import CardInfo
from zcards.game.effects import Effect, Target, Timing
from zcards.game.power import Fight, Fighter, Powers, Span
from zcards.game.table import Survivor
from zcards.game.zombies import HIDDEN

MAX_GROUPS = 20_000  # groups tried in one question; past it the answer is "it fits"


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
    survivor = powers.survivor(fight)
    card = powers.cards.get(fight.survivor.name)
    infos = [_info(powers, z) for z in fight.zombies]
    no_overwhelm = card is not None and card.has(Effect.NO_OVERWHELM)
    win = zombies.hi >= survivor.lo
    overwhelm = win and not no_overwhelm and zombies.hi >= 2 * survivor.lo
    keywords = [keywords_of(powers, z) for z in fight.zombies]
    base = 1 + sum(1 for k in keywords if "fierce" in k)
    infected = fight.survivor.infected
    plague = sum(
        1
        for i in infos
        if i is not None and _triggers(i, Timing.WINS_FIGHT, Target.INFECTED_DEFENDER)
    )
    kamikaze = sum(
        1 for i in infos if i is not None and _triggers(i, Timing.WINS_FIGHT, Target.DEFENDER)
    )
    counts = {base + 2 * k for k in range(kamikaze + 1)}
    if plague and infected:
        counts = {c + plague for c in counts}
    elif plague and infected is None:
        counts |= {c + plague for c in counts}
    return Outcomes(
        zombies=zombies,
        survivor=survivor,
        win=win,
        lose=zombies.lo < survivor.hi,
        overwhelm=overwhelm,
        wound=win and _can_wound(zombies, survivor, not no_overwhelm),
        wounds=frozenset(counts),
        infect=any("infectious" in k for k in keywords)
        and infected is not True
        and not (card is not None and card.has(Effect.NO_INFECTION)),
        backlash=sum(
            1 for i in infos if i is not None and _triggers(i, Timing.LOSES_FIGHT, Target.DEFENDER)
        ),
    )


def _triggers(info: CardInfo, timing: Timing, target: Target) -> bool:
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
    health: Span | None
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


def fits(question: Question, powers: Powers, *, final: bool) -> bool:
    """Whether some assignment of the attackers to fights explains what the log showed: so
    far (the rest of the Attack phase may still add to it), or all of it (``final``)."""
    budget = [MAX_GROUPS]
    pool = Counter(question.attackers)
    spent = question.spent
    if any(spent[c] > pool[c] for c in spent):
        return False
    free = pool - spent
    losers = list(spent.elements())
    for freed in _freed(losers, question.loose):
        late = Counter(freed) - question.early
        winners = free + late
        rest = Counter(losers) - Counter(freed)
        results = [s for s in question.seen if s.has_result]
        quiet = [s for s in question.seen if not s.has_result]
        if _winning(question, results, winners, powers, final, budget) and _losing(
            question, quiet, list(rest.elements()), powers, budget
        ):
            return True
    return False


def _freed(losers: list[Fighter], loose: int) -> Iterable[tuple[Fighter, ...]]:
    """The spent attackers card text may have spent instead: every choice of up to ``loose``."""
    classes = sorted(set(losers))
    counts = Counter(losers)
    seen = set()
    for take in product(*(range(min(counts[c], loose) + 1) for c in classes)):
        if sum(take) <= loose:
            chosen = tuple(c for c, n in zip(classes, take, strict=True) for _ in range(n))
            if chosen not in seen:
                seen.add(chosen)
                yield chosen


def _groups(pool: Counter[Fighter]) -> Iterable[Counter[Fighter]]:
    """Every non-empty group of zombies the pool can make."""
    classes = sorted(pool)
    for take in product(*(range(pool[c] + 1) for c in classes)):
        if any(take):
            yield Counter({c: n for c, n in zip(classes, take, strict=True) if n})


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


def _winning(
    question: Question,
    results: list[Seen],
    pool: Counter[Fighter],
    powers: Powers,
    final: bool,
    budget: list[int],
) -> bool:
    """Each survivor with a result gets a group of its own that gives it."""
    if not results:
        return True
    first, rest = results[0], results[1:]
    for group in _groups(pool):
        budget[0] -= 1
        if budget[0] < 0:
            return True  # too many to try: no conclusion, so no violation
        fight = Fight(first.survivor, question.defender, tuple(sorted(group.elements())))
        if not may_fight(fight, powers) or not _matches(first, outcomes(fight, powers), final):
            continue
        if _winning(question, rest, pool - group, powers, final, budget):
            return True
    return False


def _losing(
    question: Question, quiet: list[Seen], losers: list[Fighter], powers: Powers, budget: list[int]
) -> bool:
    """The spent attackers lost their fights against survivors the log shows no result for."""
    if not losers:
        return True
    if not quiet:
        return False
    first, rest = quiet[0], quiet[1:]
    pool = Counter(losers)
    for group in (*_groups(pool), Counter()):
        budget[0] -= 1
        if budget[0] < 0:
            return True
        if group:
            fight = Fight(first.survivor, question.defender, tuple(sorted(group.elements())))
            result = outcomes(fight, powers)
            if not (may_fight(fight, powers) and result.lose and not result.backlash):
                continue
        if _losing(question, rest, list((pool - group).elements()), powers, budget):
            return True
    return False


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
