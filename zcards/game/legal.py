"""``legal(game, action)``: whether the rules and the cards' text allow an action now.

Each rule is one *clause*: a small function of the game and the action that returns a refusal
(a :class:`~zcards.game.ledger.Verdict` naming the rule and the reason) or None. An action's
clauses are tried in order; the first refusal is the verdict, and a clause that cannot decide
because the observer does not see something says so (``allowed=None``). Clauses are named so a
check can switch one off (``legal(game, action, without={"fast"})``) and see what then breaks:
the mutation check of the simulator's cross-check. The decisions themselves are those of
:mod:`zcards.game.rules` and :mod:`zcards.game.fights`; this module only asks them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from zcards.game import actions as a
from zcards.game.definition import (
    BUILD_PHASE,
    DRAW_PHASE,
    RECOUP_PHASE,
    STARTING_HAND,
)
from zcards.game.effects import Effect
from zcards.game.ledger import ALLOWED, Game, Verdict
from zcards.game.rules import (
    READY_RULE,
    RESOURCE_PLAYS,
    bid_allowed,
    can_play,
    can_upgrade,
    draws_allowed,
    keyword_counts,
    missing_requirements,
    opening_fits,
    readies,
    ready_fault,
)
from zcards.game.table import SETUP, Player, Survivor
from zcards.game.zombies import HIDDEN, SLOTS, Zombie, zombies_of

Clause = Callable[[Game, Any], Verdict | None]
CLAUSES: dict[type, list[tuple[str, Clause]]] = {}
"""Each action type's clauses, in the order they are tried."""


def clause(*kinds: type, name: str) -> Callable[[Clause], Clause]:
    def register(check: Clause) -> Clause:
        for kind in kinds:
            CLAUSES.setdefault(kind, []).append((name, check))
        return check

    return register


def legal(game: Game, action: a.Action, *, without: Collection[str] = ()) -> Verdict:
    """Whether ``action`` is legal on ``game`` now (clauses named in ``without`` skipped)."""
    doubt: Verdict | None = None
    for name, check in CLAUSES.get(type(action), ()):
        if name in without:
            continue
        verdict = check(game, action)
        if verdict is None:
            continue
        if verdict.allowed is False:
            return verdict
        doubt = doubt or verdict
    return doubt or ALLOWED


def no(rule: str, reason: str) -> Verdict:
    return Verdict(False, rule, reason)


def depends(rule: str, reason: str) -> Verdict:
    return Verdict(None, rule, reason)


# -- what the table holds ------------------------------------------------------------------


def survivor_of(game: Game, player: str, uid: int) -> Survivor | None:
    me = game.players.get(player)
    return me.survivor(uid) if me is not None else None


def on_board(me: Player, zombie: Zombie) -> bool | None:
    """Whether this zombie card is on his board (None: his board is not known)."""
    for board in me.zombies.readings:
        if zombie.face_up:
            if zombie.up in board.up:
                return True
            continue
        cards = board[SLOTS[(zombie.combat, zombie.spent)]]
        if zombie.name in cards or HIDDEN in cards:
            return True
    return None if me.zombies.unknown else False


def in_hand(me: Player, card: str | None) -> bool | None:
    """Whether ``card`` is in his hand (None: the observer cannot tell)."""
    if me.hand is not None and me.hand <= 0:
        return False
    if card is None or card in me.hand_names:
        return True
    if me.hand is None or me.hand > sum(me.hand_names.values()):
        return None
    return False


def turn_phase(game: Game, player: str, phase: str, rule: str, reason: str) -> Verdict | None:
    """An action of the active player's own turn, in one phase of it."""
    return None if game.phase == phase and player == game.active else no(rule, reason)


def granted(game: Game, kind: str, player: str | None, target: object, cause: a.Cause) -> bool:
    return game.ledger.find(kind, player or "", target, cause) is not None


# -- every action ------------------------------------------------------------------------


@clause(*(k for k in a.Action.__args__ if k is not a.EndPhase), name="lost")
def _not_lost(game: Game, action: Any) -> Verdict | None:
    me = game.players.get(action.player)
    if me is not None and me.lost is not None:
        return no("R14.2", f"{action.player} has lost and takes no further game action")
    return None


# -- setup (R2) ----------------------------------------------------------------------------


@clause(a.Bid, a.ChooseFirst, a.OpeningSurvivor, name="setup")
def _in_setup(game: Game, action: Any) -> Verdict | None:
    return None if game.phase == SETUP else no("R2.1", "setup actions happen before turn 1")


@clause(a.Bid, name="bid")
def _bid(game: Game, action: a.Bid) -> Verdict | None:
    if not bid_allowed(action.amount):
        return no("R2.1", f"a bid of {action.amount} is not 0 to 10")
    if any(who == action.player for _, who in game.ledger.bids):
        return no("R2.1", f"{action.player} bid already")
    return None


def bid_winner(game: Game) -> tuple[int, str] | None:
    """R2.2: the lowest bid, the earlier on a tie."""
    bids = game.ledger.bids
    return min(bids, key=lambda entry: entry[0]) if bids else None


@clause(a.ChooseFirst, name="first")
def _first(game: Game, action: a.ChooseFirst) -> Verdict | None:
    winner = bid_winner(game)
    if winner is not None and winner[1] != action.player:
        return no("R2.2", f"{winner[1]} won the bid and chooses the first player")
    if action.first not in game.players:
        return no("R2.2", f"{action.first} is not a player")
    return None


@clause(a.OpeningSurvivor, name="opening")
def _opening(game: Game, action: a.OpeningSurvivor) -> Verdict | None:
    info = game.cards.get(action.card)
    if info is None:
        return depends("R2.4", f"{action.card} is not in the card data")
    if info.type != "Survivor":
        return no("R2.4", f"{action.card} is not a survivor")
    costs = [game.cards.get(s.name) for s in game.players[action.player].survivors]
    if not opening_fits([*(c.cost for c in costs if c is not None), info.cost]):
        return no("R2.4", "opening survivors cost at most 6 together")
    return None


# -- draws and discards (R2.3, R5) ---------------------------------------------------------


@clause(a.Draw, name="draw")
def _draw(game: Game, action: a.Draw) -> Verdict | None:
    me = game.players[action.player]
    if me.deck == 0:
        return no("R14.1", f"{action.player}'s deck is empty")
    if action.cause is a.Cause.SETUP:
        if game.phase != SETUP or game.ledger.opening[action.player] >= STARTING_HAND:
            return no("R2.3", "an opening hand is 7 cards")
        return None
    if action.cause is a.Cause.RULE and not draws_allowed(game.phase):
        return no("R5.3", "cards are drawn in the Draw phase unless card text says otherwise")
    if not granted(game, "Draw", action.player, None, action.cause):
        rule = "R5.1" if action.cause is a.Cause.RULE else "R5.3"
        return no(rule, f"no draw is owed or allowed to {action.player} now")
    return None


@clause(a.Discard, name="discard")
def _discard(game: Game, action: a.Discard) -> Verdict | None:
    found = in_hand(game.players[action.player], action.card)
    if found is False:
        return no("R5.2", f"{action.card or 'a card'} is not in {action.player}'s hand")
    if action.cause is a.Cause.RULE:
        if game.phase != DRAW_PHASE:
            return no("R5.2", "the discard of the Draw phase happens in it")
        if game.ledger.find("Draw", action.player, None, a.Cause.RULE) is not None:
            return no("R5.2", f"{action.player} discards after his two draws")
    if not granted(game, "Discard", action.player, None, action.cause):
        return no("R5.2", f"no discard is owed or allowed to {action.player} now")
    return None if found else depends("R5.2", "a card of his hand the observer does not see")


# -- building (R6 - R8) --------------------------------------------------------------------


@clause(a.PlayResource, a.Play, name="hand")
def _from_hand(game: Game, action: Any) -> Verdict | None:
    found = in_hand(game.players[action.player], action.card)
    if found is False:
        return no("R6.1", f"{action.card or 'a card'} is not in {action.player}'s hand")
    return None if found else depends("R6.1", "a card of his hand the observer does not see")


@clause(a.PlayResource, name="resource")
def _resource(game: Game, action: a.PlayResource) -> Verdict | None:
    if game.phase != BUILD_PHASE:
        return no("R6.2", "resources are played in the Build phase")
    if game.ledger.resources[action.player] >= RESOURCE_PLAYS:
        return no("R6.1", f"{action.player} played a resource this turn already")
    return None


@clause(a.Play, name="play")
def _play(game: Game, action: a.Play) -> Verdict | None:
    me, info = game.players[action.player], game.cards.get(action.card)
    if info is None:
        return depends("R7.3", f"{action.card} is not in the card data")
    if not can_play(info, me, game):
        return no("R7.1", f"{action.card} is played by the active player in his Build phase")
    if info.card.requirements and missing_requirements(info, keyword_counts(me, game.cards)):
        return no("R7.4", f"the requirement of {action.card} is not met")
    if action.host is not None and me.survivor(action.host) is None:
        return no("R7.3", f"{action.card} is attached to a survivor of {action.player}'s")
    return None


@clause(a.Play, name="pay")
def _pay(game: Game, action: a.Play) -> Verdict | None:
    info, me = game.cards.get(action.card), game.players[action.player]
    if info is not None and len(action.paid) != info.cost:
        return no("R7.3", f"{action.card} costs {info.cost} spent zombies")
    board = list(zombies_of(me.zombies.board))
    for zombie in action.paid:
        if zombie.spent or zombie not in board:
            return no("R7.3", f"{zombie.name or 'a face-down card'} is not a ready zombie of his")
        board.remove(zombie)
    return None


@clause(a.Upgrade, name="upgrade")
def _upgrade(game: Game, action: a.Upgrade) -> Verdict | None:
    me, zombie = game.players[action.player], action.zombie
    if game.phase != BUILD_PHASE:
        return no("R8.2", "zombies are upgraded in a Build phase")
    if zombie.face_up or not on_board(me, zombie):
        return no("R8.1", "only a face-down card of his own is turned face up")
    info = game.cards.get(zombie.name)
    if not can_upgrade(info):
        return no("R8.3", f"{zombie.name or 'a hidden card'} is not a Zombie card")
    assert info is not None
    if info.card.requirements and missing_requirements(info, keyword_counts(me, game.cards)):
        return no("R8.1", f"the requirement of {zombie.name} is not met")
    return None


# -- rotation and moves (R4.1, R9) -----------------------------------------------------------


@clause(a.ToCombat, name="to-combat")
def _to_combat(game: Game, action: a.ToCombat) -> Verdict | None:
    reason = "zombies move to combat in their controller's Recoup phase"
    refused = turn_phase(game, action.player, RECOUP_PHASE, "R9.1", reason)
    if refused is not None:
        return refused
    zombie = action.zombie
    if zombie.spent or zombie.combat or not on_board(game.players[action.player], zombie):
        return no("R9.1", "only a ready zombie of his resource zone moves to combat")
    return None


@clause(a.ReadyAll, name="ready-all")
def _ready_all(game: Game, action: a.ReadyAll) -> Verdict | None:
    return None if readies(game.phase) else no("R4.1", "Ready All is the Ready phase's")


@clause(a.Ready, name="fast")
def _ready(game: Game, action: a.Ready) -> Verdict | None:
    zombie = action.zombie
    if not zombie.spent or not on_board(game.players[action.player], zombie):
        return no("R4.1", "only a spent zombie of his is readied")
    info = game.cards.get(zombie.name) if zombie.face_up and not zombie.generic else None
    arrived = granted(game, "Ready", action.player, zombie, a.Cause.TEXT)  # Fast (R9.2)
    fault = ready_fault(game.phase, info, arrived=arrived, spent_here=False)
    return None if fault is None else no(READY_RULE, fault)


@clause(a.Spend, a.ZombieToDiscard, name="effect-zombie")
def _effect_zombie(game: Game, action: Any) -> Verdict | None:
    zombie = action.zombie
    if not on_board(game.players[action.player], zombie) or (
        isinstance(action, a.Spend) and zombie.spent
    ):
        return no("R10.6", f"{zombie.name or 'a face-down card'} is no such zombie of his")
    kind = type(action).__name__
    if not granted(game, kind, action.player, zombie, action.cause):
        rule = "R10.6" if action.cause is a.Cause.FIGHT else "R16.1"
        return no(rule, f"nothing lets {zombie.name or 'a face-down card'} be {kind} now")
    return None


@clause(a.Spend, name="untargetable")
def _untargetable(game: Game, action: a.Spend) -> Verdict | None:
    zombie = action.zombie
    if action.cause is not a.Cause.TEXT:
        return None
    if not zombie.combat or action.player == action.by:
        return no("R16.1", "card text spends another player's zombie in a combat zone")
    info = game.cards.get(zombie.name) if zombie.face_up and not zombie.generic else None
    source = game.cards.get(action.card)
    by_survivor = source is not None and source.type == "Survivor"
    if info is not None and (
        info.has(Effect.NO_TARGETING) or (by_survivor and info.has(Effect.NO_SURVIVOR_SPENDS))
    ):
        return no("R16.1", f"{info.name}'s text forbids {action.card or 'its text'} spending it")
    return None


@clause(a.TopToResource, name="top-to-resource")
def _top(game: Game, action: a.TopToResource) -> Verdict | None:
    if game.players[action.player].deck == 0:
        return no("R14.1", f"{action.player}'s deck is empty")
    if not granted(game, "TopToResource", action.player, None, action.cause):
        return no("R6.3", "a card reaches the table from a deck only when a rule or card says so")
    return None


@clause(a.DiscardToResource, name="discard-to-resource")
def _from_discard(game: Game, action: a.DiscardToResource) -> Verdict | None:
    info = game.cards.get(action.card)
    if action.card not in game.players[action.player].discard or info is None:
        return no("R16.1", f"{action.card} is not in {action.player}'s discard pile")
    if info.type != "Zombie" or not granted(
        game, "DiscardToResource", action.player, None, a.Cause.TEXT
    ):
        return no("R16.1", f"nothing lets {action.card} come back from the discard pile")
    return None
