"""Play one complete, legal game of Zombie CCG between two decks, deterministic per seed.

Setup follows the rulings (food bidding, 7 cards, opening survivors from the deck); each turn
runs Ready, Draw, Build, Attack, Recoup and End. The result keeps every action in log order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from zcards.cards.model import Card
from zcards.errors import UsageError
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
from zcards.sim.actions import Action, ActionKind
from zcards.sim.combat import attack_phase
from zcards.sim.players import STRATEGIES, Ability
from zcards.sim.simulator import GameOver, Observer, Simulator
from zcards.sim.state import (
    COMBAT_ZONE,
    RESOURCE_ZONE,
    SURVIVOR_ZONE,
    PlayerState,
    SimState,
    TableCard,
    take_out,
)

DEFAULT_NAMES = ("Alice", "Bob")
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

    def deck_of(self, player: str) -> str:
        return self.decks[self.players.index(player)]


def play_game(
    decks: Sequence[DeckList],
    seed: int,
    *,
    names: Sequence[str] = DEFAULT_NAMES,
    strategies: Sequence[str] = ("greedy", "greedy"),
    max_turns: int = DEFAULT_TURN_CAP,
    observer: Observer | None = None,
) -> GameResult:
    """Play ``decks[i]`` as ``names[i]`` with ``strategies[i]`` until one player remains;
    ``observer`` sees the full state after every action."""
    if not len(decks) == len(names) == len(strategies) == 2:
        raise UsageError("a simulated game needs exactly two decks, names and strategies")
    if names[0] == names[1]:
        raise UsageError("the two players need different names")
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        raise UsageError(f"unknown strategy {unknown[0]!r} (choose from {', '.join(STRATEGIES)})")
    rng = random.Random(seed)
    players = [
        PlayerState(name, seat, list(deck.cards), food=STARTING_FOOD)
        for seat, (name, deck) in enumerate(zip(names, decks, strict=True), start=1)
    ]
    sim = Simulator(
        SimState(players),
        {
            name: STRATEGIES[kind](random.Random(rng.getrandbits(64)))
            for name, kind in zip(names, strategies, strict=True)
        },
        rng,
        observer,
    )
    first = ""
    ending = TURN_CAP
    try:
        first = _setup(sim)
        _play_turns(sim, first, max_turns)
    except GameOver:
        ending = next(p.lost for p in players if p.lost is not None)
    remaining = sim.state.remaining
    return GameResult(
        seed=seed,
        players=tuple(names),
        decks=tuple(deck.name for deck in decks),
        strategies=tuple(strategies),
        first_player=first or sim.state.active,
        turns=sim.state.turn,
        ending=ending,
        survivor=remaining[0].name if len(remaining) == 1 else None,
        losses=tuple(
            (p.name, p.lost, sim.loss_turns[p.name]) for p in players if p.lost is not None
        ),
        actions=tuple(sim.state.actions),
    )


def _setup(sim: Simulator) -> str:
    """Seats, decks, food bidding, 7 cards each, opening survivors; returns the first player."""
    state, rng = sim.state, sim.rng
    for player in state.players:
        sim.record(ActionKind.SIT, player, new=player.seat)
    sim.record(ActionKind.NEW_GAME, state.players[0])
    for player in state.players:
        rng.shuffle(player.deck)
        sim.record(ActionKind.LOAD_DECK, player)
    start = rng.randrange(len(state.players))
    bids: list[tuple[int, PlayerState]] = []
    for player in state.players[start:] + state.players[:start]:
        bid = sim.strategy(player).bid()
        bids.append((bid, player))
        sim.record(ActionKind.BID, player, new=bid)
    bid, winner = min(bids, key=lambda entry: entry[0])
    if bid != winner.food:
        sim.record(ActionKind.SET_FOOD, winner, other=winner.name, old=winner.food, new=bid)
        winner.food = bid
    first = sim.strategy(winner).first_player(winner.name, [p.name for p in state.players])
    state.active = first
    for player in state.players:
        sim.draw(player, STARTING_HAND, named=False)
    for player in state.in_turn_order(first):
        for card in sim.strategy(player).opening(player.deck):
            take_out(player.deck, card)
            player.table.append(TableCard(card, player.name, SURVIVOR_ZONE, face_up=True))
            sim.record(ActionKind.PLAY_FROM_DECK, player, card=card.name)
        rng.shuffle(player.deck)
        sim.record(ActionKind.SHUFFLE, player)
        sim.check_loss(player)
    sim.setup_done = True
    for player in state.in_turn_order(first):
        sim.check_loss(player)
    return first


def _play_turns(sim: Simulator, first: str, max_turns: int) -> None:
    state = sim.state
    advancing = first
    for turn in range(1, max_turns + 1):
        state.turn = turn
        state.active = state.next_active() if turn > 1 else first
        sim.record(ActionKind.NEXT_TURN, advancing, new=turn, other=state.active)
        for index, phase in enumerate(PHASES):
            if index:
                sim.record(ActionKind.NEXT_PHASE, state.active, old=PHASES[index - 1], new=phase)
            state.phase = phase
            _PHASES[phase](sim)
        advancing = state.active


def _ready_phase(sim: Simulator) -> None:
    """Every player readies his spent cards; then every infected survivor takes a wound."""
    order = sim.state.in_turn_order(sim.state.active)
    for player in order:
        if any(card.spent for card in player.table):
            for card in player.table:
                card.spent = False
            sim.record(ActionKind.READY_ALL, player)
    for player in order:
        for survivor in player.survivors:
            if survivor.infected_by is not None:
                sim.wound(player, survivor)


def _draw_phase(sim: Simulator) -> None:
    """Every player draws 2 (as one line or two named ones), then discards 1."""
    for player in sim.state.in_turn_order(sim.state.active):
        sim.draw(player, 2, named=sim.rng.random() < 0.5)
        sim.discard_from_hand(player, sim.strategy(player).discard(player))


def _build_phase(sim: Simulator) -> None:
    """One resource per player; the active player plays survivors and items; upgrades."""
    active = sim.state.active
    for player in sim.state.in_turn_order(active):
        strategy = sim.strategy(player)
        resource = strategy.resource(player)
        if resource is not None:
            take_out(player.hand, resource)
            player.table.append(TableCard(resource, player.name, RESOURCE_ZONE, face_up=False))
            sim.record(ActionKind.PLAY_RESOURCE, player, card=resource.name, face_down=True)
        while player.name == active and (card := strategy.play(player, player.playable())):
            sim.pay(player, card.cost or 0)
            take_out(player.hand, card)
            played = TableCard(card, player.name, SURVIVOR_ZONE, face_up=True)
            player.table.append(played)
            sim.record(ActionKind.PLAY_FROM_HAND, player, card=card.name)
            if is_one_shot(card):
                take_out(player.table, played)
                player.discard.append(card)
                sim.record(ActionKind.TO_DISCARD, player, card=card.name)
        while zombie := strategy.upgrade(player, player.upgradable()):
            zombie.face_up = True
            sim.record(ActionKind.FLIP, player, card=zombie.name)


def is_one_shot(card: Card) -> bool:
    """One-shot items go to the discard pile as soon as they are used (R7.5)."""
    return card.type == "Item" and "one-shot" in card.text.casefold()


def _recoup_phase(sim: Simulator) -> None:
    """Abilities, then zombies to the combat zone, then food upkeep and starvation."""
    me = sim.state.player(sim.state.active)
    strategy = sim.strategy(me)
    while ability := strategy.ability(me, _abilities(me)):
        sim.spend(me, ability.user)
        if ability.kind == "heal" and ability.target is not None:
            ability.target.wounds -= 1
            sim.record(
                ActionKind.HEAL,
                me,
                card=ability.target.name,
                old=ability.target.wounds + 1,
                new=ability.target.wounds,
            )
        else:
            _scavenge(sim, me)
    movable = [zombie for zombie in me.ready_zombies if zombie.zone == RESOURCE_ZONE]
    for zombie in strategy.to_combat(me, movable):
        sim.spend(me, zombie)
        zombie.zone = COMBAT_ZONE
        sim.record(
            ActionKind.TO_COMBAT, me, card=zombie.name, face_down=not zombie.face_up, old=0, new=1
        )
        if zombie.has_keyword("Fast"):
            zombie.spent = False
            sim.record(ActionKind.READY, me, card=zombie.name)
    if me.food > 0:
        me.food -= 1
        sim.record(ActionKind.SET_FOOD, me, other=me.name, old=me.food + 1, new=me.food)
    for _ in range(len(me.survivors) - me.food):
        sim.wound(me, strategy.starve(me))


def _scavenge(sim: Simulator, me: PlayerState) -> None:
    """Roll a die: 2-6 gains a food; a 1 gives every zombie player his top card as a resource."""
    roll = sim.rng.randint(1, 6)
    sim.record(ActionKind.ROLL, me, new=roll)
    if roll >= 2:
        me.food += 1
        sim.record(ActionKind.SET_FOOD, me, other=me.name, old=me.food - 1, new=me.food)
        return
    for zombie_player in sim.zombie_players():
        sim.play_top_face_down(zombie_player)


def _abilities(me: PlayerState) -> list[Ability]:
    """Scavenger and Medic uses open to the active player's ready survivors."""
    options: list[Ability] = []
    wounded = [survivor for survivor in me.survivors if survivor.wounds > 0]
    for survivor in me.survivors:
        if survivor.spent:
            continue
        if "scavenger" in survivor.symbols:
            options.append(Ability("scavenge", survivor))
        if "medic" in survivor.symbols:
            options.extend(Ability("heal", survivor, target) for target in wounded)
    return options


def _no_action(sim: Simulator) -> None:
    """The End phase only ends "until end of turn" effects, which the simulator never creates."""


_PHASES = {
    READY_PHASE: _ready_phase,
    DRAW_PHASE: _draw_phase,
    BUILD_PHASE: _build_phase,
    ATTACK_PHASE: attack_phase,
    RECOUP_PHASE: _recoup_phase,
    END_PHASE: _no_action,
}
