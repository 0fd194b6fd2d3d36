"""The Build phase: resources (R6), survivors and items with their costs (R7), upgrades (R8).

In the active player's Build phase his spends of his own ready zombie cards pay for the next
survivor or item he plays; spends right after the play, still in Build, also count (the
recording protocol's "spends pay, in order"). Underpayment is settled when Build ends.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind, Topic
from zcards.game.definition import BUILD_PHASE, HAND, Meaning
from zcards.rules.cards import CardInfo
from zcards.rules.context import Area, Context, Fact, Handler, PhaseBegun, PhaseEnded, TurnBegun
from zcards.rules.state import Player


@dataclass
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
        self.resource_plays: Counter[str] = Counter()
        self.pool: Counter[str] = Counter()  # spends not yet used to pay
        self.debts: list[Debt] = []

    def handlers(self) -> Mapping[type, Handler]:
        return {
            ev.Play: self.on_play,
            ev.Perform: self.on_perform,
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
        if (
            fact.meaning != Meaning.SPEND
            or fact.what not in ("zombie", "unseen")
            or not fact.fit
            or clock.phase != BUILD_PHASE
            or event.player != clock.active
            or (fact.owner is not None and fact.owner.name != event.player)
        ):
            return
        for debt in self.debts:
            if debt.player == event.player and debt.owed:
                debt.owed -= 1
                return
        self.pool[event.player] += 1

    # -- plays -----------------------------------------------------------------------------

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if self.clock.number < 1 or not self.clock.known:
            return
        me = self.table.player(event.player)
        if fact.name is None:
            if event.src_zone == HAND:
                self._resource_play(me)
            return
        info = fact.info
        if event.src_zone != HAND:
            self.findings.warn(
                Topic.CARD_EFFECT,
                f"{fact.name} played from {event.src_zone}: a card effect, not modelled",
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
        elif self.resource_plays[me.name] >= 1:
            self.findings.violation(
                Kind.RESOURCE_PLAY,
                f"{me.name} plays a second resource this turn",
                rule="R6.1",
                player=me.name,
            )
        self.resource_plays[me.name] += 1

    def _card_play(self, me: Player, name: str, info: CardInfo, event: ev.Play) -> None:
        """R7.1-R7.4: the active player, in his Build phase, paying the cost."""
        clock = self.clock
        paid, self.pool[me.name] = self.pool[me.name], 0
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
        elif paid < info.cost:
            self.debts.append(
                Debt(me.name, info.cost - paid, info.cost, name, event.line, event.raw)
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
        elif info.type != "Zombie":
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
        board = me.zombies.sample()
        others = list(board.up)
        own = next((u for u in others if u.name == name and not u.generic), None)
        if own is not None:
            others.remove(own)
        for keyword, needed in info.card.requirements.items():
            have = sum(
                1
                for up in others
                if not up.generic
                and (card := self.ctx.cards.get(up.name)) is not None
                and card.has_keyword(keyword)
            )
            if have >= needed:
                continue
            message = (
                f"{name} requires {needed} {keyword}; {me.name} controls {have} face-up "
                f"{keyword} zombies"
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
                Kind.ZOMBIE_UPGRADE, message, "keyword", me.name, rule="R8.1", player=me.name
            )
