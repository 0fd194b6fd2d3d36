"""The balance lab's games: every pair of decks in both seats, under each setup, for the cards
as printed and for each variant of them, spread over processes.

Each game's seed comes from the batch seed, the setup, the two decks in their seats and the
game's number, never from the variant or the process that plays it: a variant replays the
same games with its changed cards, and the result is the same for any number of processes.
The tasks are made as the workers take them (``--games 100000000`` holds no task list), and
the workers die with the process that runs the lab (:mod:`zcards.processes`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from zcards.errors import UsageError
from zcards.game.cards import CardIndex
from zcards.processes import cpu_count, map_in_processes
from zcards.sim.batch import game_seed
from zcards.sim.game import DEFAULT_TURN_CAP, DeckList, play_game
from zcards.sim.tally import EQUAL_FOOD, SETUPS, Tally

SHARE = 20  # games per task: small enough to keep every process busy to the end


@dataclass(frozen=True)
class Plan:
    """What to play: ``variants[v]`` is one version of the decks (the first as printed)."""

    variants: tuple[tuple[DeckList, ...], ...]
    games: int  # per pair of decks, seat order and setup
    seed: int = 0
    strategy: str = "greedy"
    max_turns: int = DEFAULT_TURN_CAP

    def pairs(self) -> list[tuple[int, int]]:
        """Every ordered pair of different decks: each deck in each seat against each other."""
        return list(itertools.permutations(range(len(self.variants[0])), 2))

    def total(self) -> int:
        return len(self.variants) * len(SETUPS) * len(self.pairs()) * self.games

    def shares(self) -> Iterator[tuple[int, str, tuple[int, int], int, int]]:
        """(variant, setup, pair, first game, end) for each task."""
        for variant in range(len(self.variants)):
            for setup in SETUPS:
                for pair in self.pairs():
                    for start in range(0, self.games, SHARE):
                        yield variant, setup, pair, start, min(start + SHARE, self.games)


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
        done: Iterator[tuple[int, Tally, int]] = map(_play_share, plan.shares())
    else:
        done = map_in_processes(
            _play_share,
            plan.shares(),
            jobs,
            what="a balance lab process",
            initializer=_start,
            initargs=(plan,),
        )
    for variant, tally, games in done:
        tallies[variant].add(tally)
        if on_games is not None:
            on_games(games)
    return tallies


_plan: Plan | None = None  # this process's plan, set once by _start
_indexes: dict[int, CardIndex] = {}  # per variant: its card caches are bounded, so memory is too


def _start(plan: Plan) -> None:
    global _plan
    _plan = plan
    _indexes.clear()


def _play_share(share: tuple[int, str, tuple[int, int], int, int]) -> tuple[int, Tally, int]:
    """Play one task's games and count them: (variant, tally, games played)."""
    variant, setup, (first, second), start, end = share
    assert _plan is not None
    decks = (_plan.variants[variant][first], _plan.variants[variant][second])
    if variant not in _indexes:
        _indexes[variant] = CardIndex(c for deck in _plan.variants[variant] for c in deck.cards)
    cards = {deck.name: frozenset(card.name for card in deck.cards) for deck in decks}
    tally = Tally()
    for index in range(start, end):
        result = play_game(
            decks,
            game_seed(_plan.seed, index, setup, decks[0].name, decks[1].name),
            strategies=(_plan.strategy, _plan.strategy),
            max_turns=_plan.max_turns,
            cards=_indexes[variant],
            equal_food=setup == EQUAL_FOOD,
        )
        tally.count(setup, result, cards)
    return variant, tally, end - start
