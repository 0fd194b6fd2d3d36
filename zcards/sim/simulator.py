"""The effects every phase shares: drawing, spending, wounds, deaths, food and losing.

The simulator keeps the game on the rules model's :class:`~zcards.game.table.Table`, exact
(it knows every card), plus what no table shows: the order of each deck. Each effect changes
the table and records the action its log line shows, in the order Lackey would log it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.effects import Effect, Target, Timing
from zcards.game.power import Powers, Span
from zcards.game.rules import dies, has_lost
from zcards.game.table import Player, Survivor, Table
from zcards.game.zombies import Zombie
from zcards.sim.actions import Action, ActionKind
from zcards.sim.figures import CardTrace
from zcards.sim.players import Strategy

Observer = Callable[[Action, "Simulator"], None]
"""Called after each action with the simulator, whose table it left (a measurement may keep
snapshots)."""


class GameOver(Exception):
    """Raised when one player remains; unwinds the turn that ended the game."""


class Simulator:
    """Table, decks, randomness and strategies of one game, with the effects phases are built
    from."""

    def __init__(
        self,
        table: Table,
        decks: dict[str, list[str]],
        cards: CardIndex,
        strategies: dict[str, Strategy],
        rng: random.Random,
        observer: Observer | None = None,
    ) -> None:
        self.table = table
        self.decks = decks  # each player's deck, top card first
        self.cards = cards
        self.strategies = strategies
        self.rng = rng
        self.observer = observer
        self.actions: list[Action] = []
        self.setup_done = False
        self.loss_turns: dict[str, int] = {}
        self.boosts: list[tuple[int, int]] = []  # this turn's one-shot power: (amount, uid)
        self.traces = {name: CardTrace() for name in decks}  # the per-card figures' raw data

    def strategy(self, name: str) -> Strategy:
        return self.strategies[name]

    def info(self, name: str) -> CardInfo:
        info = self.cards.get(name)
        assert info is not None, name
        return info

    def powers(self) -> Powers:
        from zcards.game.power import Boost

        return Powers(self.cards, self.table, [Boost(a, uid) for a, uid in self.boosts])

    def record(self, kind: ActionKind, player: str, **fields: Any) -> None:
        action = Action(kind, player, **fields)
        self.actions.append(action)
        self.traces[player].saw(action)
        if self.observer is not None:
            self.observer(action, self)

    def used(self, name: str, card: str) -> None:
        """``name`` used the text of his card ``card`` (an ability, a one-shot, a trigger)."""
        self.traces[name].used[card] += 1

    def me(self, name: str) -> Player:
        """The player, to change."""
        return self.table.edit(name)

    # -- cards between zones -----------------------------------------------------------------

    def draw(self, name: str, count: int, *, named: bool) -> None:
        """Draw up to ``count`` cards (fewer when the deck runs out, which loses the game)."""
        deck, me = self.decks[name], self.me(name)
        if not named and len(deck) >= count:
            for _ in range(count):
                card = deck.pop(0)
                me.to_hand(1, card)
                self.traces[name].drawn.add(card)
            me.deck = len(deck)
            self.record(ActionKind.DRAW_MANY, name, new=count)
        else:
            for _ in range(count):
                if not deck:
                    break
                card = deck.pop(0)
                me.to_hand(1, card)
                self.traces[name].drawn.add(card)
                me.deck = len(deck)
                self.record(ActionKind.DRAW, name, card=card)
        self.check_loss(name)

    def discard_from_hand(self, name: str, card: str) -> None:
        me = self.me(name)
        me.from_hand(card)
        me.discard.append(card)
        self.record(ActionKind.DISCARD, name, card=card)

    def play_top_face_down(self, name: str) -> None:
        """The top card of his deck joins his resource zone face down (R12.2, card text)."""
        me = self.me(name)
        card = self.decks[name].pop(0)
        me.deck = len(self.decks[name])
        me.zombies = me.zombies.add_face_down(card)
        self.record(ActionKind.PLAY_TOP_FACE_DOWN, name, card=card, face_down=True)
        self.check_loss(name)

    # -- spending ------------------------------------------------------------------------------

    def spend(self, name: str, zombie: Zombie) -> None:
        me = self.me(name)
        if zombie.face_up:
            me.zombies, fit = me.zombies.spend_named(zombie.name, where=zombie.up)
        else:
            me.zombies, fit = me.zombies.spend_face_down(zombie.name, combat=zombie.combat)
        assert fit, zombie
        self.record(ActionKind.SPEND, name, card=zombie.name, face_down=not zombie.face_up)

    def spend_card(self, name: str, card: Survivor | Any) -> None:
        """Spend a survivor or an item of his (to use its ability)."""
        assert not card.spent, card
        card.spent = True
        self.record(ActionKind.SPEND, name, card=card.name)

    def pay(self, name: str, cost: int) -> None:
        """Spend ``cost`` ready zombies of the player's choosing (R7.3)."""
        for zombie in self.strategy(name).pay(self.table.players[name], cost):
            self.spend(name, zombie)

    # -- survivors -------------------------------------------------------------------------

    def health(self, name: str, survivor: Survivor) -> Span | None:
        return self.powers().health(name, survivor)

    def wound(self, name: str, survivor: Survivor) -> bool:
        """One wound; True when it killed the survivor (R11.1)."""
        assert survivor.wounds is not None
        survivor.wounds += 1
        self.record(
            ActionKind.WOUND, name, card=survivor.name, old=survivor.wounds - 1, new=survivor.wounds
        )
        if dies(survivor.wounds, self.health(name, survivor)):
            self.kill(name, survivor)
            return True
        return False

    def heal(self, name: str, survivor: Survivor) -> None:
        assert survivor.wounds
        survivor.wounds -= 1
        self.record(
            ActionKind.HEAL, name, card=survivor.name, old=survivor.wounds + 1, new=survivor.wounds
        )

    def cure(self, name: str, survivor: Survivor) -> None:
        survivor.infected, survivor.infected_by = False, None
        self.record(ActionKind.CURE, name, card=survivor.name, old=1, new=0)

    def kill(self, name: str, survivor: Survivor) -> None:
        """A dead survivor goes to the discard pile, or to its infecter as a generic zombie
        (R11.2, R11.3); the items on it go to the discard pile; its death triggers."""
        me = self.me(name)
        me.survivors.remove(survivor)
        for item in [i for i in me.items if i.host == survivor.uid]:
            me.items.remove(item)
            me.discard.append(item.name)
            self.record(ActionKind.TO_DISCARD, name, card=item.name)
        infecter = survivor.infected_by
        if infecter is not None and self.table.players[infecter].lost is None:
            taker = self.me(infecter)
            taker.zombies = taker.zombies.add_face_up(
                survivor.name, generic=True, spent=bool(survivor.spent)
            )
            self.record(ActionKind.TAKE_CONTROL, infecter, card=survivor.name)
        else:
            me.discard.append(survivor.name)
            self.record(ActionKind.TO_DISCARD, name, card=survivor.name)
        for row in self.info(survivor.name).rows(Timing.DIES, Effect.HEAL):
            if row.target is Target.YOUR_OTHER_SURVIVORS:
                self.used(name, survivor.name)
                for other in [s for s in me.survivors if s.wounds]:
                    self.heal(name, other)
        self.check_loss(name)

    def change_food(self, name: str, delta: int) -> None:
        me = self.me(name)
        assert me.food is not None
        new = max(0, me.food + delta)
        if new != me.food:
            self.record(ActionKind.SET_FOOD, name, other=name, old=me.food, new=new)
            me.food = new

    # -- losing ----------------------------------------------------------------------------

    def check_loss(self, name: str) -> None:
        """R14.1: lose on an empty deck, or with no survivors once setup is over; end a decided
        game."""
        me = self.table.players[name]
        if me.lost is not None:
            return
        reason = has_lost(me, setup_over=self.setup_done)
        if reason is None:
            return
        self.table.lose(name, reason, None)
        self.loss_turns[name] = self.table.turn
        if len(self.table.in_game()) <= 1:
            raise GameOver

    def in_turn_order(self, start: str) -> list[str]:
        """Players still in the game, in seat order starting with ``start``."""
        order = self.table.order
        index = order.index(start)
        return [n for n in order[index:] + order[:index] if self.table.players[n].lost is None]

    def zombie_players(self) -> list[str]:
        """Every player still in the game other than the active one, in turn order."""
        active = self.table.active or ""
        return [n for n in self.in_turn_order(active) if n != active]
