"""The clauses of ``legal`` that no player's choice exercises (the effects of draws, wounds,
deaths, food and phases the simulator plays as the rules owe them): at moments of simulated
games, an action each clause forbids is refused with its rule, and with that clause switched
off the verdict changes (so a deleted clause fails this test)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.executor_games import MUTANTS, Refusals, games, seated_games

from zcards.game import actions as a
from zcards.game.actions import Cause
from zcards.game.executor import legal
from zcards.game.ledger import Game
from zcards.game.zombies import zombies_of

Probe = Callable[[Game], a.Action | None]


def _active(game: Game):
    return game.players.get(game.active or "")


def _in(phase: str, make: Probe) -> Probe:
    return lambda game: make(game) if game.phase == phase and _active(game) is not None else None


def _survivor_action(make: Callable[[str, int], a.Action]) -> Probe:
    def probe(game: Game) -> a.Action | None:
        me = _active(game)
        return make(me.name, me.survivors[0].uid) if me is not None and me.survivors else None

    return probe


def _attacker_spend(game: Game) -> a.Action | None:
    for me in game.in_game():
        for zombie in zombies_of(me.zombies.board):
            if not zombie.spent and me.name != game.active:
                return a.Spend(me.name, zombie, Cause.FIGHT)
    return None


def _loser(game: Game) -> str | None:
    """A player who bid and did not win the bid."""
    bids = game.ledger.bids
    winner = min(bids, key=lambda entry: entry[0])[1] if bids else None
    return next((who for _, who in bids if who != winner), None)


def _zombie_player(game: Game) -> str | None:
    return next((p.name for p in game.in_game() if p.name != game.active), None)


PROBES: dict[str, tuple[str, Probe]] = {  # clause -> (its rule, an action it forbids)
    "draw": ("R5.3", _in("Build", lambda g: a.Draw(g.active or "", None, Cause.RULE))),
    "discard": (
        "R5.2",
        _in("Build", lambda g: a.Discard(g.active or "", None, Cause.RULE)),
    ),
    "wound-cause": (
        "R10.8",
        _in("Build", _survivor_action(lambda p, u: a.Wound(p, u, Cause.FIGHT))),
    ),
    "heal-cause": ("R16.1", _in("Build", _survivor_action(lambda p, u: a.Heal(p, u, Cause.TEXT)))),
    "infect": ("R10.7", _in("Build", _survivor_action(lambda p, u: a.Infect(p, u, "Bob")))),
    "cure": ("R16.1", _in("Build", _survivor_action(lambda p, u: a.Cure(p, u)))),
    "dead": ("R11.1", _in("Build", _survivor_action(lambda p, u: a.Bury(p, u)))),
    "survivor": ("R11.1", _in("Build", lambda g: a.Wound(g.active or "", -1, Cause.FIGHT))),
    "food": ("R12.2", _in("Build", lambda g: a.ChangeFood(g.active or "", 1, Cause.TEXT))),
    "upkeep": ("R12.5", _in("Build", lambda g: a.Upkeep(g.active or ""))),
    "roll": ("R12.2", _in("Recoup", lambda g: a.Roll(g.active or "", 3))),
    "ready-all": ("R4.1", _in("Build", lambda g: a.ReadyAll(g.active or ""))),
    "assign": ("R10.3", _in("Build", lambda g: a.AssignFights(g.active or "", ()))),
    "resolve": ("R10.4", _in("Attack", lambda g: a.Resolve(g.active or "", -1))),
    "effect-zombie": ("R10.6", _in("Build", _attacker_spend)),
    "top-to-resource": (
        "R6.3",
        _in(
            "Build",
            lambda g: (
                a.TopToResource(z, None, Cause.SCAVENGE) if (z := _zombie_player(g)) else None
            ),
        ),
    ),
    "setup": ("R2.1", _in("Build", lambda g: a.Bid(g.active or "", 5))),
    "owed": (
        "R5.1",
        lambda g: a.EndPhase(g.active or "") if g.phase == "Draw" and g.ledger.must else None,
    ),
    "play": (
        "R7.1",
        _in(
            "Draw",
            lambda g: next(
                (
                    a.Play(g.active or "", n)
                    for n in sorted(_active(g).hand_names)
                    if g.cards.get(n).type == "Survivor"
                ),
                None,
            ),
        ),
    ),
    "resource": (
        "R6.2",
        _in(
            "Recoup",
            lambda g: next(
                (a.PlayResource(g.active or "", n) for n in sorted(_active(g).hand_names)), None
            ),
        ),
    ),
    "discard-to-resource": (
        "R16.1",
        _in("Build", lambda g: a.DiscardToResource(g.active or "", "No Such Card")),
    ),
    "bid": ("R2.1", lambda g: a.Bid("Alice", 11) if g.phase == "Setup" else None),
    "first": (
        "R2.2",
        lambda g: a.ChooseFirst(_loser(g), "Alice") if g.ledger.bids and _loser(g) else None,
    ),
    "opening": (
        "R2.4",
        lambda g: (
            a.OpeningSurvivor("Alice", "Sprinter") if g.active and g.phase == "Setup" else None
        ),
    ),
    "untargetable": (
        "R16.1",
        lambda g: next(
            (
                a.Spend(p.name, z, Cause.TEXT, p.name)
                for p in g.in_game()
                for z in zombies_of(p.zombies.board)
                if z.combat and not z.spent
            ),
            None,
        ),
    ),
    "hand": ("R6.1", _in("Build", lambda g: a.PlayResource(g.active or "", "No Such Card"))),
}


def test_every_clause_has_a_probe_or_a_mutant():
    from zcards.game.legal import CLAUSES

    names = {name for clauses in CLAUSES.values() for name, _ in clauses}
    assert names - set(PROBES) - set(MUTANTS) == {"lost"}  # probed in games of three below


class Probing(Refusals):
    """Checks every action, and before each one tries every probe: ``seen[clause]`` counts
    the probes refused with the clause's rule, and those the clause decided (the verdict
    changes with it switched off; another clause may refuse a probe first)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = {name: [0, 0] for name in PROBES}

    def check(self, game: Game, action: a.Action) -> None:
        super().check(game, action)
        for name, (rule, probe) in PROBES.items():
            tried = probe(game)
            if tried is None:
                continue
            verdict = legal(game, tried)
            if verdict.allowed is False and verdict.rule == rule:
                self.seen[name][0] += 1
                self.seen[name][1] += legal(game, tried, without={name}) != verdict


@pytest.fixture(scope="module")
def probed(bundled_cards):
    probing = Probing()
    for _ in games(bundled_cards, 1, seed=22, refusals=probing):
        pass
    assert not probing.counts, probing.examples
    return probing.seen


@pytest.mark.parametrize("clause", sorted(PROBES))
def test_a_probed_clause_refuses_and_only_it(clause, probed):
    refused, decided = probed[clause]
    assert refused > 0, f"{clause}: no probe was refused with its rule"
    assert decided > 0, f"{clause}: switched off, no probe's verdict changed"


class LostProbe(Refusals):
    """In games of three, an action of a player who lost: refused by the clause "lost"."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = self.decided = 0

    def check(self, game: Game, action: a.Action) -> None:
        super().check(game, action)
        for me in game.players.values():
            if me.lost is not None:
                tried = a.ChangeFood(me.name, 1, Cause.SCAVENGE)
                verdict = legal(game, tried)
                self.refused += verdict.rule == "R14.2"
                self.decided += legal(game, tried, without={"lost"}) != verdict


def test_a_player_who_lost_takes_no_game_action():
    probe = LostProbe()
    for _ in seated_games(3, 3, 8, probe):
        pass
    assert not probe.counts, probe.examples
    assert probe.refused > 0 and probe.decided == probe.refused
