"""The clauses of :func:`zcards.game.legal.legal` about abilities, food and the end of a
phase: activated abilities and their costs (R12.1, R16.1), Scavenger and Medic (R12.2,
R12.3) with the text that forbids them, food (R1.8, R2.2, R12.5), upkeep, and a phase that
ends only when it owes nothing (:func:`owed`)."""

from __future__ import annotations

from zcards.game import actions as a
from zcards.game.definition import RECOUP_PHASE, STARTING_FOOD
from zcards.game.effects import Cost, Timing
from zcards.game.ledger import Game, Obligation, Verdict
from zcards.game.legal import (
    bid_winner,
    clause,
    depends,
    granted,
    in_hand,
    no,
    on_board,
    survivor_of,
    turn_phase,
)
from zcards.game.rules import (
    DIE_SIDES,
    DISCARD_COST_RULE,
    MEDIC,
    MEDIC_TEXT_RULE,
    NO_SCAVENGING_RULE,
    SCAVENGER,
    WOUND_RULES,
    discard_cost,
    discard_cost_fault,
    discard_cost_reason,
    medic_heal_fault,
    phase_allows_ability,
    scavenging_ban,
    scavenging_blocker,
)
from zcards.game.table import SETUP


def ability_rows(game: Game, action: a.UseAbility) -> list:
    info = game.cards.get(action.card)
    rows = info.rows(Timing.ACTIVATED) if info is not None else []
    return [row for row in rows if row.clause == action.clause]


@clause(a.UseAbility, name="ability")
def _ability(game: Game, action: a.UseAbility) -> Verdict | None:
    me, rows = game.players[action.player], ability_rows(game, action)
    if not rows:
        return no("R16.1", f"{action.card} has no such ability")
    if rows[0].phase != game.phase:
        return no("R12.1", f"{action.card}'s ability is used in the {rows[0].phase} phase")
    source = action.source
    if isinstance(source, int):
        card = me.survivor(source) or next((i for i in me.items if i.uid == source), None)
        ready = card is not None and card.name == action.card and card.spent is False
    else:
        ready = not source.spent and source.face_up and bool(on_board(me, source))
    if not ready:
        return no("R1.6", f"only a ready {action.card} of his is spent for its ability")
    return None


@clause(a.UseAbility, name="ability-cost")
def _ability_cost(game: Game, action: a.UseAbility) -> Verdict | None:
    """Costs printed on the card: discard a card (an Item: Chef Antoine), spend another
    survivor (a Scavenger)."""
    rows = ability_rows(game, action)
    cost = rows[0].cost if rows else Cost.NONE
    me = game.players[action.player]
    if discard_cost(cost) is not None:
        if action.discard is None or in_hand(me, action.discard) is False:
            return no(DISCARD_COST_RULE, discard_cost_reason(action.card, cost))
        info = game.cards.get(action.discard)
        if info is None:
            return depends(DISCARD_COST_RULE, f"{action.discard} is not in the card data")
        fault = discard_cost_fault(action.card, cost, info, hidden=False)
        if fault is not None:
            return no(DISCARD_COST_RULE, fault)
    if cost in (Cost.SPEND_SELF_AND_SURVIVOR, Cost.SPEND_SELF_AND_SCAVENGER):
        other = me.survivor(action.also) if action.also is not None else None
        if other is None or other.spent or action.also == action.source:
            return no("R16.1", f"{action.card}'s cost spends another ready survivor of his")
        info = game.cards.get(other.name)
        if cost is Cost.SPEND_SELF_AND_SCAVENGER and not (info and info.has_symbol(SCAVENGER)):
            return no("R16.1", f"{action.card}'s cost spends a Scavenger survivor")
    return None


def _symbol(game: Game, player: str, uid: int, symbol: str) -> Verdict | None:
    """R12.1: a ready survivor of his with the symbol, spent in the Recoup phase."""
    if not phase_allows_ability(game.phase):
        return no("R12.1", f"{symbol} abilities are used in the Recoup phase")
    survivor = survivor_of(game, player, uid)
    info = game.cards.get(survivor.name) if survivor is not None else None
    if survivor is None or info is None or not info.has_symbol(symbol) or survivor.spent:
        return no("R12.1", f"only a ready {symbol} survivor of his is spent for it")
    return None


@clause(a.Scavenge, name="scavenger")
def _scavenge(game: Game, action: a.Scavenge) -> Verdict | None:
    return _symbol(game, action.player, action.survivor, SCAVENGER)


@clause(a.Roll, name="roll")
def _roll(game: Game, action: a.Roll) -> Verdict | None:
    if not 1 <= action.result <= DIE_SIDES:
        return no("R12.2", "a die roll is 1 to 6")
    if not granted(game, "Roll", action.player, None, a.Cause.SCAVENGE):
        return no("R12.2", "a die is rolled for a Scavenger attracting attention")
    return None


@clause(a.Scavenge, name="no-scavenging")
def _no_scavenging(game: Game, action: a.Scavenge) -> Verdict | None:
    blocker = scavenging_blocker(game, game.cards)
    return None if blocker is None else no(NO_SCAVENGING_RULE, scavenging_ban(blocker))


@clause(a.Medic, name="medic")
def _medic(game: Game, action: a.Medic) -> Verdict | None:
    found = _symbol(game, action.player, action.survivor, MEDIC)
    if found is not None:
        return found
    target = survivor_of(game, action.player, action.target)
    if target is None or target.wounds == 0:
        return no("R12.3", "a Medic removes a wound from a wounded survivor")
    return None


@clause(a.Medic, name="no-medic-heal")
def _no_medic_heal(game: Game, action: a.Medic) -> Verdict | None:
    target = survivor_of(game, action.player, action.target)
    fault = medic_heal_fault(game.cards.get(target.name) if target is not None else None)
    return None if fault is None else no(MEDIC_TEXT_RULE, fault)


@clause(a.ChangeFood, name="food")
def _food(game: Game, action: a.ChangeFood) -> Verdict | None:
    me = game.players[action.player]
    if action.delta < 0 and me.food_now == 0:
        return no("R1.8", "food never goes below 0")
    if action.cause is a.Cause.SETUP:
        winner = bid_winner(game)
        if (
            game.phase != SETUP
            or winner is None
            or winner[1] != action.player
            or action.delta != winner[0] - STARTING_FOOD
        ):
            return no("R2.2", "the bid winner starts with his bid, everyone else with 10")
        return None
    if action.cause is a.Cause.UPKEEP or not granted(
        game, "ChangeFood", action.player, action.delta, action.cause
    ):
        rule = "R12.2" if action.delta > 0 else "R12.5"
        return no(rule, "food changes only by the rules and card text")
    return None


@clause(a.Upkeep, name="upkeep")
def _upkeep(game: Game, action: a.Upkeep) -> Verdict | None:
    reason = "the active player pays upkeep at the end of his Recoup phase"
    refused = turn_phase(game, action.player, RECOUP_PHASE, "R12.5", reason)
    if refused is None and game.ledger.upkept:
        return no("R12.5", "upkeep is paid once")
    return refused


@clause(a.EndPhase, name="owed")
def _owed(game: Game, action: a.EndPhase) -> Verdict | None:
    left = owed(game, game.phase)
    if left:
        return no(left[0].rule, f"the {game.phase} phase still owes: {left[0].what}")
    return None


def owed(game: Game, phase: str) -> list[Obligation]:
    """What ``phase`` (the current one) still owes: grants that must be used, the opening
    hands and the first player of the setup, Ready All of a player with spent cards, upkeep,
    and dead survivors still in play. A player who lost owes nothing (R14.2)."""
    if phase != game.phase:
        return []
    ledger, found = game.ledger, []
    out = {p.name for p in game.players.values() if p.lost is not None}
    for grant, left in ledger.must.items():
        if grant.player not in out and left > 0:
            rule = WOUND_RULES.get(grant.cause) if grant.kind == "Wound" else None
            rule = rule or _OWED_RULES.get(grant.kind, "R16.1")
            found.append(Obligation(rule, _say(grant, left)))
    for uid, owner in ledger.dying.items():
        found.append(Obligation("R11.1", f"{owner}'s dead survivor {uid} leaves play"))
    if phase == SETUP:
        for me in game.in_game():
            if ledger.opening[me.name] < 7 and me.deck:
                found.append(Obligation("R2.3", f"{me.name} draws his opening hand"))
        if game.active is None:
            found.append(Obligation("R2.2", "the first player is chosen"))
    elif phase == "Ready":
        for me in game.in_game():
            if me.has_spent_cards():
                found.append(Obligation("R4.1", f"{me.name} readies his spent cards"))
    elif phase == RECOUP_PHASE and not ledger.upkept and game.active not in out:
        found.append(Obligation("R12.5", f"{game.active} pays upkeep"))
    return found


_OWED_RULES = {
    "Draw": "R5.1",
    "Discard": "R5.2",
    "Spend": "R10.6",
    "TopToResource": "R12.2",
    "ChangeFood": "R12.2",
    "Roll": "R12.2",
}


def _say(grant: object, left: int) -> str:
    kind, player = getattr(grant, "kind", ""), getattr(grant, "player", "")
    cause = getattr(grant, "cause", "")
    return f"{left} x {kind} of {player or 'a player'} ({cause})"
