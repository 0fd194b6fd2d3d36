"""What each log line does to the table: the audit's reading of Lackey lines as moves of the
rules model (:mod:`zcards.game.table`).

The tracker reads each line the way the recording protocol defines it and hands that reading
to the rule areas as a :class:`~zcards.rules.context.Fact`. A card function is performed by
the card's controller (docs/log-protocol.md), so the actor tells whose card it is; the phase
tells what a spend means: a zombie player's spend in the Attack phase is a zombie that fought
(it must have been a ready one in his combat zone), anything else a spend of any ready card.
It checks nothing itself beyond warning about lines that fit no card on the table, and
readying the cards of a player whose ``Ready All`` is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Topic
from zcards.game.definition import (
    ATTACK_PHASE,
    BUILD_PHASE,
    DECK,
    DISCARD,
    HAND,
    READY_PHASE,
    REMOVED,
    ZOMBIE_GAME,
    Meaning,
)
from zcards.game.table import Item, Player, Survivor
from zcards.game.zombies import Fit, Zombies
from zcards.rules.context import (
    BLANK,
    Area,
    Context,
    Fact,
    Handler,
    PhaseBegun,
    PhaseEnded,
    is_action,
)

FOOD = "food"
_SPENT_FIT = {False: Fit.YES, None: Fit.MAYBE, True: Fit.NO}
_BY_VALUE: dict[str, Meaning] = {meaning.value: meaning for meaning in Meaning}
_BY_LABEL = ZOMBIE_GAME.meanings()


def meaning_of(event: ev.Perform | ev.PerformAll | ev.CounterChange) -> Meaning | None:
    """The line's Zombie CCG meaning: the one the parser's game definition gave it, else the
    one its label has in :data:`ZOMBIE_GAME` (events made in code)."""
    value = event.meaning if event.meaning is not None else _BY_LABEL.get(event.label)
    return _BY_VALUE.get(value) if value is not None else None


class Tracker(Area):
    """Applies each line to the table and says what it meant."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.readied: set[str] = set()  # players who readied their cards this Ready phase

    def handlers(self) -> Mapping[type, Handler]:
        return {PhaseBegun: self._phase_begun, PhaseEnded: self._phase_ended}

    def read(self, event: object) -> Fact:
        if is_action(event):
            me = self.edit(event.player)  # type: ignore[attr-defined]
            me.playing, me.acted = True, self.clock.number
        reader = _READERS.get(type(event))
        return reader(self, event) if reader is not None else BLANK

    def edit(self, name: str) -> Player:
        return self.ctx.table.edit(name)

    def _warn(self, message: str, player: str) -> None:
        self.findings.warn(Topic.TABLE, message, player=player)

    # -- seats, decks, hands ---------------------------------------------------------------

    def _seat(self, event: ev.Seat) -> Fact:
        table = self.ctx.table
        if event.action == "sit":
            me = self.edit(event.player)
            me.seat, me.playing, me.spectator = event.seat, True, False
        elif event.action == "spectate" and event.player not in table.players:
            self.edit(event.player).spectator = True
        return BLANK

    def _deck_load(self, event: ev.DeckLoad) -> Fact:
        me = self.edit(event.player)
        me.playing = True
        me.deck = self.ctx.decks.get(event.player)
        if me.known:
            me.hand = 0
            me.hand_names.clear()
        return Fact(owner=me)

    def _draw(self, event: ev.Draw) -> Fact:
        me = self.edit(event.player)
        me.to_hand(event.count, self.ctx.card_name(event))
        me.from_deck(event.count)
        return Fact(owner=me, name=self.ctx.card_name(event))

    def _move(self, event: ev.Move) -> Fact:
        source = self.edit(event.src_owner or event.player)
        target = self.edit(event.dst_owner or event.player)
        name = self.ctx.card_name(event)
        _leave_zone(source, event.src_zone, name)
        _enter_zone(target, event.dst_zone, name)
        if event.counts:
            if event.src_zone == DECK and DECK in event.counts:
                source.deck = event.counts[DECK]
            elif event.dst_zone == DECK and DECK in event.counts:
                target.deck = event.counts[DECK]
        return Fact(owner=source, name=name, info=self.ctx.cards.get(name))

    # -- cards onto and off the table -----------------------------------------------------

    def _play(self, event: ev.Play) -> Fact:
        me = self.edit(event.player)
        source = self.edit(event.src_owner or event.player)
        name = self.ctx.card_name(event)
        _leave_zone(source, event.src_zone, name)
        if event.counts and DECK in event.counts and event.src_zone == DECK:
            source.deck = event.counts[DECK]
        info = self.ctx.cards.get(name)
        if name is None:
            me.zombies = me.zombies.add_face_down()
        elif info is None:
            me.survivors.append(Survivor(name, known=False))
        elif info.type == "Survivor":
            me.survivors.append(Survivor(name))
        elif info.type == "Zombie":
            me.zombies = me.zombies.add_face_up(name)
        else:
            me.items.append(Item(name))
        return Fact(owner=me, name=name, info=info)

    def _table_to_zone(self, event: ev.TableToZone) -> Fact:
        name = self.ctx.card_name(event)
        _enter_zone(self.edit(event.dst_owner or event.player), event.dst_zone, name)
        actor = self.edit(event.player)
        if name is None:
            actor.zombies, fit = actor.zombies.remove_face_down()
            return Fact(owner=actor, what="zombie", fit=fit)
        owner = self.edit(self.ctx.table.owner_of(event.player, name))
        fact = Fact(owner=owner, name=name, info=self.ctx.cards.get(name))
        copies = owner.survivors_named(name)
        if copies:
            dead = [s for s in copies if s.dying is not None]
            fact.survivor = dead[0] if dead else min(copies, key=lambda s: s.wounds or 0)
            fact.what = "survivor"
            owner.survivors.remove(fact.survivor)
        elif items := owner.items_named(name):
            owner.items.remove(items[0])
            fact.what = "item"
        elif owner.zombies.has_named(name):
            owner.zombies, _ = owner.zombies.remove_named(name)
            fact.what = "zombie"
        elif not owner.known:
            fact.what, fact.fit = "unseen", Fit.MAYBE
        else:
            actor.zombies, fit = actor.zombies.remove_face_down()
            if not fit:
                fact.what, fact.fit = "unseen", Fit.NO
                self._warn(f"{name} leaves the table but was not seen on it", event.player)
        return fact

    def _card_action(self, event: ev.CardAction) -> Fact:
        name = self.ctx.card_name(event)
        if event.action == "take_control" and name is not None:
            return self._take_control(self.edit(event.player), name)
        return BLANK

    def _take_control(self, me: Player, name: str) -> Fact:
        """R11.3: the infecting player gains a dead infected survivor as a generic zombie."""
        holders = [
            (p.name, s)
            for p in self.ctx.table.players.values()
            if p is not me
            for s in p.survivors_named(name)
        ]
        if not holders:
            if all(p.known for p in self.ctx.table.players.values() if p is not me):
                self._warn(
                    f"{me.name} takes control of {name}, which is not a survivor of another player",
                    me.name,
                )
            me.zombies = me.zombies.add_face_up(name, generic=True)
            return Fact(meaning=Meaning.TAKE_CONTROL, owner=None, name=name, what="unseen")
        # the copy that died: one whose wounds reached its Health, else an infected one
        holder, _ = min(holders, key=lambda h: (h[1].dying is None, not h[1].infected))
        owner = self.edit(holder)
        candidates = owner.survivors_named(name)
        survivor = next(
            (s for s in candidates if s.dying is not None),
            next((s for s in candidates if s.infected), candidates[0]),
        )
        carrier = next((s for s in candidates if s.infected), None)
        if not survivor.infected and carrier is not None:
            # Which copy carried the token was a guess; the death tells (R11.3).
            survivor.infected, carrier.infected = True, False
        owner.survivors.remove(survivor)
        me.zombies = me.zombies.add_face_up(name, generic=True, spent=survivor.spent is True)
        return Fact(
            meaning=Meaning.TAKE_CONTROL,
            owner=owner,
            name=name,
            info=self.ctx.cards.get(name),
            what="survivor",
            survivor=survivor,
        )

    # -- card functions ----------------------------------------------------------------------

    def _perform(self, event: ev.Perform) -> Fact:
        meaning = meaning_of(event)
        me = self.edit(event.player)
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
                me.zombies, fact.fit = me.zombies.flip_up(name)
        elif meaning == Meaning.TAKE_CONTROL and name is not None:
            fact = self._take_control(me, name)
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
            owner = self.edit(self.ctx.table.owner_of(me.name, name))
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
            if items := owner.items_named(name):
                item = next((i for i in items if not i.spent), items[0])
                fact.what, fact.fit = "item", Fit.NO if item.spent else Fit.YES
                item.spent = True
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
        clock = self.clock

        def spend(combat: bool | None) -> tuple[Zombies, Fit]:
            if name is None:
                return me.zombies.spend_face_down(combat=combat)
            return me.zombies.spend_named(name, combat=combat)

        if clock.phase == ATTACK_PHASE and me.name != clock.active and me.lost is None:
            zombies, fact.attack_fit = spend(True)  # it fought: a ready zombie in combat
            if fact.attack_fit:
                me.zombies = zombies
                return fact
        me.zombies, fact.fit = spend(None)
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
            owner.items.append(Item(name, spent=True))
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
            me.zombies, fit = me.zombies.ready_face_down()
            return Fact(owner=me, what="zombie", fit=fit)
        owner = self.edit(self.ctx.table.owner_of(me.name, name))
        info = self.ctx.cards.get(name)
        survivor = owner.pick_survivor(name, ready=False)
        if survivor is not None:
            survivor.spent = False
            return Fact(owner=owner, name=name, info=info, what="survivor", survivor=survivor)
        if items := owner.items_named(name):
            next((i for i in items if i.spent), items[0]).spent = False
            return Fact(owner=owner, name=name, info=info, what="item")
        owner.zombies, fit = owner.zombies.ready_named(name)
        return Fact(owner=owner, name=name, info=info, what="zombie", fit=fit)

    def _face(self, event: ev.Face) -> Fact:
        me = self.edit(event.player)
        name = self.ctx.card_name(event)
        fact = Fact(meaning=Meaning.FLIP, owner=me, name=name, info=self.ctx.cards.get(name))
        if name is None:
            self.findings.warn(
                Topic.FLIP, "a face change of an unnamed card is not identified", player=me.name
            )
        elif event.face_up:
            me.zombies, fact.fit = me.zombies.flip_up(name)
        else:
            me.zombies, _ = me.zombies.turn_down(name)
            fact.meaning = None
        return fact

    # -- counters --------------------------------------------------------------------------

    def _counter(self, event: ev.CounterChange) -> Fact:
        meaning = meaning_of(event)
        me = self.edit(event.player)
        name = self.ctx.card_name(event)
        fact = Fact(meaning=meaning, owner=me, name=name, added=event.new - event.old)
        if meaning in (Meaning.TO_COMBAT, Meaning.LEAVE_COMBAT):
            to_combat = meaning == Meaning.TO_COMBAT
            fact.what = "zombie"
            if name is None or not me.zombies.has_named(name):
                me.zombies, fact.fit = me.zombies.move_face_down(to_combat=to_combat)
            else:
                me.zombies, fact.fit = me.zombies.move_named(name, to_combat=to_combat)
            fact.info = self.ctx.cards.get(name)
            return fact
        if name is None or meaning not in (
            Meaning.WOUND,
            Meaning.HEAL,
            Meaning.INFECT,
            Meaning.CURE,
        ):
            return fact
        counted = event.old if meaning in (Meaning.WOUND, Meaning.HEAL) else None
        owner = self.edit(self.ctx.table.owner_of(me.name, name, survivor_wounds=counted))
        fact.owner = owner
        fact.info = self.ctx.cards.get(name)
        if meaning in (Meaning.WOUND, Meaning.HEAL):
            infected = True if self.clock.phase == READY_PHASE else None
            survivor = owner.pick_survivor(name, wounds=event.old, infected=infected)
        else:
            survivor = owner.pick_survivor(name, infected=meaning == Meaning.CURE, recent=True)
        if survivor is None:
            if owner.zombies.has_named(name):
                return fact  # tokens of an ex-survivor: it loses them all (R11.3)
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
                health = self.ctx.powers().health(owner.name, survivor)
                if health is not None and event.new >= health.lo and survivor.dying is None:
                    survivor.dying = event.line or None
            elif survivor.dying is not None:
                health = self.ctx.powers().health(owner.name, survivor)
                if health is None or survivor.wounds < health.lo:
                    survivor.dying = None
        else:
            survivor.infected = event.new > 0
        return fact

    # -- stats -----------------------------------------------------------------------------

    def _stat(self, event: ev.StatChange) -> Fact:
        if event.stat.casefold() != FOOD or event.target is None:
            return BLANK
        me = self.edit(event.target)
        before = me.food
        me.food = event.new
        return Fact(owner=me, added=event.new - event.old, fit=_food_fit(before, event.old))

    def _spawn(self, event: ev.Spawn) -> Fact:
        self.findings.warn(
            Topic.SPAWN,
            "a spawned card is outside the rules; it is not tracked",
            player=event.player,
        )
        return BLANK

    def _perform_all(self, event: ev.PerformAll) -> Fact:
        """R4.1: ``Ready All`` readies his cards in the Ready phase; elsewhere the rules ready
        nothing (the Build rules ready what was spent and paid for nothing)."""
        me = self.edit(event.player)
        meaning = meaning_of(event)
        if meaning == Meaning.READY_ALL and self.clock.phase == READY_PHASE:
            me.ready_all()
            self.readied.add(me.name)
        return Fact(meaning=meaning, owner=me)

    # -- the Ready phase (R4.1): readying is assumed when the log is silent ------------------

    def _phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase == READY_PHASE:
            self.readied.clear()

    def _phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase != READY_PHASE:
            return
        for me in self.ctx.table.in_game():
            if me.name not in self.readied and me.has_spent_cards():
                self.findings.warn(
                    Topic.READY_ALL,
                    f"{me.name} did not ready his spent cards; assuming he did",
                    rule="R4.1",
                    player=me.name,
                )
                self.edit(me.name).ready_all()


_READERS: dict[type, Callable[[Tracker, Any], Fact]] = {
    ev.Seat: Tracker._seat,
    ev.DeckLoad: Tracker._deck_load,
    ev.Draw: Tracker._draw,
    ev.Move: Tracker._move,
    ev.Play: Tracker._play,
    ev.TableToZone: Tracker._table_to_zone,
    ev.Perform: Tracker._perform,
    ev.PerformAll: Tracker._perform_all,
    ev.CounterChange: Tracker._counter,
    ev.Face: Tracker._face,
    ev.CardAction: Tracker._card_action,
    ev.StatChange: Tracker._stat,
    ev.Spawn: Tracker._spawn,
}


def _food_fit(tracked: int | None, old: int) -> Fit:
    """Whether a food line starts from the tracked total (MAYBE: the total was unknown)."""
    if tracked is None:
        return Fit.MAYBE
    return Fit.YES if tracked == old else Fit.NO


def _leave_zone(me: Player, zone: str, name: str | None) -> None:
    if zone == HAND:
        me.from_hand(name)
    elif zone == DECK:
        me.from_deck()
    elif zone in (DISCARD, REMOVED):
        pile = me.discard if zone == DISCARD else me.removed
        if name in pile:
            pile.remove(name)


def _enter_zone(me: Player, zone: str, name: str | None) -> None:
    if zone == HAND:
        me.to_hand(1, name)
    elif zone == DECK and me.deck is not None:
        me.deck += 1
    elif zone == DISCARD and name:
        me.discard.append(name)
    elif zone == REMOVED and name:
        me.removed.append(name)
