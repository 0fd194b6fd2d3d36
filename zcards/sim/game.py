"""Play one complete, legal game of Zombie CCG between two decks, deterministic per seed.

The game lives on the rules model's table (:mod:`zcards.game`): its players choose only
among the options the model offers (:mod:`zcards.game.options`), fights end as the model
decides (:mod:`zcards.game.fights`), and card text does what its effect rows say. Setup
follows the rulings (food bidding, 7 cards, opening survivors from the deck); each turn runs
Ready, Draw, Build, Attack, Recoup and End. The result keeps every action in log order.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.game import actions as ga
from zcards.game.actions import Cause
from zcards.game.cards import CardIndex
from zcards.game.definition import (
    ATTACK_PHASE,
    BUILD_PHASE,
    DRAW_PHASE,
    END_PHASE,
    PHASES,
    READY_PHASE,
    RECOUP_PHASE,
    STARTING_FOOD,
    STARTING_HAND,
)
from zcards.game.ledger import Game
from zcards.game.legal import bid_winner
from zcards.game.rules import DISCARDS, DRAWS
from zcards.sim.actions import Action, ActionKind
from zcards.sim.attack import attack_phase
from zcards.sim.build import build_phase
from zcards.sim.figures import CardFigures
from zcards.sim.recoup import recoup_phase
from zcards.sim.search import STRATEGIES
from zcards.sim.simulator import Checker, GameOver, Observer, Simulator

SEAT_NAMES = ("Alice", "Bob", "Carol", "Dave")  # the players, seat by seat
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_TURN_CAP = 100
TURN_CAP = "turn cap"


@dataclass(frozen=True)
class DeckList:
    """A named deck, top card first after loading (the game shuffles it)."""

    name: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class GameResult:
    """How one game went; ``survivor`` is the player who did not lose (None at the turn cap)."""

    seed: int
    players: tuple[str, ...]
    decks: tuple[str, ...]
    strategies: tuple[str, ...]
    first_player: str
    turns: int
    ending: str
    survivor: str | None
    losses: tuple[tuple[str, str, int], ...]
    actions: tuple[Action, ...]
    opening_food: tuple[int, ...] = ()  # each player's food once setup was over
    cards: tuple[CardFigures, ...] = ()  # each player's per-card figures

    def deck_of(self, player: str) -> str:
        return self.decks[self.players.index(player)]


def play_game(
    decks: Sequence[DeckList],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    strategies: Sequence[str] | None = None,
    max_turns: int = DEFAULT_TURN_CAP,
    observer: Observer | None = None,
    cards: CardIndex | None = None,
    equal_food: bool = False,
    checker: Checker | None = None,
    without: Collection[str] = (),
) -> GameResult:
    """Play ``decks[i]`` as ``names[i]`` with ``strategies[i]`` until one player remains;
    ``observer`` sees the simulator after every action. ``cards`` is the decks' card index
    (made from the decks when not given; many games of the same decks share one).

    ``equal_food`` leaves the bidding out: both players keep the starting food and the first
    seat goes first, so the turn order can be measured apart from the food a bid costs (such
    a game is an experiment, not a game as written, and its log shows no bids).

    ``checker`` sees the game and each executor action before it is played (a cross-check
    asks :func:`~zcards.game.executor.legal`); ``without`` names clauses of ``legal`` the
    players' move generator leaves out (a mutant of the rules, for the mutation check)."""
    names = SEAT_NAMES[: len(decks)] if names is None else names
    strategies = ("greedy",) * len(decks) if strategies is None else strategies
    if not MIN_PLAYERS <= len(decks) == len(names) == len(strategies) <= MAX_PLAYERS:
        raise UsageError("a simulated game needs two to four decks, names and strategies")
    if len(set(names)) != len(names):
        raise UsageError("the players need different names")
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        raise UsageError(f"unknown strategy {unknown[0]!r} (choose from {', '.join(STRATEGIES)})")
    rng = random.Random(seed)
    if cards is None:
        cards = CardIndex(card for deck in decks for card in deck.cards)
    table = Game(cards)
    for seat, name in enumerate(names, start=1):
        me = table.edit(name)
        me.seat, me.playing, me.food = seat, True, STARTING_FOOD
    sim = Simulator(
        table,
        {name: [card.name for card in deck.cards] for name, deck in zip(names, decks, strict=True)},
        cards,
        {
            name: STRATEGIES[kind](random.Random(rng.getrandbits(64)), cards)
            for name, kind in zip(names, strategies, strict=True)
        },
        rng,
        observer,
        checker=checker,
        without=without,
    )
    for strategy in sim.strategies.values():
        strategy.game = table
    first = ""
    ending = TURN_CAP
    food: tuple[int, ...] = ()
    try:
        first = _setup(sim, equal_food)
        food = tuple(table.players[name].food or 0 for name in names)
        _play_turns(sim, first, max_turns)
    except GameOver:
        ending = table.losses[-1].reason  # what ended it: the last loss
    remaining = table.in_game()
    return GameResult(
        seed=seed,
        players=tuple(names),
        decks=tuple(deck.name for deck in decks),
        strategies=tuple(strategies),
        first_player=first or table.active or "",
        turns=table.turn,
        ending=ending,
        survivor=remaining[0].name if len(remaining) == 1 else None,
        losses=tuple(
            (loss.player, loss.reason, loss.turn)
            for loss in sorted(table.losses, key=lambda loss: table.order.index(loss.player))
        ),
        actions=tuple(sim.actions),
        opening_food=food,
        cards=tuple(sim.traces[name].figures() for name in names),
    )


def _setup(sim: Simulator, equal_food: bool) -> str:
    """Seats, decks, food bidding (unless ``equal_food``), 7 cards each, opening survivors;
    returns the first player."""
    table, rng = sim.table, sim.rng
    names = table.order
    for name in names:
        sim.record(ActionKind.SIT, name, new=table.players[name].seat)
    sim.record(ActionKind.NEW_GAME, names[0])
    for name in names:
        rng.shuffle(sim.decks[name])
        table.edit(name).deck = len(sim.decks[name])
        sim.record(ActionKind.LOAD_DECK, name)
    if equal_food:
        sim.do(ga.ChooseFirst(names[0], names[0]))
    else:
        _bidding(sim)
    first = table.active or names[0]
    for name in names:
        sim.draw(name, STARTING_HAND, named=False)
        sim.traces[name].opening = frozenset(sim.traces[name].drawn)
    for name in sim.in_turn_order(first):
        deck = sim.decks[name]
        for card in sim.strategy(name).opening([sim.info(n) for n in deck]):
            deck.remove(card.name)
            sim.do(ga.OpeningSurvivor(name, card.name))
            sim.record(ActionKind.PLAY_FROM_DECK, name, card=card.name)
        rng.shuffle(deck)
        sim.record(ActionKind.SHUFFLE, name)
        sim.end_if_over()
    sim.do(ga.EndPhase(first))  # the setup is over: who put out no survivor lost (R2.5)
    sim.end_if_over()
    return first


def _bidding(sim: Simulator) -> None:
    """R2.1, R2.2: the lowest bid wins (the earlier on a tie), starts with that much food and
    chooses the first player."""
    names = sim.table.order
    start = sim.rng.randrange(len(names))
    for name in names[start:] + names[:start]:
        bid = sim.strategy(name).bid()
        sim.do(ga.Bid(name, bid))
        sim.record(ActionKind.BID, name, new=bid)
    bid, winner = bid_winner(sim.table) or (STARTING_FOOD, names[0])
    sim.change_food(winner, bid - STARTING_FOOD, Cause.SETUP)
    sim.do(ga.ChooseFirst(winner, sim.strategy(winner).first_player(winner, names)))


def _play_turns(sim: Simulator, first: str, max_turns: int) -> None:
    table = sim.table
    advancing = first
    for turn in range(1, max_turns + 1):
        if turn > 1:
            sim.do(ga.EndPhase(advancing))
        sim.record(ActionKind.NEXT_TURN, advancing, new=turn, other=table.active)
        for index, phase in enumerate(PHASES):
            if index:
                active = table.active or ""
                sim.do(ga.EndPhase(active))
                sim.record(ActionKind.NEXT_PHASE, active, old=PHASES[index - 1], new=phase)
            _PHASES[phase](sim)
        advancing = table.active or ""


def _ready_phase(sim: Simulator) -> None:
    """Every player readies his spent cards (R4.1); then every infected survivor takes a
    wound (R4.2)."""
    order = sim.in_turn_order(sim.table.active or "")
    for name in order:
        if sim.table.players[name].has_spent_cards():
            sim.do(ga.ReadyAll(name))
            sim.record(ActionKind.READY_ALL, name)
    for name in order:
        for owed in sim.options(name, ga.Wound):
            survivor = sim.me(name).survivor(owed.survivor)
            if owed.cause is Cause.INFECTION and survivor is not None:
                sim.wound(name, survivor, Cause.INFECTION)


def _draw_phase(sim: Simulator) -> None:
    """Every player draws 2 (as one line or two named ones), then discards 1 (R5)."""
    for name in sim.in_turn_order(sim.table.active or ""):
        sim.draw(name, DRAWS, named=sim.rng.random() < 0.5)
        for _ in range(DISCARDS):
            if sim.me(name).lost is None:  # who lost by drawing owes no discard (R14.2)
                sim.discard_from_hand(name, sim.strategy(name).discard(sim.table.players[name]))


def _no_action(sim: Simulator) -> None:
    """The End phase ends "until end of turn" effects (R13.1)."""


_PHASES = {
    READY_PHASE: _ready_phase,
    DRAW_PHASE: _draw_phase,
    BUILD_PHASE: build_phase,
    ATTACK_PHASE: attack_phase,
    RECOUP_PHASE: recoup_phase,
    END_PHASE: _no_action,
}
