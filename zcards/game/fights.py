"""Fights (R10): what one fight can end in. The one place that decides fights, for the
simulator (:func:`resolve`) and the audit (:mod:`zcards.game.assignment` asks whether the
results a log shows fit some assignment of the attackers to fights).

In a fight the side with the greater power wins, the zombies winning ties (R10.4). A
survivor who loses gets 1 wound plus 1 for each Fierce zombie, or is killed when the zombies
have at least double his power (R10.5); zombies that lose are spent (R10.6). Card text adds
to that: wounds of a Kamikaze Corpse or a Plague Carrier, zombies discarded instead of spent,
a survivor that cannot be overwhelmed or infected, survivors that may not fight a zombie.

:func:`outcomes` gives what one fight can end in from the powers' spans (exact for the
simulator, a set of possibilities for the audit); :class:`Trait` is what one zombie brings to
a fight when no text in it reads the others, so a fight's outcomes are :func:`judge` of the
sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from zcards.game.cards import CardInfo
from zcards.game.effects import Effect, Target, Timing
from zcards.game.power import EXACT_ZERO, Fight, Fighter, Powers, Span
from zcards.game.rules import discards_itself_as_it_wins, may_be_infected
from zcards.game.zombies import HIDDEN


class Outcomes(NamedTuple):
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


def fighter_card(powers: Powers, fighter: Fighter) -> CardInfo | None:
    return None if fighter.name == HIDDEN or fighter.generic else powers.cards.get(fighter.name)


def _can_wound(zombies: Span, survivor: Span, overwhelm: bool) -> bool:
    """Whether the zombies can win without killing: some power pair with S <= P (< 2S).
    For a survivor's power S (up to 64 above his lowest) some P fits when S <= Z.hi,
    Z.lo <= 2S - 1 and 1 <= S: S in one range of integers."""
    if not overwhelm:
        return zombies.hi >= survivor.lo
    top = min(survivor.hi, survivor.lo + 64)
    low = max(survivor.lo, 1, (zombies.lo + 2) // 2)
    return (zombies.lo <= zombies.hi and low <= min(top, zombies.hi)) or (
        survivor.hi > top and zombies.hi >= top
    )


def outcomes(fight: Fight, powers: Powers) -> Outcomes:
    """What ``fight`` can end in (R10.4-R10.7 and the fighters' text)."""
    zombies = Span(0, 0)
    for fighter in fight.zombies:
        zombies = zombies + powers.zombie(fighter, fight)
    traits = [trait(powers, z, EXACT_ZERO, weak=False) for z in fight.zombies]
    return judge(
        zombies,
        powers.survivor(fight),
        powers.cards.get(fight.survivor.name),
        fight.survivor.infected,
        Sums(
            fierce=sum(t.fierce for t in traits),
            plague=sum(t.plague for t in traits),
            kamikaze=sum(t.kamikaze for t in traits),
            infectious=any(t.infectious for t in traits),
            backlash=sum(t.backlash for t in traits),
        ),
    )


class Trait(NamedTuple):
    """What one zombie brings to any fight with one survivor, when no text in it reads the
    other zombies in the fight."""

    power: Span
    fierce: int
    plague: int  # wounds more on an infected survivor (Plague Carrier)
    kamikaze: int  # may discard itself for 2 more wounds (Kamikaze Corpse)
    infectious: bool
    backlash: int  # wounds the survivor when it loses (Unstoppable Fury)
    banned: bool  # may not fight this survivor (Red-Eyed Reaver)


class Sums(NamedTuple):
    fierce: int
    plague: int
    kamikaze: int
    infectious: bool
    backlash: int


def trait(powers: Powers, fighter: Fighter, power: Span, *, weak: bool) -> Trait:
    info = fighter_card(powers, fighter)
    keywords = keywords_of(powers, fighter)
    if info is None:
        return Trait(power, int("fierce" in keywords), 0, 0, "infectious" in keywords, 0, False)
    return Trait(
        power,
        fierce=int("fierce" in keywords),
        plague=int(triggers(info, Timing.WINS_FIGHT, Target.INFECTED_DEFENDER)),
        kamikaze=int(discards_itself_as_it_wins(info)),
        infectious="infectious" in keywords,
        backlash=int(triggers(info, Timing.LOSES_FIGHT, Target.DEFENDER)),
        banned=weak and info.has(Effect.NO_WEAK_DEFENDERS),
    )


def judge(
    zombies: Span, survivor: Span, card: CardInfo | None, infected: bool | None, sums: Sums
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
def triggers(info: CardInfo, timing: Timing, target: Target) -> bool:
    """Whether the card's text wounds ``target`` at ``timing`` (read once per card)."""
    return any(row.effect is Effect.WOUND and row.target is target for row in info.rows(timing))


def may_fight(fight: Fight, powers: Powers) -> bool:
    """Whether the rules let this fight happen at all: no zombie in it forbids a survivor of
    its power (Red-Eyed Reaver)."""
    for fighter in fight.zombies:
        info = fighter_card(powers, fighter)
        if (
            info is not None
            and info.has(Effect.NO_WEAK_DEFENDERS)
            and powers.survivor(Fight(fight.survivor, fight.defender, ())).hi <= 1
        ):
            return False
    return True


def discarded_instead(fight: Fight, fighter: Fighter, powers: Powers) -> bool:
    """Whether this zombie, losing this fight, is discarded instead of spent (its own text,
    or the text of an item that may be on the survivor)."""
    info = fighter_card(powers, fighter)
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
        if (card := fighter_card(powers, z)) is not None and discards_itself_as_it_wins(card)
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
