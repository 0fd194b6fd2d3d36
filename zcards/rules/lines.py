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
from zcards.game.cards import CardInfo
from zcards.game.catalogue import Topic
from zcards.game.definition import (
    ATTACK_PHASE,
    DECK,
    DISCARD,
    HAND,
    READY_PHASE,
    REMOVED,
    Meaning,
)
from zcards.game.rules import discard_is_a_loss
from zcards.game.table import Item, Player, Survivor
from zcards.game.zombies import Fit
from zcards.rules.card_lines import CardLines
from zcards.rules.context import (
    ACTION_TYPES,
    BLANK,
    Context,
    Fact,
    Handler,
    PhaseBegun,
    PhaseEnded,
    meaning_of,
)

FOOD = "food"


class Tracker(CardLines):
    """Applies each line to the table and says what it meant (the card functions' lines as
    :class:`~zcards.rules.card_lines.CardLines` reads them)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.readied: set[str] = set()  # players who readied their cards this Ready phase

    def handlers(self) -> Mapping[type, Handler]:
        return {PhaseBegun: self._phase_begun, PhaseEnded: self._phase_ended}

    def read(self, event: object) -> Fact:
        kind = type(event)
        if kind in ACTION_TYPES:  # a game action of its actor (R14.2)
            ctx = self.ctx
            me = ctx.table.edit(event.player)  # type: ignore[attr-defined]
            me.playing, me.acted = True, ctx.clock.table.turn  # the clock's number
        reader = _READERS.get(kind)
        return reader(self, event) if reader is not None else BLANK

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
            fought = self._fought(actor, None, None)
            place = (True, False) if fought else None  # it fought: a ready one in combat
            actor.zombies, fit = actor.zombies.remove_face_down(place=place)
            return Fact(owner=actor, what="zombie", fit=fit, attack_fit=fought)
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
            fact.attack_fit = self._fought(owner, name, fact.info)
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

    def _fought(self, me: Player, name: str | None, info: CardInfo | None) -> Fit | None:
        """A zombie player's zombie leaving the table in the Attack phase lost a fight (R10.6,
        discarded by text): whether a ready one was in his combat zone (None: not a fight)."""
        clock = self.ctx.clock
        if clock.phase != ATTACK_PHASE or me.name == clock.active or me.lost is not None:
            return None
        if name is None:
            return me.zombies.spend_face_down(combat=True)[1]
        if not discard_is_a_loss(info):
            return None
        return me.zombies.spend_named(name, combat=True)[1]

    def _card_action(self, event: ev.CardAction) -> Fact:
        name = self.ctx.card_name(event)
        if event.action == "take_control" and name is not None:
            return self._take_control(self.edit(event.player), name)
        return BLANK

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
