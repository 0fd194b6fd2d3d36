"""Card text in the audit (R16.1): could a card's text have caused this event, here and now?

Every answer comes from the effect rows (:mod:`zcards.game.effects`). A card used in this
phase (spent for its ability, played, dead, turned face up) leaves *credits*: the events its
rows may put in the log, for whom, and how many. A card face up on the table explains what
its fight rows do in the Attack phase (an attacking Kamikaze Corpse's wounds, a Hungry
Masses' food). A sentence the rows do not read (``zcards rules coverage``) may do what it
speaks of (:class:`~zcards.game.wording.Reach`: its rule areas, whose, when) while its card is
on the table or was played this turn, and a player whose table the log did not show from the
start may hold any card: both make the findings they may touch unverifiable, naming the card
and its sentence. Power and
Health in fights are not asked here: the fights compute them (:mod:`zcards.game.power`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import islice
from typing import NamedTuple

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex, CardInfo
from zcards.game.definition import ATTACK_PHASE, DISCARD, HAND, RECOUP_PHASE, Meaning
from zcards.game.effects import Condition, Effect, Row, Target, Timing
from zcards.game.power import Boost
from zcards.game.rules import discard_cost, pays_discard
from zcards.game.table import Table
from zcards.game.wording import When
from zcards.rules.context import Area, Fact, Handler, PhaseBegun, TurnBegun

COST_WINDOW = 16  # lines looked ahead for the discard a cost asks for
FIGHT_TIMINGS = frozenset({Timing.WINS_FIGHT, Timing.LOSES_FIGHT, Timing.BEGIN_ATTACK})
EACH = frozenset({Target.YOUR_OTHER_SURVIVORS, Target.INFECTED_SURVIVORS})  # any number
# Targets whose event may concern any player's card or total: the check does not narrow them.
ANYONES = frozenset(
    {
        Target.HOST,
        Target.SURVIVOR,
        Target.INFECTED_SURVIVOR,
        Target.INFECTED_SURVIVORS,
        Target.ATTACKING_ZOMBIE,
        Target.ZOMBIE_IN_COMBAT,
        Target.FIGHTING_ZOMBIES,
        Target.WEIRD_FIGHTING,
        Target.FAST_FIGHTING_YOURS,
        Target.FACE_DOWN_FIGHTING_YOURS,
        Target.YOUR_FACE_DOWN_IN_COMBAT,
        Target.YOUR_EX_SURVIVORS,
        Target.SCAVENGERS,
        Target.BARRICADES,
        Target.ITEMS,
    }
)
USES = {
    "spent": frozenset({Timing.ACTIVATED, Timing.HEALS}),
    "played": frozenset({Timing.ONE_SHOT}),
    "died": frozenset({Timing.DIES}),
    "flipped": frozenset({Timing.TURNED_UP}),
}


class Moment(NamedTuple):
    """A phase and its active player, as an unread sentence's reach is asked about them."""

    phase: str | None
    active: str | None


class Credit(NamedTuple):
    """An event one use of a card may still put in the log: ``left`` more (0: any number)."""

    card: str
    controller: str
    row: Row
    left: int


class Why(NamedTuple):
    """What card text makes of an event: a legal use of a card explains it (``legal``);
    otherwise cards whose text the model cannot read may (``doubts``, named)."""

    legal: bool
    doubts: tuple[str, ...]
    unpaid: tuple[str, ...] = ()  # cards that would explain it had their cost been paid


class Event(NamedTuple):
    """The event a check asks about: its effects, whose card or total it concerns
    (``subject``), the card it happened to, and for food whether it was gained."""

    effects: frozenset[Effect]
    subject: str | None
    card: str | None
    gain: bool | None
    not_on: Target | None = None  # a target the event cannot have had

    def caused_by(self, row: Row, controller: str, source: str, active: str | None) -> bool:
        """Whether ``row`` of card ``source`` (of ``controller``) may have caused it."""
        if row.effect not in self.effects or row.target is self.not_on:
            return False
        if row.effect is Effect.FOOD and self.gain is not None and (row.amount > 0) != self.gain:
            return False
        return _scoped(row, controller, self.subject, active, self.card, source)


def _scoped(
    row: Row,
    controller: str,
    subject: str | None,
    active: str | None,
    card: str | None,
    owner_card: str,
) -> bool:
    """Whether a row's event may concern ``subject`` (whose card or total it is)."""
    target = row.target
    if target is Target.SELF:
        return card in (None, owner_card) and subject in (None, controller)
    if subject is None:
        return True
    if target in (Target.YOU, Target.YOUR_SURVIVOR, Target.YOUR_OTHER_SURVIVORS):
        return subject == controller
    if target in (Target.SURVIVOR_PLAYER, Target.DEFENDER, Target.INFECTED_DEFENDER):
        return subject == active
    if target in ANYONES:
        return True
    raise ValueError(f"effect target {target!r} has no scope in the audit (zcards/rules/text.py)")


class TextLedger:
    """The card uses of the current phase and turn, and the one question the checks ask."""

    def __init__(self, cards: CardIndex, table: Table) -> None:
        self.cards = cards
        self.table = table
        self.credits: list[Credit] = []
        self.played: list[tuple[str, str]] = []  # (card, controller) played this turn
        self.departed: list[tuple[str, str]] = []  # put from the table into the discard pile
        self.attackers: dict[str, frozenset[str]] = {}  # face-up attacking names by player
        self.turn_boosts: list[Boost] = []
        self.discards: list[tuple[str, str | None]] = []  # (player, card) from hands this phase
        self.prepaid: set[int] = set()  # lines of discards ahead already claimed by a cost
        self.look: Callable[[], Iterable[object]] = lambda: ()  # the lines after this one

    def fork(self, table: Table) -> TextLedger:
        twin = TextLedger(self.cards, table)
        twin.credits, twin.played = list(self.credits), list(self.played)
        twin.discards, twin.prepaid = list(self.discards), set(self.prepaid)
        twin.departed = list(self.departed)
        twin.attackers, twin.turn_boosts = dict(self.attackers), list(self.turn_boosts)
        return twin

    # -- bookkeeping (the replay calls these as the log goes) --------------------------------

    def new_turn(self) -> None:
        self.played.clear()
        self.turn_boosts.clear()
        self.new_phase()

    def new_phase(self, phase: str | None = None) -> None:
        """A phase begins: this phase's uses start afresh, with what the cards the active
        player has in play do in this phase of his turn ("during your Draw phase")."""
        self.credits.clear()
        self.discards.clear()
        self.prepaid.clear()
        self.departed.clear()
        self.attackers = {}
        active = self.table.players.get(self.table.active or "")
        if phase is None or active is None:
            return
        for name in sorted(active.face_up_names()):
            info = self.cards.get(name)
            if info is None:
                continue
            for row in info.rows(Timing.YOUR_PHASE):
                if row.phase == phase:
                    times = 0 if row.target in EACH else max(row.amount, 0)
                    self.credits.append(Credit(info.name, active.name, row, times))

    def discarded(self, card: str | None, controller: str, line: int = 0) -> None:
        """A card went from ``controller``'s hand to his discard pile (``card`` None: hidden):
        it may pay an ability's discard cost (Chef Antoine's Item), unless a cost claimed it
        before it was logged."""
        if line in self.prepaid:
            self.prepaid.discard(line)
            return
        self.discards.append((controller, card))

    def _cost_paid(self, credit: Credit, *, consume: bool) -> bool:
        """Whether the use behind ``credit`` paid the discard its cost asks for, with a card
        discarded from its controller's hand this phase that no other use claimed."""
        cost = credit.row.cost
        if discard_cost(cost) is None:
            return True
        for index, (player, card) in enumerate(self.discards):
            info = self.cards.get(card)
            if player == credit.controller and pays_discard(cost, info, hidden=card is None):
                if consume:
                    del self.discards[index]
                return True
        return self._paid_ahead(credit, consume=consume)

    def _paid_ahead(self, credit: Credit, *, consume: bool) -> bool:
        """The discard a cost asks for, logged a little later in the same phase (people click
        the food before they drag the card)."""
        for later in islice(self.look(), COST_WINDOW):
            if isinstance(later, ev.PhaseChange | ev.TurnChange):
                return False
            if (
                isinstance(later, ev.Move)
                and later.player == credit.controller
                and later.src_zone == HAND
                and later.dst_zone == DISCARD
                and later.line not in self.prepaid
            ):
                card = None if later.card in ev.HIDDEN_CARDS else later.card
                if pays_discard(credit.row.cost, self.cards.get(card), hidden=card is None):
                    if consume:
                        self.prepaid.add(later.line)
                    return True
        return False

    def set_attackers(self, attackers: dict[str, frozenset[str]]) -> None:
        self.attackers = attackers

    def boosts(self) -> list[Boost]:
        return list(self.turn_boosts)

    def used(self, card: str | None, controller: str, how: str) -> None:
        """``card`` was spent / played / died / flipped by (or under) ``controller``."""
        info = self.cards.get(card)
        if card is None or info is None:
            if card is not None and how == "played":
                self.played.append((card, controller))
            return
        if how == "played":
            self.played.append((info.name, controller))
        for row in info.text.rows:
            now = how != "spent" or row.phase in (None, self.table.phase)
            if row.timing is Timing.HEALS:  # with the Medic's heal, in the Recoup phase
                now = self.table.phase == RECOUP_PHASE
            if row.timing not in USES[how] or not now:
                continue
            if row.effect is Effect.POWER and row.condition is Condition.THIS_TURN:
                self.turn_boosts.append(Boost(row.amount, None))
            else:
                times = 0 if row.target in EACH else max(row.amount, 0)
                self.credits.append(Credit(info.name, controller, row, times))

    def withdrawn(self, card: str | None, controller: str, zone: str) -> None:
        """A card played this phase went back off the table to a zone other than the discard
        pile: it was not used (a one-shot item is discarded once its effect happened), so its
        play excuses nothing from now on."""
        if card is None:
            return
        if zone == DISCARD:  # used, or gone: what its text did this phase still stands
            self.departed.append((card, controller))
            return
        info = self.cards.get(card)
        name = info.name if info is not None else card
        played = [row for row in info.text.rows if row.timing is Timing.ONE_SHOT] if info else []
        self.credits = [
            c
            for c in self.credits
            if not (c.card == name and c.controller == controller and c.row in played)
        ]
        if (name, controller) in self.played:
            self.played.remove((name, controller))
        if played and any(r.effect is Effect.POWER for r in played) and self.turn_boosts:
            self.turn_boosts.pop()

    def count(self, effect: Effect, target: Target) -> int:
        """How many events of ``effect`` on ``target`` this phase's uses may still cause."""
        return sum(
            c.left or 1 for c in self.credits if c.row.effect is effect and c.row.target is target
        )

    def unmodelled(
        self, effects: frozenset[Effect], subject: str | None = None, *, phase: str | None = None
    ) -> list[str]:
        """Card text the rows do not read that may cause events of ``effects`` concerning
        ``subject`` in ``phase`` (default: now), on the table or played this turn (each card
        with its sentence), and players whose cards the log did not show from the start: any
        of them may (R16.1)."""
        when = Moment(phase or self.table.phase, self.table.active)
        return self._unexplained(Event(effects, subject, None, None), when)

    def _unexplained(self, event: Event, when: When) -> list[str]:
        found = self._doubts(event, when)
        for player in self.table.players.values():
            if player.playing and not player.known and self._unseen_may(player.name, event, when):
                found.add(f"cards of {player.name} not seen in this log")
        return sorted(found)

    def _doubts(self, event: Event, when: When) -> set[str]:
        """The unread sentences of cards played this turn or face up on the table that may
        cause ``event`` at ``when`` (a card missing from the card data may cause anything)."""
        found: set[str] = set()
        for name, controller in (*self.played, *self.departed):
            found |= self._unread(name, controller, event, when)
        for player in self.table.players.values():
            if player.playing:
                for name in player.face_up_names():
                    found |= self._unread(name, player.name, event, when)
        return found

    def _unread(self, name: str, controller: str, event: Event, when: When) -> set[str]:
        info = self.cards.get(name)
        if info is None:
            return {name}
        return {
            f'{info.name} ("{unread.sentence}")'
            for unread in info.text.unread
            if unread.reach.touches(event.effects, event.subject, controller, when)
        }

    # -- the question ------------------------------------------------------------------------

    def explain(
        self,
        effect: Effect | Iterable[Effect],
        subject: str | None,
        *,
        card: str | None = None,
        gain: bool | None = None,
        not_on: Target | None = None,
        consume: bool = True,
    ) -> Why:
        """Whether card text explains ``effect``, which concerns ``subject``'s cards or total
        (``card``: the card it happened to; ``gain``: for food, whether it was gained;
        ``not_on``: a target it cannot have had): a use of this phase (its credit is then used
        up), or a card on the table acting in a fight; else which cards the model cannot read
        might have caused it."""
        event = Event(
            frozenset({effect} if isinstance(effect, Effect) else effect),
            subject,
            card,
            gain,
            not_on,
        )
        active = self.table.active
        unpaid: set[str] = set()
        for index, credit in enumerate(self.credits):
            if not event.caused_by(credit.row, credit.controller, credit.card, active):
                continue
            if not self._cost_paid(credit, consume=consume):
                unpaid.add(credit.card)
                continue
            if consume and credit.left:
                if credit.left == 1:
                    del self.credits[index]
                else:
                    self.credits[index] = credit._replace(left=credit.left - 1)
            return Why(True, ())
        for player in self.table.players.values():
            if player.playing:
                for name in player.face_up_names():
                    info = self.cards.get(name)
                    if info is not None and self._in_fight(info, player.name, event):
                        return Why(True, ())
        doubts = self._doubts(event, self.table)
        for player in self.table.players.values():
            if (
                player.playing
                and not player.known
                and self._unseen_may(player.name, event, self.table)
            ):
                doubts.add(f"cards of {player.name} not seen in this log")
        return Why(False, tuple(sorted(doubts)), tuple(sorted(unpaid)))

    def _in_fight(self, info: CardInfo, controller: str, event: Event) -> bool:
        """A face-up card whose text may cause the event in this Attack phase without a
        logged use: an attacking zombie's or a defending survivor's (or an item's) fight
        rows, a zombie player's card's begin-attack rows."""
        if self.table.phase != ATTACK_PHASE:
            return False
        attacking = info.name in self.attackers.get(controller, frozenset())
        fighting = (
            attacking
            or info.type == "Item"
            or (info.type == "Survivor" and controller == self.table.active)
        )
        active = self.table.active
        for row in info.text.rows:
            if row.timing is Timing.BEGIN_ATTACK:
                applies = controller != active
            else:
                applies = fighting and row.timing in FIGHT_TIMINGS
            if applies and event.caused_by(row, controller, info.name, active):
                return True
        return False

    def _unseen_may(self, controller: str, event: Event, when: When) -> bool:
        """Could a card of ``controller`` the log has not shown (on his table, so acting
        without a logged use: in a fight, or by being there) cause the event at ``when``?"""
        now = when.phase
        return any(
            any(
                u.reach.touches(event.effects, event.subject, controller, when)
                for u in info.text.unread
            )
            or any(
                (
                    row.timing is Timing.STATIC
                    or (row.timing in FIGHT_TIMINGS and now == ATTACK_PHASE)
                )
                and event.caused_by(row, controller, info.name, self.table.active)
                for row in info.text.rows
            )
            for info in self.cards.infos()
        )


class CardUses(Area):
    """Feeds :class:`TextLedger` the uses it needs: spends, plays from the hand, deaths and
    upgrades, phase by phase."""

    def handlers(self) -> Mapping[type, Handler]:
        return {
            TurnBegun: self.on_turn,
            PhaseBegun: self.on_phase,
            ev.Perform: self.on_function,
            ev.Face: self.on_function,
            ev.Play: self.on_play,
            ev.Move: self.on_move,
            ev.TableToZone: self.on_leave,
            ev.CardAction: self.on_leave,
        }

    def on_turn(self, _: TurnBegun, __: Fact) -> None:
        self.ctx.text.new_turn()

    def on_phase(self, signal: PhaseBegun, __: Fact) -> None:
        self.ctx.text.new_phase(signal.phase)

    def on_function(self, _: ev.Event, fact: Fact) -> None:
        if fact.owner is None:
            return
        if fact.meaning == Meaning.SPEND:
            self.ctx.text.used(fact.name, fact.owner.name, "spent")
        elif fact.meaning == Meaning.FLIP:
            self.ctx.text.used(fact.name, fact.owner.name, "flipped")
        elif fact.meaning == Meaning.TAKE_CONTROL and fact.survivor is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "died")

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if event.src_zone == HAND and fact.owner is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "played")

    def on_move(self, event: ev.Move, fact: Fact) -> None:
        if event.src_zone == HAND and event.dst_zone == DISCARD:
            self.ctx.text.discarded(self.ctx.card_name(event), event.player, event.line)

    def on_leave(self, event: ev.Event, fact: Fact) -> None:
        if fact.owner is None:
            return
        if fact.survivor is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "died")
        elif isinstance(event, ev.TableToZone):
            self.ctx.text.withdrawn(fact.name, fact.owner.name, event.dst_zone)
