"""Everything a player can do, as typed values: the moves of the executor
(:mod:`zcards.game.executor`).

Each action names who does it and what it touches, never how a log wrote it. Survivors are
named by their uid (copies of one card are otherwise alike), zombie cards as a
:class:`~zcards.game.zombies.Zombie` (name, zone, rotation; a face-down card by name where the
actor knows it). An action is allowed or not by :func:`zcards.game.executor.legal` and played
by :func:`zcards.game.executor.apply`; nothing else changes a table the executor keeps.

Effects that only follow from something else (a wound, a heal, a spent zombie, food, a card
drawn by text) carry their :class:`Cause`: a wound is legal only when its cause owes or allows
it (a fight's result, starvation, an infection, the text of a card used just now).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from zcards.game.zombies import Zombie


class Cause(StrEnum):
    """Why an effect happens."""

    RULE = "rule"  # the phase's own procedure: draws and discards of the Draw phase (R5)
    SETUP = "setup"  # the opening hand, the bid (R2)
    FIGHT = "fight"  # a fight's result (R10.5-R10.7)
    STARVATION = "starvation"  # upkeep wounds (R12.5)
    INFECTION = "infection"  # the Ready phase wound of an infected survivor (R4.2)
    UPKEEP = "upkeep"  # the food upkeep costs (R12.5)
    SCAVENGE = "scavenge"  # a Scavenger's roll (R12.2)
    MEDIC = "medic"  # a Medic's heal (R12.3)
    DEATH = "death"  # a survivor leaving play (R11)
    TEXT = "text"  # the text of a card used, played, turned up or dying just now (R16.1)


@dataclass(frozen=True, slots=True)
class Bid:
    """R2.1: a player's starting food bid."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class ChooseFirst:
    """R2.2: the bid winner chooses who takes the first turn."""

    player: str
    first: str


@dataclass(frozen=True, slots=True)
class Draw:
    """One card from the top of the deck into the hand (``card``: its name, when known)."""

    player: str
    card: str | None = None
    cause: Cause = Cause.RULE


@dataclass(frozen=True, slots=True)
class Discard:
    """A card from the hand to the discard pile."""

    player: str
    card: str | None
    cause: Cause = Cause.RULE


@dataclass(frozen=True, slots=True)
class OpeningSurvivor:
    """R2.4: a survivor from the deck into the survivor zone during the setup."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class PlayResource:
    """R6: a card from the hand to the resource zone, face down."""

    player: str
    card: str | None


@dataclass(frozen=True, slots=True)
class Play:
    """R7: a survivor or item from the hand, paid for by spending the zombies ``paid``;
    ``host``: the survivor (uid) a permanent item is attached to."""

    player: str
    card: str
    paid: tuple[Zombie, ...] = ()
    host: int | None = None


@dataclass(frozen=True, slots=True)
class Upgrade:
    """R8: a face-down Zombie card of his turned face up."""

    player: str
    zombie: Zombie


@dataclass(frozen=True, slots=True)
class ToCombat:
    """R9.1: a ready zombie spent and moved to the combat zone."""

    player: str
    zombie: Zombie


@dataclass(frozen=True, slots=True)
class Ready:
    """One spent zombie readied outside the Ready phase (Fast, R9.2)."""

    player: str
    zombie: Zombie


@dataclass(frozen=True, slots=True)
class ReadyAll:
    """R4.1: every spent card of his readied."""

    player: str


@dataclass(frozen=True, slots=True)
class Spend:
    """A zombie of ``player`` spent as an effect: a lost fight, or the text of ``by``'s card
    ``card`` (Firecrackers, an Attack ability)."""

    player: str
    zombie: Zombie
    cause: Cause = Cause.FIGHT
    by: str | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class ZombieToDiscard:
    """A zombie card of his leaves the table for the discard pile (a lost fight's text, a
    Kamikaze Corpse)."""

    player: str
    zombie: Zombie
    cause: Cause = Cause.FIGHT


@dataclass(frozen=True, slots=True)
class TopToResource:
    """The top card of his deck to his resource zone face down (a Scavenger's 1, card
    text)."""

    player: str
    card: str | None = None
    cause: Cause = Cause.SCAVENGE


@dataclass(frozen=True, slots=True)
class DiscardToResource:
    """A Zombie card from his discard pile to his resource zone face down (card text)."""

    player: str
    card: str


@dataclass(frozen=True, slots=True)
class Fighting:
    """One declared fight: a survivor against zombies (owner, zombie); ``blocked``: the
    survivor player started it (R10.3)."""

    survivor: int
    zombies: tuple[tuple[str, Zombie], ...]
    blocked: bool = False


@dataclass(frozen=True, slots=True)
class AssignFights:
    """R10.3: the fights of this Attack phase, as declared."""

    player: str
    fights: tuple[Fighting, ...]


@dataclass(frozen=True, slots=True)
class Resolve:
    """R10.4: the survivor player has the fight of one survivor fought."""

    player: str
    survivor: int


@dataclass(frozen=True, slots=True)
class Wound:
    """One wound on a survivor of ``player``."""

    player: str
    survivor: int
    cause: Cause


@dataclass(frozen=True, slots=True)
class Heal:
    """One wound removed from a survivor of ``player``."""

    player: str
    survivor: int
    cause: Cause


@dataclass(frozen=True, slots=True)
class Infect:
    """R10.7: an Infected token on a survivor of ``player``, put there by ``by``."""

    player: str
    survivor: int
    by: str


@dataclass(frozen=True, slots=True)
class Cure:
    """An Infected token removed from a survivor of ``player`` (card text)."""

    player: str
    survivor: int


@dataclass(frozen=True, slots=True)
class Bury:
    """R11.2: a dead survivor of ``player`` (and the items on it) to the discard pile."""

    player: str
    survivor: int


@dataclass(frozen=True, slots=True)
class TakeControl:
    """R11.3: ``player`` gains control of the dead survivor of ``owner`` he infected."""

    player: str
    owner: str
    survivor: int


@dataclass(frozen=True, slots=True)
class UseAbility:
    """An activated ability of his card (``source``: a survivor or item uid, or a zombie),
    ``clause`` naming the ability; ``discard``: the card its cost discards, ``also``: the
    survivor (uid) its cost also spends."""

    player: str
    card: str
    clause: str
    source: int | Zombie
    discard: str | None = None
    also: int | None = None


@dataclass(frozen=True, slots=True)
class Scavenge:
    """R12.2: his Scavenger survivor spent to attract attention: a die roll follows."""

    player: str
    survivor: int


@dataclass(frozen=True, slots=True)
class Roll:
    """The die a Scavenger's use owes, with its result (R12.2)."""

    player: str
    result: int


@dataclass(frozen=True, slots=True)
class Medic:
    """R12.3: his Medic survivor spent to remove a wound from ``target`` (a survivor uid of
    his)."""

    player: str
    survivor: int
    target: int


@dataclass(frozen=True, slots=True)
class ChangeFood:
    """His food total changes by ``delta`` (never below 0, R1.8)."""

    player: str
    delta: int
    cause: Cause


@dataclass(frozen=True, slots=True)
class Upkeep:
    """R12.5: the active player pays upkeep at the end of his Recoup phase."""

    player: str


@dataclass(frozen=True, slots=True)
class EndPhase:
    """The phase ends (R3): the next one starts, or after the End phase the next turn
    (R13.2); after the setup, turn 1."""

    player: str


Action = (
    Bid
    | ChooseFirst
    | Draw
    | Discard
    | OpeningSurvivor
    | PlayResource
    | Play
    | Upgrade
    | ToCombat
    | Ready
    | ReadyAll
    | Spend
    | ZombieToDiscard
    | TopToResource
    | DiscardToResource
    | AssignFights
    | Resolve
    | Wound
    | Heal
    | Infect
    | Cure
    | Bury
    | TakeControl
    | UseAbility
    | Scavenge
    | Roll
    | Medic
    | ChangeFood
    | Upkeep
    | EndPhase
)
