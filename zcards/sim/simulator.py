"""The effects every phase shares: drawing, spending, wounds, deaths, food and losing.

The simulator keeps the game on the executor's :class:`~zcards.game.ledger.Game`, exact (it
knows every card), plus what no table shows: the order of each deck. Every change of the game
is an action of :mod:`zcards.game.actions` played by :func:`~zcards.game.executor.apply`
(after ``checker``, when one is given, has seen the game before it); each records the lines
Lackey would log for it, in order. The players choose from
:func:`~zcards.game.executor.legal_actions`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

from zcards.game import actions as ga
from zcards.game.actions import Cause
from zcards.game.cards import CardIndex, CardInfo
from zcards.game.effects import Effect, Timing
from zcards.game.executor import apply, legal_actions
from zcards.game.ledger import Game
from zcards.game.legal_combat import takes_over
from zcards.game.power import Powers, Span
from zcards.game.table import Player, Survivor
from zcards.game.zombies import Zombie
from zcards.sim.actions import Action, ActionKind
from zcards.sim.figures import CardTrace
from zcards.sim.players import Strategy

Observer = Callable[[Action, "Simulator"], None]
"""Called after each action with the simulator, whose table it left (a measurement may keep
snapshots)."""

Checker = Callable[[Game, ga.Action], None]
"""Called with the game and each action before it is applied (a cross-check asks legal)."""


class GameOver(Exception):
    """Raised when one player remains; unwinds the turn that ended the game."""


class Simulator:
    """Game, decks, randomness and strategies of one game, with the effects phases are built
    from."""

    def __init__(
        self,
        table: Game,
        decks: dict[str, list[str]],
        cards: CardIndex,
        strategies: dict[str, Strategy],
        rng: random.Random,
        observer: Observer | None = None,
        *,
        checker: Checker | None = None,
        without: Collection[str] = (),
    ) -> None:
        self.table = table
        self.decks = decks  # each player's deck, top card first
        self.cards = cards
        self.strategies = strategies
        self.rng = rng
        self.observer = observer
        self.checker = checker
        self.without = without  # clauses of legal the move generator leaves out (a mutant)
        self.actions: list[Action] = []
        self.traces = {name: CardTrace() for name in decks}  # the per-card figures' raw data

    def strategy(self, name: str) -> Strategy:
        return self.strategies[name]

    def info(self, name: str) -> CardInfo:
        info = self.cards.get(name)
        assert info is not None, name
        return info

    def powers(self) -> Powers:
        return Powers(self.cards, self.table)

    def do(self, action: ga.Action) -> None:
        """Play one action of the executor (the checker sees the game before it)."""
        if self.checker is not None:
            self.checker(self.table, action)
        apply(self.table, action)

    def options(self, name: str, *kinds: type, game: Game | None = None) -> list[Any]:
        """The legal actions of these kinds open to ``name`` now (on ``game``: a trial)."""
        game = self.table if game is None else game
        return legal_actions(game, name, frozenset(kinds), without=self.without)

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
        return self.table.players[name]

    # -- cards between zones -----------------------------------------------------------------

    def _cause(self) -> Cause:
        phase = self.table.phase
        return Cause.SETUP if phase == "Setup" else Cause.RULE if phase == "Draw" else Cause.TEXT

    def draw(self, name: str, count: int, *, named: bool, cause: Cause | None = None) -> None:
        """Draw up to ``count`` cards (fewer when the deck runs out, which loses the game)."""
        deck, cause = self.decks[name], cause or self._cause()
        many = not named and len(deck) >= count
        for _ in range(count):
            if not deck:
                break
            card = deck.pop(0)
            self.do(ga.Draw(name, card, cause))
            self.traces[name].drawn.add(card)
            if not many:
                self.record(ActionKind.DRAW, name, card=card)
        if many:
            self.record(ActionKind.DRAW_MANY, name, new=count)
        self.end_if_over()

    def discard_from_hand(self, name: str, card: str, cause: Cause | None = None) -> None:
        self.do(ga.Discard(name, card, cause or self._cause()))
        self.record(ActionKind.DISCARD, name, card=card)

    def play_top_face_down(self, name: str, cause: Cause) -> None:
        """The top card of his deck joins his resource zone face down (R12.2, card text)."""
        card = self.decks[name].pop(0)
        self.do(ga.TopToResource(name, card, cause))
        self.record(ActionKind.PLAY_TOP_FACE_DOWN, name, card=card, face_down=True)
        self.end_if_over()

    # -- spending ------------------------------------------------------------------------------

    def spend(
        self,
        name: str,
        zombie: Zombie,
        cause: Cause,
        by: str | None = None,
        card: str | None = None,
    ) -> None:
        self.do(ga.Spend(name, zombie, cause, by, card))
        self.record_spend(name, zombie)

    def record_spend(self, name: str, zombie: Zombie) -> None:
        self.record(ActionKind.SPEND, name, card=zombie.name, face_down=not zombie.face_up)

    # -- survivors -------------------------------------------------------------------------

    def health(self, name: str, survivor: Survivor) -> Span | None:
        return self.powers().health(name, survivor)

    def wound(self, name: str, survivor: Survivor, cause: Cause) -> bool:
        """One wound; True when it killed the survivor (R11.1)."""
        old = survivor.wounds or 0
        self.do(ga.Wound(name, survivor.uid, cause))
        survivor = self.me(name).survivor(survivor.uid) or survivor
        self.record(ActionKind.WOUND, name, card=survivor.name, old=old, new=old + 1)
        if survivor.uid in self.table.ledger.dying:
            self.kill(name, survivor)
            return True
        return False

    def heal(self, name: str, survivor: Survivor, cause: Cause = Cause.TEXT) -> None:
        old = survivor.wounds or 0
        self.do(ga.Heal(name, survivor.uid, cause))
        self.record(ActionKind.HEAL, name, card=survivor.name, old=old, new=old - 1)

    def cure(self, name: str, survivor: Survivor) -> None:
        self.do(ga.Cure(name, survivor.uid))
        self.record(ActionKind.CURE, name, card=survivor.name, old=1, new=0)

    def kill(self, name: str, survivor: Survivor) -> None:
        """A dead survivor goes to the discard pile, or to its infecter as a generic zombie
        (R11.2, R11.3); the items on it go to the discard pile; its death triggers."""
        items = [i.name for i in self.me(name).items if i.host == survivor.uid]
        taker = takes_over(self.table, name, survivor.uid)
        if taker is not None:
            self.do(ga.TakeControl(taker, name, survivor.uid))
        else:
            self.do(ga.Bury(name, survivor.uid))
        for item in items:
            self.record(ActionKind.TO_DISCARD, name, card=item)
        if taker is not None:
            self.record(ActionKind.TAKE_CONTROL, taker, card=survivor.name)
        else:
            self.record(ActionKind.TO_DISCARD, name, card=survivor.name)
        if self.info(survivor.name).rows(Timing.DIES, Effect.HEAL):
            self.used(name, survivor.name)
        for heal in self.options(name, ga.Heal):
            if heal.cause is not Cause.DEATH:
                continue
            target = self.me(name).survivor(heal.survivor)
            if target is not None and target.wounds:
                self.heal(name, target, heal.cause)
        self.end_if_over()

    def change_food(self, name: str, delta: int, cause: Cause) -> None:
        me = self.me(name)
        assert me.food is not None
        new = max(0, me.food + delta)
        if new != me.food:
            old = me.food
            self.do(ga.ChangeFood(name, delta, cause))
            self.record(ActionKind.SET_FOOD, name, other=name, old=old, new=new)

    # -- losing ----------------------------------------------------------------------------

    def end_if_over(self) -> None:
        """The game ends when one player remains (R14.3)."""
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
