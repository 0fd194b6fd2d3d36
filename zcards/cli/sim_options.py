"""The options ``zcards simulate`` and ``zcards balance`` share, spelled the same way in both
(each command says in its own words what the option means for it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from zcards.sim.game import DEFAULT_TURN_CAP


def games_option(help_text: str) -> Callable:
    return click.option(
        "--games",
        "-n",
        type=click.IntRange(min=1),
        default=100,
        show_default=True,
        help=help_text,
    )


def seed_option(help_text: str) -> Callable:
    return click.option("--seed", type=int, default=0, show_default=True, help=help_text)


def decks_option(help_text: str) -> Callable:
    return click.option(
        "--deck",
        "decks",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        help=help_text,
    )


def max_turns_option(help_text: str) -> Callable:
    return click.option(
        "--max-turns",
        type=click.IntRange(min=1),
        default=DEFAULT_TURN_CAP,
        show_default=True,
        help=help_text,
    )
