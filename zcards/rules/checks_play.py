"""Cards entering and leaving the table: opening survivors (R2.4), resources (R6), survivors
and items with their costs (R7), upgrades (R8), and the zone bookkeeping of moves."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lackey_plugin.log import events as ev
from zcards.rules.cards import CardInfo, Effect
from zcards.rules.state import OPENING_BUDGET, Player, Survivor
from zcards.rules.violations import Kind

if TYPE_CHECKING:
    from zcards.rules.engine import Engine

    _Base = Engine
else:
    _Base = object


@dataclass
class Debt:
    """A survivor or item played with fewer spends than its cost, so far (R7.3)."""

    player: str
    owed: int
    cost: int
    card: str
    line: int
    text: str


class PlayRules(_Base):
    """Plays, moves, payments and upgrades."""

    opening_cost: Counter[str]

    def reset_payments(self) -> None:
        self.pool: Counter[str] = Counter()
        self.debts: list[Debt] = []

    def pay(self, player: str, legal: bool) -> None:
        """A spend of one of his ready zombies by the active player in his Build phase pays for
        the next survivor or item, or settles one just played (spends may follow the play)."""
        state = self.state
        if not legal or state.phase != "Build" or player != state.active:
            return
        for debt in self.debts:
            if debt.player == player and debt.owed:
                debt.owed -= 1
                return
        self.pool[player] += 1

    def settle_payments(self) -> None:
        for debt in self.debts:
            if debt.owed:
                self.violation(
                    Kind.CARD_PLAY,
                    f"{debt.card} costs {debt.cost} but only "
                    f"{debt.cost - debt.owed} ready zombies were spent for it",
                    rule="R7.3",
                    player=debt.player,
                    line=debt.line,
                    text=debt.text,
                    provisional=True,
                )
        self.debts.clear()

    # -- plays -----------------------------------------------------------------------------

    def on_play(self, event: ev.Play) -> None:
        me = self.state.player(event.player)
        source = self.state.player(event.src_owner or event.player)
        name = None if event.hidden else event.card
        if event.src_zone == "Hand":
            source.from_hand(name)
        elif event.src_zone == "Deck":
            source.from_deck()
        elif event.src_zone == "Discard" and name in source.discard:
            source.discard.remove(name)
        if event.counts and "Deck" in event.counts and event.src_zone == "Deck":
            source.deck = event.counts["Deck"]
        if name is None:
            self._face_down_play(me, event)
        else:
            self._named_play(me, event, name)

    def _face_down_play(self, me: Player, event: ev.Play) -> None:
        if self.state.turn == 0 and event.src_zone != "Hand":
            self.violation(
                Kind.OPENING_SURVIVORS,
                "a face-down card put out at setup: only survivors may be",
                player=me.name,
            )
        elif event.src_zone == "Hand":
            self._resource_play(me)
        me.zombies.add_face_down()

    def _resource_play(self, me: Player) -> None:
        state = self.state
        if state.phase != "Build":
            self.violation(
                Kind.RESOURCE_PLAY,
                f"{me.name} plays a resource in the {state.phase} phase (only in Build)",
                rule="R6.2",
                player=me.name,
            )
        elif self.resource_plays[me.name] >= 1:
            self.violation(
                Kind.RESOURCE_PLAY,
                f"{me.name} plays a second resource this turn",
                rule="R6.1",
                player=me.name,
            )
        self.resource_plays[me.name] += 1

    def _named_play(self, me: Player, event: ev.Play, name: str) -> None:
        info = self.cards.get(name)
        self.played_this_turn.add(name)
        if self.state.turn == 0:
            self._opening(me, event, name, info)
        elif event.src_zone != "Hand":
            self.warn(
                "card-effect",
                f"{name} played from {event.src_zone}: a card effect, not modelled",
                rule="R16.1",
                player=me.name,
            )
        elif info is not None and info.type == "Zombie":
            self._resource_play(me)
            self.check_upgrade(me, name, info)
        elif info is not None:
            self._card_play(me, name, info)
        else:
            self.unverifiable(Kind.CARD_PLAY, f"{name} is not in the card data", player=me.name)
        self.place(me, name, info)

    def place(self, me: Player, name: str, info: CardInfo | None) -> None:
        kind = info.type if info is not None else ""
        if info is None:
            me.survivors.append(Survivor(name, known=False))
        elif kind == "Survivor":
            me.survivors.append(Survivor(name))
        elif kind == "Zombie":
            me.zombies.add_face_up(name)
        else:
            me.items.append(name)

    def _opening(self, me: Player, event: ev.Play, name: str, info: CardInfo | None) -> None:
        if event.src_zone != "Deck":
            self.violation(
                Kind.OPENING_SURVIVORS,
                f"{name} put out at setup from his "
                f"{event.src_zone} (opening survivors come from the deck)",
                player=me.name,
            )
        if info is None:
            self.unverifiable(
                Kind.OPENING_SURVIVORS, f"{name} is not in the card data", player=me.name
            )
        elif info.type != "Survivor":
            self.violation(
                Kind.OPENING_SURVIVORS,
                f"{name} is a {info.type or 'card'}, not a "
                "survivor: only survivors are put out at setup",
                player=me.name,
            )
        else:
            before = self.opening_cost[me.name]
            self.opening_cost[me.name] += info.cost
            if before <= OPENING_BUDGET < self.opening_cost[me.name]:
                self.violation(
                    Kind.OPENING_SURVIVORS,
                    f"opening survivors cost "
                    f"{self.opening_cost[me.name]} in total (at most "
                    f"{OPENING_BUDGET})",
                    player=me.name,
                )

    def end_setup(self, event: ev.TurnChange) -> None:
        self.state.first_player = event.active
        self.setup_losses(setup_over=True)

    def _card_play(self, me: Player, name: str, info: CardInfo) -> None:
        state = self.state
        paid, self.pool[me.name] = self.pool[me.name], 0
        if me.name != state.active:
            self.violation(
                Kind.CARD_PLAY,
                f"{me.name} plays {name} on {state.active}'s turn (only the active player)",
                rule="R7.1",
                player=me.name,
            )
        elif state.phase != "Build":
            self.violation(
                Kind.CARD_PLAY,
                f"{name} played in the {state.phase} phase (only in Build)",
                rule="R7.2",
                player=me.name,
            )
        elif info.card.cost is None:
            self.unverifiable(
                Kind.CARD_PLAY, f"{name} has no cost in the card data", player=me.name
            )
        elif paid < info.cost:
            line = self.event.line if self.event is not None else 0
            raw = self.event.raw if self.event is not None else ""
            self.debts.append(Debt(me.name, info.cost - paid, info.cost, name, line, raw))
        if info.card.requirements and info.type != "Zombie":
            self.unverifiable(
                Kind.CARD_PLAY,
                f"{name} has requirements ({dict(info.card.requirements)}), which are not modelled",
                rule="R7.4",
                player=me.name,
            )

    # -- upgrades (R8) ---------------------------------------------------------------------

    def flip(self, me: Player, name: str) -> None:
        info = self.cards.get(name)
        if info is None:
            self.unverifiable(
                Kind.ZOMBIE_UPGRADE, f"{name} is not in the card data", player=me.name
            )
        elif info.type != "Zombie":
            self.violation(
                Kind.ZOMBIE_UPGRADE,
                f"{name} is a {info.type or 'card'}: only Zombie cards may be turned face up",
                rule="R8.3",
                player=me.name,
            )
        else:
            self.check_upgrade(me, name, info)
        if not me.zombies.flip_up(name):
            self.warn(
                "flip",
                f"{me.name} turns {name} face up but has no face-down card",
                rule="R8.1",
                player=me.name,
            )

    def check_upgrade(self, me: Player, name: str, info: CardInfo) -> None:
        if self.state.phase != "Build":
            self.violation(
                Kind.ZOMBIE_UPGRADE,
                f"{name} upgraded in the {self.state.phase} phase (only in Build)",
                rule="R8.2",
                player=me.name,
            )
        board = me.zombies.sample()
        for keyword, needed in info.card.requirements.items():
            have = sum(
                1
                for up in board.up
                if not up.generic
                and (card := self.cards.get(up.name)) is not None
                and card.has_keyword(keyword)
            )
            if have < needed:
                self.check_or_doubt(
                    Kind.ZOMBIE_UPGRADE,
                    f"{name} requires {needed} {keyword}; "
                    f"{me.name} controls {have} face-up {keyword} zombies",
                    me.face_up_names(),
                    Effect.KEYWORD,
                    rule="R8.1",
                    player=me.name,
                )

    # -- moves -----------------------------------------------------------------------------

    def on_move(self, event: ev.Move) -> None:
        state = self.state
        source = state.player(event.src_owner or event.player)
        target = state.player(event.dst_owner or event.player)
        name = None if event.hidden else event.card
        self._leave_zone(source, event.src_zone, name)
        self._enter_zone(target, event.dst_zone, name)
        if event.counts:
            if event.src_zone == "Deck" and "Deck" in event.counts:
                source.deck = event.counts["Deck"]
            elif event.dst_zone == "Deck" and "Deck" in event.counts:
                target.deck = event.counts["Deck"]
        if event.src_zone == "Hand" and event.dst_zone == "Discard" and source is target:
            self.note_discard(source.name)

    @staticmethod
    def _leave_zone(me: Player, zone: str, name: str | None) -> None:
        if zone == "Hand":
            me.from_hand(name)
        elif zone == "Deck":
            me.from_deck()
        elif zone in ("Discard", "Removed"):
            pile = me.discard if zone == "Discard" else me.removed
            if name in pile:
                pile.remove(name)

    @staticmethod
    def _enter_zone(me: Player, zone: str, name: str | None) -> None:
        if zone == "Hand":
            me.to_hand(1, name)
        elif zone == "Deck" and me.deck is not None:
            me.deck += 1
        elif zone == "Discard" and name:
            me.discard.append(name)
        elif zone == "Removed" and name:
            me.removed.append(name)

    def on_table_to_zone(self, event: ev.TableToZone) -> None:
        state = self.state
        name = None if event.hidden else event.card
        target = state.player(event.dst_owner or event.player)
        self._enter_zone(target, event.dst_zone, name)
        if name is None:
            state.player(event.player).zombies.remove_face_down()
            return
        owner = state.owner_of(event.player, name)
        if owner.survivors_named(name):
            dead = [s for s in owner.survivors_named(name) if s.dead_line is not None]
            survivor = dead[0] if dead else min(owner.survivors_named(name), key=lambda s: s.wounds)
            self.survivor_leaves(owner, survivor)
        elif name in owner.items:
            owner.items.remove(name)
        elif owner.zombies.has_named(name):
            owner.zombies.remove_named(name)
        elif not state.player(event.player).zombies.remove_face_down():
            self.warn(
                "table", f"{name} leaves the table but was not seen on it", player=event.player
            )

    def survivor_leaves(self, owner: Player, survivor: Survivor) -> None:
        """A survivor leaves play: dead by wounds, overwhelmed in a fight (R10.5), or by text."""
        if survivor.dead_line is None and self.state.phase == "Attack":
            self.note_kill(owner, survivor)
        owner.remove_survivor(survivor)
