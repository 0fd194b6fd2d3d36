"""Plugin card functions on the table: spend, ready, flip, counters and taking control.

A function is performed by the card's controller (docs/log-protocol.md), so the actor tells
whose card it is; the tracker hands each reading on as a :class:`Fact`. The phase tells what
a spend means: a zombie player's spend in the Attack phase is a zombie that fought (it must
have been a ready one in his combat zone), anything else a spend of any ready card.
"""

from __future__ import annotations

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Topic
from zcards.game.definition import ATTACK_PHASE, BUILD_PHASE, READY_PHASE, ZOMBIE_GAME, Meaning
from zcards.rules.context import Context, Fact
from zcards.rules.state import Player, Survivor
from zcards.rules.zombies import Fit

_SPENT_FIT = {False: Fit.YES, None: Fit.MAYBE, True: Fit.NO}


_BY_VALUE: dict[str, Meaning] = {meaning.value: meaning for meaning in Meaning}
_BY_LABEL = ZOMBIE_GAME.meanings()


def meaning_of(event: ev.Perform | ev.PerformAll | ev.CounterChange) -> Meaning | None:
    """The line's Zombie CCG meaning: the one the parser's game definition gave it, else the
    one its label has in :data:`ZOMBIE_GAME` (events made in code)."""
    value = event.meaning if event.meaning is not None else _BY_LABEL.get(event.label)
    return _BY_VALUE.get(value) if value is not None else None


class CardFunctions:
    """What each card function line does to the table."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.table = ctx.table
        self.clock = ctx.clock
        self.findings = ctx.findings

    def _warn(self, message: str, player: str) -> None:
        self.findings.warn(Topic.TABLE, message, player=player)

    def take_control(self, me: Player, name: str) -> Fact:
        """R11.3: the infecting player gains a dead infected survivor as a generic zombie."""
        holders = [
            p for p in self.table.players.values() if p is not me and p.survivors_named(name)
        ]
        if not holders:
            if all(p.known for p in self.table.players.values() if p is not me):
                self._warn(
                    f"{me.name} takes control of {name}, which is not a survivor of another player",
                    me.name,
                )
            me.zombies.add_face_up(name, generic=True)
            return Fact(meaning=Meaning.TAKE_CONTROL, owner=None, name=name, what="unseen")
        owner = holders[0]
        candidates = owner.survivors_named(name)
        survivor = next(
            (s for s in candidates if s.dead_line is not None),
            next((s for s in candidates if s.infected), candidates[0]),
        )
        carrier = next((s for s in candidates if s.infected), None)
        if not survivor.infected and carrier is not None:
            # Which copy carried the token was a guess; the death tells (R11.3).
            survivor.infected, carrier.infected = True, False
        owner.survivors.remove(survivor)
        me.zombies.add_face_up(name, generic=True)
        return Fact(
            meaning=Meaning.TAKE_CONTROL,
            owner=owner,
            name=name,
            info=self.ctx.cards.get(name),
            what="survivor",
            survivor=survivor,
        )

    def perform(self, event: ev.Perform) -> Fact:
        meaning = meaning_of(event)
        me = self.table.player(event.player)
        name = self.ctx.card_name(event)
        if meaning == Meaning.SPEND:
            fact = self._spend(me, name)
        elif meaning == Meaning.READY:
            fact = self._ready(me, name)
        elif meaning == Meaning.FLIP:
            fact = Fact(owner=me, name=name, info=self.ctx.cards.get(name), what="zombie")
            if name is None:
                self.findings.warn(
                    Topic.FLIP, "a card turned face down again is not identified", player=me.name
                )
            else:
                fact.fit = me.zombies.flip_up(name)
        elif meaning == Meaning.TAKE_CONTROL and name is not None:
            fact = self.take_control(me, name)
        else:
            fact = Fact(owner=me, name=name)
            if meaning is None:
                self.findings.warn(
                    Topic.FUNCTION, f"unknown card function {event.label!r}", player=me.name
                )
        fact.meaning = meaning
        return fact

    def _spend(self, me: Player, name: str | None) -> Fact:
        if name is not None:
            owner = self.table.owner_of(me.name, name)
            fact = Fact(owner=owner, name=name, info=self.ctx.cards.get(name))
            if owner.survivors_named(name) and not self._zombie_meant(owner, name):
                survivor = owner.pick_survivor(name, ready=True)
                assert survivor is not None
                fact.what, fact.survivor, fact.fit = (
                    "survivor",
                    survivor,
                    _SPENT_FIT[survivor.spent],
                )
                survivor.spent = True
                return fact
            if name in owner.items:
                fact.what = "item"
                return fact
            if not owner.zombies.has_named(name):
                if owner.known:
                    self._warn(f"{name} is spent but was not seen on the table", me.name)
                    fact.what, fact.fit = "unseen", Fit.NO
                    return fact
                return self._spend_unseen(owner, fact)
            me = owner
        else:
            fact = Fact(owner=me)
        fact.what = "zombie"
        zombies, clock = me.zombies, self.clock
        spend = (
            (lambda combat_only: zombies.spend_face_down(combat_only=combat_only))
            if name is None
            else (lambda combat_only: zombies.spend_named(name, combat_only=combat_only))
        )
        if clock.phase == ATTACK_PHASE and me.name != clock.active and me.lost is None:
            fact.attack_fit = spend(True)  # it fought: a ready zombie in his combat zone
            if fact.attack_fit:
                return fact
        fact.fit = spend(False)
        return fact

    def _spend_unseen(self, owner: Player, fact: Fact) -> Fact:
        """A card of a table the log did not show from the start is spent: it was there."""
        info, name = fact.info, fact.name or ""
        fact.fit = Fit.MAYBE
        if info is not None and info.type == "Survivor":
            fact.survivor = Survivor(name, wounds=None, infected=None, spent=True)
            owner.survivors.append(fact.survivor)
            fact.what = "survivor"
        elif info is not None and info.type == "Item":
            owner.items.append(name)
            fact.what = "item"
        else:
            fact.what = "unseen"
        return fact

    def _zombie_meant(self, owner: Player, name: str) -> bool:
        """A survivor and an ex-survivor zombie (R11.3) may share a name: a spend means the
        zombie when only it is ready, or when it is the one that can pay (Build) or fight."""
        zombie_ready = owner.zombies.any_board(
            lambda b: any(u.name == name and not u.spent for u in b.up)
        )
        if not zombie_ready:
            return False
        if not any(s.spent is not True for s in owner.survivors_named(name)):
            return True
        active = owner.name == self.clock.active
        return (self.clock.phase, active) in ((BUILD_PHASE, True), (ATTACK_PHASE, False))

    def _ready(self, me: Player, name: str | None) -> Fact:
        if name is None:
            return Fact(owner=me, what="zombie", fit=me.zombies.ready_face_down())
        owner = self.table.owner_of(me.name, name)
        survivor = owner.pick_survivor(name, ready=False)
        if survivor is not None:
            survivor.spent = False
            info = self.ctx.cards.get(name)
            return Fact(owner=owner, name=name, info=info, what="survivor", survivor=survivor)
        fit = owner.zombies.ready_named(name)
        return Fact(owner=owner, name=name, info=self.ctx.cards.get(name), what="zombie", fit=fit)

    def face(self, event: ev.Face) -> Fact:
        me = self.table.player(event.player)
        name = self.ctx.card_name(event)
        fact = Fact(meaning=Meaning.FLIP, owner=me, name=name, info=self.ctx.cards.get(name))
        if name is None:
            self.findings.warn(
                Topic.FLIP, "a face change of an unnamed card is not identified", player=me.name
            )
        elif event.face_up:
            fact.fit = me.zombies.flip_up(name)
        else:
            me.zombies.turn_down(name)
            fact.meaning = None
        return fact

    # -- counters --------------------------------------------------------------------------

    def counter(self, event: ev.CounterChange) -> Fact:
        meaning = meaning_of(event)
        me = self.table.player(event.player)
        name = self.ctx.card_name(event)
        fact = Fact(meaning=meaning, owner=me, name=name, added=event.new - event.old)
        if meaning in (Meaning.TO_COMBAT, Meaning.LEAVE_COMBAT):
            to_combat = meaning == Meaning.TO_COMBAT
            fact.what = "zombie"
            if name is None or not me.zombies.has_named(name):
                fact.fit = me.zombies.move_face_down(to_combat=to_combat)
            else:
                fact.fit = me.zombies.move_named(name, to_combat=to_combat)
            fact.info = self.ctx.cards.get(name)
            return fact
        if name is None or meaning not in (
            Meaning.WOUND,
            Meaning.HEAL,
            Meaning.INFECT,
            Meaning.CURE,
        ):
            return fact
        owner = fact.owner = self.table.owner_of(me.name, name)
        fact.info = self.ctx.cards.get(name)
        if meaning in (Meaning.WOUND, Meaning.HEAL):
            infected = True if self.clock.phase == READY_PHASE else None
            survivor = owner.pick_survivor(name, wounds=event.old, infected=infected)
        else:
            survivor = owner.pick_survivor(name, infected=meaning == Meaning.CURE, recent=True)
        if survivor is None:
            if owner.known:
                self._warn(f"{event.label} on {name}, which is not a survivor in play", me.name)
                return fact
            survivor = Survivor(name, wounds=None, infected=None, spent=None)
            owner.survivors.append(survivor)
        fact.what, fact.survivor = "survivor", survivor
        if meaning in (Meaning.WOUND, Meaning.HEAL):
            fact.fit = Fit.YES if survivor.wounds == event.old else Fit.MAYBE
            survivor.wounds = max(0, event.new)
            if meaning == Meaning.WOUND:
                survivor.touched = event.line
                health = fact.info.card.health if fact.info is not None else None
                if health is not None and event.new >= health and survivor.dead_line is None:
                    survivor.dead_line = event.line or None
        else:
            survivor.infected = event.new > 0
        return fact
