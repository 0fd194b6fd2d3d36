"""Many seeded games: each deck plays each seat equally often, logs alternate points of view."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from zcards.game.cards import CardIndex
from zcards.sim.game import DEFAULT_TURN_CAP, SEAT_NAMES, DeckList, GameResult, play_game
from zcards.sim.recorder import write_game_log
from zcards.sim.styles import resolve_style


def game_seed(seed: int, index: int, *scope: str) -> int:
    """Game ``index`` of a batch seeded ``seed`` (of its part ``scope``, as a pair of decks):
    batches with nearby seeds do not overlap."""
    return random.Random("/".join(["zcards-sim", str(seed), *scope, str(index)])).getrandbits(48)


def iter_games(
    decks: Sequence[DeckList],
    games: int,
    seed: int = 0,
    *,
    strategies: Sequence[str] = ("greedy", "greedy"),
    names: Sequence[str] | None = None,
    max_turns: int = DEFAULT_TURN_CAP,
) -> Iterator[GameResult]:
    """Play ``games`` games of ``len(decks)`` players (named ``names``, by default Alice, Bob,
    Carol, Dave); each game turns the decks (and strategies) one seat on, so each deck plays
    each seat equally often (two decks swap seats every other game)."""
    cards = CardIndex(card for deck in decks for card in deck.cards)
    seats = len(decks)
    names = SEAT_NAMES[:seats] if names is None else names
    for index in range(games):
        turn = index % seats
        yield play_game(
            [*decks[turn:], *decks[:turn]],
            game_seed(seed, index),
            names=names,
            strategies=[*strategies[turn:], *strategies[:turn]],
            max_turns=max_turns,
            cards=cards,
        )


def log_pov(result: GameResult, index: int) -> str:
    """Whose log game ``index`` is saved as: the players take turns."""
    return result.players[index % len(result.players)]


def write_logs(
    results: Iterable[GameResult],
    out_dir: Path,
    *,
    timestamps: bool = False,
    style: str = "protocol",
) -> list[Path]:
    """One ``game-NNNN.txt`` per game (names never come from card data), each recorded in
    ``style`` (a name from :data:`~zcards.sim.styles.STYLE_NAMES`; ``mixed`` varies per game),
    written as the games come."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [
        write_log(result, index, out_dir, timestamps=timestamps, style=style)
        for index, result in enumerate(results)
    ]


def write_log(
    result: GameResult,
    index: int,
    out_dir: Path,
    *,
    timestamps: bool = False,
    style: str = "protocol",
) -> Path:
    """Game ``index``'s log, from its point of view (:func:`log_pov`), into ``out_dir``."""
    return write_game_log(
        result,
        log_pov(result, index),
        out_dir / f"game-{index + 1:04d}.txt",
        timestamps=timestamps,
        style=resolve_style(style, result.seed),
    )
