"""The simulator's full state at every line of a simulated log.

A log hides things (face-down cards, the other player's hand); the simulator does not. A
measurement that asks "does this line have a legal reading?" needs the true table at that
line: the survivors and their wounds, every zombie's zone and rotation, the top of each deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from zcards.game.power import Powers
from zcards.game.zombies import zombies_of
from zcards.sim.actions import Action
from zcards.sim.game import DeckList, GameResult, play_game
from zcards.sim.recorder import RecordedLog
from zcards.sim.simulator import Simulator
from zcards.sim.styles import FACE_DOWN_CARD


@dataclass(frozen=True)
class Survivor:
    name: str
    wounds: int
    health: int


@dataclass(frozen=True)
class Zombie:
    """A card in a resource or combat zone, as every log shows it (face-down cards hidden)."""

    shown: str
    in_combat: bool
    spent: bool

    @property
    def attacking(self) -> bool:
        """Ready in the combat zone: it may still fight this Attack phase (R10.1)."""
        return self.in_combat and not self.spent


@dataclass(frozen=True)
class Side:
    survivors: tuple[Survivor, ...]
    zombies: tuple[Zombie, ...]
    deck: int
    top: str | None
    lost: bool


Snapshot = dict[str, Side]


def _side(sim: Simulator, name: str) -> Side:
    player = sim.table.players[name]
    powers = Powers(sim.cards, sim.table)
    deck = sim.decks[name]
    return Side(
        tuple(
            Survivor(s.name, s.wounds or 0, (powers.health(name, s) or (1, 1))[1])
            for s in player.survivors
        ),
        tuple(
            Zombie(z.name if z.face_up else FACE_DOWN_CARD, z.combat, z.spent)
            for z in zombies_of(player.zombies.board)
        ),
        len(deck),
        deck[0] if deck else None,
        player.lost is not None,
    )


def play_observed(
    decks: Sequence[DeckList], seed: int, **options
) -> tuple[GameResult, list[Snapshot]]:
    """Play a game and keep the full state after each of its actions."""
    snapshots: list[Snapshot] = []

    def observe(action: Action, sim: Simulator) -> None:
        snapshots.append({name: _side(sim, name) for name in sim.table.order})

    return play_game(decks, seed, observer=observe, **options), snapshots


def states_by_line(log: RecordedLog, snapshots: Sequence[Snapshot]) -> list[Snapshot]:
    """The true state before each line of ``log``: after the latest game action logged
    before it (lines only the recording style adds change nothing)."""
    states: list[Snapshot] = []
    latest = 0
    for source in log.sources:
        states.append(snapshots[latest])
        if source is not None:
            latest = max(latest, source)
    return states
