"""What the card-function lines do to the table: spends and readies (of which card, and
whether a ready one fits), flips, counters (wounds, heals, Infected tokens, combat zones),
``Ready All`` and ``Take Control`` (R4, R8-R11). A card function is performed by the card's
controller (docs/log-protocol.md); a zombie player's spend in the Attack phase is a zombie
that fought (it must have been a ready one in his combat zone).
"""

from __future__ import annotations

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Topic
from zcards.game.definition import ATTACK_PHASE, BUILD_PHASE, READY_PHASE, RECOUP_PHASE, Meaning
from zcards.game.effects import Effect, Target
from zcards.game.table import Item, Player, Survivor
from zcards.game.zombies import Fit, Zombies
from zcards.rules.context import Area, Context, Fact, meaning_of

_SPENT_FIT = {False: Fit.YES, None: Fit.MAYBE, True: Fit.NO}
_IN_COMBAT = frozenset({Target.ZOMBIE_IN_COMBAT, Target.ATTACKING_ZOMBIE})


class CardLines(Area):
    """The tracker's reading of card-function lines."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # whether each player marks his combat moves with To Combat (else he drags them)
        self.marks_combat: dict[str, bool] = {}

    def edit(self, name: str) -> Player:
        return self.ctx.table.edit(name)

    def _warn(self, message: str, player: str) -> None:
        self.findings.warn(Topic.TABLE, message, player=player)

    def _token_unknown(self, name: str) -> None:
        """An Infected token put on (or taken off) a ``name`` the actor does not hold while
        several players do: which copy got it is unknown, so every copy may have it."""
        for player in self.ctx.table.players.values():
            if player.survivors_named(name):
                for survivor in self.edit(player.name).survivors_named(name):
                    survivor.infected = None

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

        # R9.1: in his own Recoup a player spends ready zombies to move them to the combat
        # zone; a player who never marks that move with To Combat drags it on the table,
        # which the log does not show: the spent card may be in the combat zone.
        dragged = (
            clock.phase == RECOUP_PHASE
            and me.name == clock.active
            and not self._marks_combat(me.name)
        )

        def spend(combat: bool | None) -> tuple[Zombies, Fit]:
            if name is None:
                return me.zombies.spend_face_down(combat=combat, dragged=dragged)
            return me.zombies.spend_named(name, combat=combat, dragged=dragged)

        if clock.phase == ATTACK_PHASE and me.name != clock.active and me.lost is None:
            zombies, fact.attack_fit = spend(True)  # it fought: a ready zombie in combat
            if fact.attack_fit:
                me.zombies = zombies
                return fact
        if self._spent_in_combat_by_text(me.name):  # Firecrackers: a zombie in combat
            zombies, fit = spend(True)
            if fit:
                me.zombies, fact.fit = zombies, fit
                return fact
        me.zombies, fact.fit = spend(None)
        return fact

    def _spent_in_combat_by_text(self, player: str) -> bool:
        """Whether another player's card used this phase spends a zombie in a combat zone
        (Firecrackers, Molotov Cocktail): a spend of ``player``'s zombie is then its effect."""
        return any(
            credit.row.effect is Effect.SPEND
            and credit.row.target in _IN_COMBAT
            and credit.controller != player
            for credit in self.ctx.text.credits
        )

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

    def _marks_combat(self, player: str) -> bool:
        """Whether ``player`` marks his combat moves with the To Combat counter: he did, or
        does later in this game within the lines ahead (asked once per player and game)."""
        known = self.marks_combat.get(player)
        if known is None:
            known = False
            for later in self.ctx.upcoming():
                if isinstance(later, (ev.NewGame, ev.DeckLoad, ev.GameControl)):
                    break  # this game is over: the search is as long as the game at most
                if (
                    isinstance(later, ev.CounterChange)
                    and later.player == player
                    and meaning_of(later) == Meaning.TO_COMBAT
                ):
                    known = True
                    break
            self.marks_combat[player] = known
        return known

    # -- counters --------------------------------------------------------------------------

    def _counter(self, event: ev.CounterChange) -> Fact:
        meaning = meaning_of(event)
        me = self.edit(event.player)
        name = self.ctx.card_name(event)
        fact = Fact(meaning=meaning, owner=me, name=name, added=event.new - event.old)
        if meaning in (Meaning.TO_COMBAT, Meaning.LEAVE_COMBAT):
            to_combat = meaning == Meaning.TO_COMBAT
            self.marks_combat[me.name] = True
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
                if meaning in (Meaning.INFECT, Meaning.CURE):
                    self._token_unknown(name)
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
