"""The clauses of :func:`zcards.game.legal.legal` about fights and their results: declaring
fights (R10.3), wounds that need a cause, heals, infection and death (R10 - R11)."""

from __future__ import annotations

from typing import Any

from zcards.game import actions as a
from zcards.game.definition import ATTACK_PHASE
from zcards.game.effects import Effect
from zcards.game.fights import may_fight
from zcards.game.ledger import Game, Verdict
from zcards.game.legal import clause, granted, no, on_board, survivor_of, turn_phase
from zcards.game.power import Fight, Fighter, Powers
from zcards.game.rules import (
    TAKE_OVER,
    TAKE_OVER_RULE,
    WOUND_RULE,
    WOUND_RULES,
    may_be_infected,
    take_over_fault,
    wound_fault,
)
from zcards.game.zombies import HIDDEN, Zombie


def fighter(owner: str, zombie: Zombie) -> Fighter:
    """A zombie as a fight sees it: a face-down one is a nameless generic zombie."""
    return Fighter(zombie.name if zombie.face_up else HIDDEN, owner, zombie.generic)


def attacking(game: Game, owner: str, zombie: Zombie) -> bool:
    """R10.1: a zombie player's ready zombie in his combat zone."""
    me = game.players.get(owner)
    return (
        me is not None
        and owner != game.active
        and me.lost is None
        and zombie.combat
        and not zombie.spent
        and bool(on_board(me, zombie))
    )


@clause(a.AssignFights, name="assign")
def _assign(game: Game, action: a.AssignFights) -> Verdict | None:
    reason = "the survivor player declares fights in his Attack phase"
    refused = turn_phase(game, action.player, ATTACK_PHASE, "R10.3", reason)
    if refused is not None:
        return refused
    if game.ledger.assigned:
        return no("R10.3", "fights are declared once an Attack phase")
    survivors: set[int] = set()
    zombies: list[tuple[str, Zombie]] = []
    for fight in action.fights:
        if fight.survivor in survivors or survivor_of(game, action.player, fight.survivor) is None:
            return no("R10.3", "each of his survivors is in at most one fight")
        survivors.add(fight.survivor)
        for owner, zombie in fight.zombies:
            if not attacking(game, owner, zombie):
                return no("R10.1", f"{zombie.name or 'a face-down card'} is not attacking")
            zombies.append((owner, zombie))
    board_counts: dict[tuple[str, Zombie], int] = {}
    for key in zombies:
        board_counts[key] = board_counts.get(key, 0) + 1
    for (owner, zombie), used in board_counts.items():
        board = game.players[owner].zombies.board
        copies = sum(1 for u in board.up if u == zombie.up) if zombie.face_up else len(board.cr)
        if used > copies:
            return no("R10.3", "each zombie is in at most one fight")
    return None


@clause(a.AssignFights, name="fight-text")
def _fight_text(game: Game, action: a.AssignFights) -> Verdict | None:
    powers = Powers(game.cards, game)
    for plan in action.fights:
        survivor = survivor_of(game, action.player, plan.survivor)
        assert survivor is not None
        fight = Fight(survivor, action.player, tuple(fighter(o, z) for o, z in plan.zombies))
        if not may_fight(fight, powers):
            return no("R16.1", f"a zombie's text forbids {survivor.name} to fight it")
        first = plan.zombies[0][1] if plan.zombies else None
        info = game.cards.get(first.name) if first is not None and first.face_up else None
        if plan.blocked and info is not None and info.has(Effect.NO_BLOCKING):
            return no("R16.1", f"{info.name}'s text forbids assigning survivors to fight it")
    return None


@clause(a.Resolve, name="resolve")
def _resolve(game: Game, action: a.Resolve) -> Verdict | None:
    if action.survivor not in game.ledger.fights:
        return no("R10.4", "only a declared fight is fought, once")
    if survivor_of(game, action.player, action.survivor) is None:
        return no("R10.4", "a fight of a survivor no longer in play is not fought")
    return None


@clause(a.Wound, a.Heal, a.Infect, a.Cure, a.Bury, a.TakeControl, name="survivor")
def _exists(game: Game, action: Any) -> Verdict | None:
    owner = action.owner if isinstance(action, a.TakeControl) else action.player
    if survivor_of(game, owner, action.survivor) is None:
        return no("R11.1", f"no such survivor of {owner}'s is in play")
    return None


@clause(a.Wound, name="wound-cause")
def _wound(game: Game, action: a.Wound) -> Verdict | None:
    by_text = action.cause is a.Cause.TEXT
    fault = wound_fault(game.phase, active=action.player == game.active, by_text=by_text)
    if fault is not None:
        return no(WOUND_RULE, fault)
    if not granted(game, "Wound", action.player, action.survivor, action.cause):
        rule = WOUND_RULES.get(action.cause, WOUND_RULE)
        return no(rule, f"no {action.cause} owes or allows this wound")
    return None


@clause(a.Heal, name="heal-cause")
def _heal(game: Game, action: a.Heal) -> Verdict | None:
    survivor = survivor_of(game, action.player, action.survivor)
    if survivor is not None and survivor.wounds == 0:
        return no("R12.3", f"{survivor.name} has no wound to remove")
    if not granted(game, "Heal", action.player, action.survivor, action.cause):
        return no("R16.1", "no Medic or card text removes this wound")
    return None


@clause(a.Infect, name="infect")
def _infect(game: Game, action: a.Infect) -> Verdict | None:
    survivor = survivor_of(game, action.player, action.survivor)
    assert survivor is not None
    if survivor.infected or not may_be_infected(game.cards.get(survivor.name)):
        return no("R10.7", f"{survivor.name} cannot take an Infected token now")
    if not granted(game, "Infect", action.player, action.survivor, a.Cause.FIGHT):
        return no("R10.7", "only an Infectious zombie that won its fight infects")
    return None


@clause(a.Cure, name="cure")
def _cure(game: Game, action: a.Cure) -> Verdict | None:
    survivor = survivor_of(game, action.player, action.survivor)
    if survivor is not None and survivor.infected is False:
        return no("R16.1", f"{survivor.name} has no Infected token")
    if not granted(game, "Cure", action.player, action.survivor, a.Cause.TEXT):
        return no("R16.1", "only card text removes an Infected token")
    return None


def takes_over(game: Game, owner: str, uid: int) -> str | None:
    """R11.3: who gains control of this dead survivor (its infecter, if still in the game)."""
    survivor = survivor_of(game, owner, uid)
    taker = survivor.infected_by if survivor is not None and survivor.infected else None
    me = game.players.get(taker) if taker is not None else None
    return taker if me is not None and me.lost is None else None


@clause(a.Bury, a.TakeControl, name="dead")
def _dead(game: Game, action: Any) -> Verdict | None:
    owner = action.owner if isinstance(action, a.TakeControl) else action.player
    dead = game.ledger.dying.get(action.survivor) == owner
    survivor = survivor_of(game, owner, action.survivor)
    if isinstance(action, a.TakeControl) and survivor is not None:
        health = Powers(game.cards, game).health(owner, survivor)
        wounds = None if dead else survivor.wounds
        fault = take_over_fault(survivor.infected, wounds, health, overwhelmed=False)
        if fault is not None:
            return no(TAKE_OVER_RULE, f"{fault}: {TAKE_OVER}")
    if not dead:
        return no("R11.1", "only a dead survivor leaves play")
    taker = takes_over(game, owner, action.survivor)
    if isinstance(action, a.TakeControl) and taker != action.player:
        return no("R11.3", f"only the player who infected it gains control of it ({taker})")
    if isinstance(action, a.Bury) and taker is not None:
        return no("R11.3", f"an infected survivor goes to {taker}, not the discard pile")
    return None
