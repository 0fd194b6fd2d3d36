"""The effects every phase shares: drawing, spending, wounds, deaths and losing.

Each effect changes the full-information state and records the action its log line shows,
in the order Lackey would log it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from zcards.cards.model import Card
from zcards.sim.actions import Action, ActionKind
from zcards.sim.players import Strategy
from zcards.sim.state import (
    EMPTY_DECK,
    NO_SURVIVORS,
    RESOURCE_ZONE,
    PlayerState,
    SimState,
    TableCard,
    take_out,
)

Observer = Callable[[Action, SimState], None]
"""Called after each action with the full state it left (a measurement may keep snapshots)."""


class GameOver(Exception):
    """Raised when one player remains; unwinds the turn that ended the game."""


class Simulator:
    """State, randomness and strategies of one game, with the effects phases are built from."""

    def __init__(
        self,
        state: SimState,
        strategies: dict[str, Strategy],
        rng: random.Random,
        observer: Observer | None = None,
    ) -> None:
        self.state = state
        self.strategies = strategies
        self.rng = rng
        self.observer = observer
        self.setup_done = False
        self.loss_turns: dict[str, int] = {}

    def strategy(self, player: PlayerState) -> Strategy:
        return self.strategies[player.name]

    def record(self, kind: ActionKind, player: PlayerState | str, **fields: Any) -> None:
        action = Action(kind, player if isinstance(player, str) else player.name, **fields)
        self.state.actions.append(action)
        if self.observer is not None:
            self.observer(action, self.state)

    # -- cards moving between zones --------------------------------------------------------

    def draw(self, player: PlayerState, count: int, *, named: bool) -> list[Card]:
        """Draw up to ``count`` cards (fewer when the deck runs out, which loses the game)."""
        drawn: list[Card] = []
        if not named and len(player.deck) >= count:
            drawn = [player.deck.pop(0) for _ in range(count)]
            player.hand.extend(drawn)
            self.record(ActionKind.DRAW_MANY, player, new=count)
        else:
            while len(drawn) < count and player.deck:
                card = player.deck.pop(0)
                drawn.append(card)
                player.hand.append(card)
                self.record(ActionKind.DRAW, player, card=card.name)
        self.check_loss(player)
        return drawn

    def discard_from_hand(self, player: PlayerState, card: Card) -> None:
        take_out(player.hand, card)
        player.discard.append(card)
        self.record(ActionKind.DISCARD, player, card=card.name)

    def play_top_face_down(self, player: PlayerState) -> None:
        """A failed scavenger roll: the top card of a zombie player's deck joins his resources."""
        card = player.deck.pop(0)
        player.table.append(TableCard(card, player.name, RESOURCE_ZONE, face_up=False))
        self.record(ActionKind.PLAY_TOP_FACE_DOWN, player, card=card.name, face_down=True)
        self.check_loss(player)

    def spend(self, player: PlayerState, card: TableCard) -> None:
        card.spent = True
        self.record(ActionKind.SPEND, player, card=card.name, face_down=not card.face_up)

    def pay(self, player: PlayerState, cost: int) -> None:
        """Spend ``cost`` ready zombies of the player's choosing."""
        for zombie in self.strategy(player).pay(player, cost):
            self.spend(player, zombie)

    # -- wounds and deaths -----------------------------------------------------------------

    def wound(self, player: PlayerState, survivor: TableCard) -> bool:
        """One wound; True when it killed the survivor."""
        survivor.wounds += 1
        self.record(
            ActionKind.WOUND,
            player,
            card=survivor.name,
            old=survivor.wounds - 1,
            new=survivor.wounds,
        )
        if survivor.wounds >= survivor.health:
            self.kill(player, survivor)
            return True
        return False

    def kill(self, player: PlayerState, survivor: TableCard) -> None:
        """A dead survivor goes to the discard, or to its infecter as a generic zombie."""
        take_out(player.table, survivor)
        infecter = survivor.infected_by
        if infecter is not None and self.state.player(infecter).lost is None:
            taker = self.state.player(infecter)
            taker.table.append(
                TableCard(
                    survivor.card,
                    taker.name,
                    RESOURCE_ZONE,
                    face_up=True,
                    spent=survivor.spent,
                    generic=True,
                )
            )
            self.record(ActionKind.TAKE_CONTROL, taker, card=survivor.name)
        else:
            player.discard.append(survivor.card)
            self.record(ActionKind.TO_DISCARD, player, card=survivor.name)
        self.check_loss(player)

    # -- losing ----------------------------------------------------------------------------

    def check_loss(self, player: PlayerState) -> None:
        """Lose on an empty deck, or with no survivors once setup is over; end a decided game."""
        if player.lost is not None:
            return
        if not player.deck:
            player.lost = EMPTY_DECK
        elif self.setup_done and not player.survivors:
            player.lost = NO_SURVIVORS
        else:
            return
        self.loss_turns[player.name] = self.state.turn
        if len(self.state.remaining) <= 1:
            raise GameOver

    def zombie_players(self) -> list[PlayerState]:
        """Every player still in the game other than the active one."""
        active = self.state.active
        return [p for p in self.state.in_turn_order(active) if p.name != active]
