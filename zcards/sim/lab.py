"""The balance lab's games: every pair of decks in both seats, under each setup, for the cards
as printed and for each variant of them, spread over processes.

Each game's seed comes from the batch seed, the setup, the two decks in their seats and the
game's number, never from the variant or the process that plays it: a variant replays the
same games with its changed cards, and the result is the same for any number of processes.
A task plays its games once for every variant, so each variant's game is compared with the
same game as printed as it is played (did its winner change; did anything) and no game is
kept. The tasks are made as the workers take them (``--games 100000000`` holds no task
list), and the workers die with the process that runs the lab (:mod:`zcards.processes`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from zcards.errors import UsageError
from zcards.game.cards import CardIndex
from zcards.processes import cpu_count, map_in_processes
from zcards.sim.batch import game_seed
from zcards.sim.game import DEFAULT_TURN_CAP, DeckList, GameResult, play_game
from zcards.sim.tally import EQUAL_FOOD, SETUPS, Tally

SHARE = 20  # games per task: small enough to keep every process busy to the end
Share = tuple[str, tuple[int, int], int, int]  # setup, pair of deck indexes, first game, end


@dataclass(frozen=True)
class Plan:
    """What to play: ``variants[v]`` is one version of the decks (the first as printed)."""

    variants: tuple[tuple[DeckList, ...], ...]
    games: int  # per pair of decks, seat order and setup
    seed: int = 0
    strategy: str = "greedy"
    max_turns: int = DEFAULT_TURN_CAP
    others: tuple[str, ...] = ()  # per variant after the first: its players' strategy ("": ours)

    def strategy_of(self, variant: int) -> str:
        """The players of ``variant``: the plan's, unless that variant plays under another."""
        other = self.others[variant - 1] if 0 < variant <= len(self.others) else ""
        return other or self.strategy

    def pairs(self) -> list[tuple[int, int]]:
        """Every ordered pair of different decks: each deck in each seat against each other."""
        return list(itertools.permutations(range(len(self.variants[0])), 2))

    def total(self) -> int:
        return len(self.variants) * len(SETUPS) * len(self.pairs()) * self.games

    def shares(self) -> Iterator[Share]:
        """(setup, pair, first game, end) for each task; a task plays every variant."""
        for setup in SETUPS:
            for pair in self.pairs():
                for start in range(0, self.games, SHARE):
                    yield setup, pair, start, min(start + SHARE, self.games)


def check_decks(decks: Sequence[DeckList]) -> None:
    names = [deck.name for deck in decks]
    if len(names) < 2:
        raise UsageError(f"a balance run needs at least two decks, got {len(names)}")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise UsageError(f"two decks are called {repeated[0]!r}: give each deck file its own name")


def max_jobs() -> int:
    """The most processes a lab may use: twice the cores (more only adds memory and switches)."""
    return 2 * cpu_count()


def run(
    plan: Plan, jobs: int | None = None, on_games: Callable[[int], None] | None = None
) -> list[Tally]:
    """One tally per variant; ``jobs`` processes (all cores by default, at most
    :func:`max_jobs`), ``on_games`` told how many games each finished task played."""
    jobs = min(jobs or cpu_count(), max_jobs())
    tallies = [Tally() for _ in plan.variants]
    if jobs == 1:
        _start(plan)
        done: Iterator[tuple[list[Tally], int]] = map(_play_share, plan.shares())
    else:
        done = map_in_processes(
            _play_share,
            plan.shares(),
            jobs,
            what="a balance lab process",
            initializer=_start,
            initargs=(plan,),
        )
    for found, games in done:
        for whole, tally in zip(tallies, found, strict=True):
            whole.add(tally)
        if on_games is not None:
            on_games(games)
    return tallies


_plan: Plan | None = None  # this process's plan, set once by _start
_indexes: dict[int, CardIndex] = {}  # per variant: its card caches are bounded, so memory is too


def _start(plan: Plan) -> None:
    global _plan
    _plan = plan
    _indexes.clear()


def _play_share(share: Share) -> tuple[list[Tally], int]:
    """Play one task's games for every variant and count them: one tally per variant, and
    the games played."""
    setup, (first, second), start, end = share
    assert _plan is not None
    tallies = [Tally() for _ in _plan.variants]
    seated = [(version[first], version[second]) for version in _plan.variants]
    names = [{d.name: frozenset(c.name for c in d.cards) for d in decks} for decks in seated]
    for index in range(start, end):
        printed: GameResult | None = None
        for variant, tally in enumerate(tallies):
            result = _play(variant, seated[variant], setup, index)
            tally.count(setup, result, names[variant])
            if printed is None:
                printed = result
            else:
                tally.paired(setup, result, printed)
    return tallies, (end - start) * len(tallies)


def _play(variant: int, decks: tuple[DeckList, DeckList], setup: str, index: int) -> GameResult:
    assert _plan is not None
    if variant not in _indexes:
        _indexes[variant] = CardIndex(c for deck in _plan.variants[variant] for c in deck.cards)
    return play_game(
        decks,
        game_seed(_plan.seed, index, setup, decks[0].name, decks[1].name),
        strategies=(_plan.strategy_of(variant),) * 2,
        max_turns=_plan.max_turns,
        cards=_indexes[variant],
        equal_food=setup == EQUAL_FOOD,
    )
