"""The Build phase: resources (R6), survivors and items with their costs (R7), upgrades (R8).

In the active player's Build phase his spends of his own zombie cards pay for the next
survivor or item he plays; spends right after the play, still in Build, also count (the
recording protocol's "spends pay, in order"). A payment must be made with ready zombies: a
spend of a card that was not ready breaks R7.3 at that spend, once the card it pays for is
played. Underpayment is settled when Build ends. ``Ready`` on a card, or ``Ready All``, outside
the Ready phase readies only cards spent this phase that paid for nothing (R4.1): a misclick
taken back, so those spends pay for nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from lackey_plugin.log import events as ev
from zcards.game.cards import CardInfo
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import BUILD_PHASE, HAND, READY_PHASE, Meaning
from zcards.game.effects import Effect
from zcards.game.rules import RESOURCE_PLAYS, can_upgrade, keyword_counts, missing_requirements
from zcards.game.table import Player
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded, TurnBegun


@dataclass(frozen=True)
class Spend:
    """A spend of the active player's zombie card in his Build phase, not yet paid out."""

    name: str | None  # None: a face-down card
    line: int
    raw: str
    ready: bool  # False: no reading had such a ready card


@dataclass(frozen=True)
class Debt:
    """A survivor or item played with fewer spends than its cost, so far (R7.3)."""

    player: str
    owed: int
    cost: int
    card: str
    line: int
    text: str


class BuildRules(Area):
    """R6, R7 and R8."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.resource_plays: dict[str, int] = {}
        self.pool: dict[str, tuple[Spend, ...]] = {}  # spends not yet used to pay
        self.debts: list[Debt] = []

    def handlers(self) -> Mapping[type, Handler]:
        return {
            ev.Play: self.on_play,
            ev.Perform: self.on_perform,
            ev.PerformAll: self.on_ready_all,
            ev.Face: self.on_flip,
            TurnBegun: self.on_turn_begun,
            PhaseBegun: self.on_phase_begun,
            PhaseEnded: self.on_phase_ended,
        }

    def on_turn_begun(self, _: TurnBegun, __: Fact) -> None:
        self.resource_plays.clear()

    def on_phase_begun(self, signal: PhaseBegun, _: Fact) -> None:
        if signal.phase == BUILD_PHASE:
            self.pool.clear()
            self.debts.clear()

    def on_phase_ended(self, signal: PhaseEnded, _: Fact) -> None:
        if signal.phase != BUILD_PHASE:
            return
        for debt in self.debts:
            if debt.owed:
                self.findings.violation(
                    Kind.CARD_PLAY,
                    f"{debt.card} costs {debt.cost} but only {debt.cost - debt.owed} ready "
                    "zombies were spent for it",
                    rule="R7.3",
                    player=debt.player,
                    line=debt.line,
                    text=debt.text,
                    provisional=True,
                )
        self.debts.clear()

    # -- spends pay (R7.3) -----------------------------------------------------------------

    def on_perform(self, event: ev.Perform, fact: Fact) -> None:
        if fact.meaning == Meaning.FLIP and fact.name is not None and fact.owner is not None:
            self._upgrade(fact.owner, fact.name, fact.info)
            return
        clock = self.clock
        if fact.meaning == Meaning.READY and clock.phase == BUILD_PHASE:
            self._taken_back(event.player, fact.name)
            return
        if (
            fact.meaning != Meaning.SPEND
            or fact.what not in ("zombie", "unseen")
            or clock.phase != BUILD_PHASE
            or event.player != clock.active
            or (fact.owner is not None and fact.owner.name != event.player)
        ):
            return
        spend = Spend(fact.name, event.line, event.raw, bool(fact.fit))
        for index, debt in enumerate(self.debts):
            if debt.player == event.player and debt.owed:
                self.debts[index] = replace(debt, owed=debt.owed - 1)
                self._paid(debt.player, debt.card, (spend,))
                return
        self.pool[event.player] = (*self.pool.get(event.player, ()), spend)

    def _taken_back(self, player: str, name: str | None) -> None:
        """A zombie card of his readied again in Build after a spend that has paid for
        nothing yet: the spend is taken back (R4.1 allows no other readying here)."""
        pool = list(self.pool.get(player, ()))
        for index in reversed(range(len(pool))):
            if pool[index].name == name:
                del pool[index]
                self.pool[player] = tuple(pool)
                return

    def _paid(self, player: str, card: str, spends: tuple[Spend, ...]) -> None:
        """R7.3: a cost is paid with ready zombies."""
        bad = next((s for s in spends if not s.ready), None)
        if bad is not None:
            self.findings.violation(
                Kind.CARD_PLAY,
                f"{card} is paid with a zombie that was not ready: {player} has no ready zombie "
                "card left to spend",
                rule="R7.3",
                player=player,
                line=bad.line,
                text=bad.raw,
            )

    def on_ready_all(self, event: ev.PerformAll, fact: Fact) -> None:
        """``Ready All`` outside the Ready phase (R4.1): what he spent this Build phase and
        paid for nothing is readied again (a misclick); nothing else."""
        if fact.meaning != Meaning.READY_ALL or self.clock.phase == READY_PHASE:
            return
        taken = self.pool.pop(event.player, ()) if self.clock.phase == BUILD_PHASE else ()
        me = self.table.edit(event.player)
        for spend in taken:
            if not spend.ready:
                continue
            if spend.name is None:
                me.zombies, _ = me.zombies.ready_face_down()
            else:
                me.zombies, _ = me.zombies.ready_named(spend.name)
        self.findings.warn(
            Topic.READY_ALL,
            f"Ready All in the {self.clock.phase} phase readies only what was spent this "
            f"phase and paid for nothing ({len(taken)} cards): readying is the Ready phase's "
            "(R4.1)",
            rule="R4.1",
            player=event.player,
        )

    # -- plays -----------------------------------------------------------------------------

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if self.clock.number < 1 or not self.clock.known:
            return
        me = self.table.players[event.player]
        if fact.name is None:
            if event.src_zone == HAND:
                self._resource_play(me)
            return
        info = fact.info
        if event.src_zone != HAND:
            self.findings.warn(
                Topic.CARD_EFFECT,
                f"{fact.name} played from {event.src_zone}: a card effect",
                rule="R16.1",
                player=me.name,
            )
        elif info is not None and info.type == "Zombie":
            self._resource_play(me)
            self._upgrade_check(me, fact.name, info)
        elif info is not None:
            self._card_play(me, fact.name, info, event)
        else:
            self.findings.cannot_decide(
                Kind.CARD_PLAY, f"{fact.name} is not in the card data", player=me.name
            )

    def _resource_play(self, me: Player) -> None:
        """R6.1, R6.2: one card a turn from the hand to the resource zone, in Build."""
        phase = self.clock.phase
        if phase != BUILD_PHASE:
            self.findings.violation(
                Kind.RESOURCE_PLAY,
                f"{me.name} plays a resource in the {phase} phase (only in Build)",
                rule="R6.2",
                player=me.name,
            )
        elif self.resource_plays.get(me.name, 0) >= RESOURCE_PLAYS:
            self.check(
                Kind.RESOURCE_PLAY,
                f"{me.name} plays a second resource this turn",
                Effect.EXTRA_RESOURCE,
                me.name,
                rule="R6.1",
                player=me.name,
            )
        self.resource_plays[me.name] = self.resource_plays.get(me.name, 0) + 1

    def _card_play(self, me: Player, name: str, info: CardInfo, event: ev.Play) -> None:
        """R7.1-R7.4: the active player, in his Build phase, paying the cost."""
        clock = self.clock
        pool = self.pool.pop(me.name, ())
        if me.name != clock.active:
            self.findings.violation(
                Kind.CARD_PLAY,
                f"{me.name} plays {name} on {clock.active}'s turn (only the active player)",
                rule="R7.1",
                player=me.name,
            )
        elif clock.phase != BUILD_PHASE:
            self.findings.violation(
                Kind.CARD_PLAY,
                f"{name} played in the {clock.phase} phase (only in Build)",
                rule="R7.2",
                player=me.name,
            )
        elif info.card.cost is None:
            self.findings.cannot_decide(
                Kind.CARD_PLAY, f"{name} has no cost in the card data", player=me.name
            )
        else:
            paid = pool[: info.cost]
            self.pool[me.name] = pool[info.cost :]
            self._paid(me.name, name, paid)
            if len(paid) < info.cost:
                self.debts.append(
                    Debt(me.name, info.cost - len(paid), info.cost, name, event.line, event.raw)
                )
        if info.card.requirements:
            self.findings.cannot_decide(
                Kind.CARD_PLAY,
                f"{name} has requirements ({dict(info.card.requirements)}), which are not modelled",
                rule="R7.4",
                player=me.name,
            )

    # -- upgrades (R8) ---------------------------------------------------------------------

    def on_flip(self, event: ev.Face, fact: Fact) -> None:
        if fact.meaning == Meaning.FLIP and fact.name is not None and fact.owner is not None:
            self._upgrade(fact.owner, fact.name, fact.info)

    def _upgrade(self, me: Player, name: str, info: CardInfo | None) -> None:
        if self.clock.number < 1 or not self.clock.known:
            return
        if info is None:
            self.findings.cannot_decide(
                Kind.ZOMBIE_UPGRADE, f"{name} is not in the card data", player=me.name
            )
        elif not can_upgrade(info):
            self.findings.violation(
                Kind.ZOMBIE_UPGRADE,
                f"{name} is a {info.type or 'card'}: only Zombie cards may be turned face up",
                rule="R8.3",
                player=me.name,
            )
        else:
            self._upgrade_check(me, name, info)
        if not me.zombies.has_named(name):
            self.findings.warn(
                Topic.FLIP,
                f"{me.name} turns {name} face up but has no face-down card",
                rule="R8.1",
                player=me.name,
            )

    def _upgrade_check(self, me: Player, name: str, info: CardInfo) -> None:
        """R8.1, R8.2: in Build, with the required face-up keyword zombies (the new one is
        already on the table: it does not count for itself)."""
        if self.clock.phase != BUILD_PHASE:
            self.findings.violation(
                Kind.ZOMBIE_UPGRADE,
                f"{name} upgraded in the {self.clock.phase} phase (only in Build)",
                rule="R8.2",
                player=me.name,
            )
        if not info.card.requirements:
            return
        board = me.zombies.board
        own = next((u for u in board.up if u.name == name and not u.generic), None)
        if own is not None:
            rest = list(board.up)
            rest.remove(own)
            board = board.with_up(rest)
        counts = keyword_counts(me, self.ctx.cards, board)
        for keyword, needed in missing_requirements(info, counts).items():
            have = info.card.requirements[keyword] - needed
            message = (
                f"{name} requires {info.card.requirements[keyword]} {keyword}; {me.name} "
                f"controls {have} face-up {keyword} zombies"
            )
            if not me.known:
                self.findings.cannot_decide(
                    Kind.ZOMBIE_UPGRADE,
                    f"{message} the log has shown; he may control others",
                    rule="R8.1",
                    player=me.name,
                )
                continue
            self.check(
                Kind.ZOMBIE_UPGRADE, message, Effect.KEYWORD, me.name, rule="R8.1", player=me.name
            )
