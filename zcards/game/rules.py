"""The rules' decisions outside fights: draws, resources, costs, requirements, readying, food,
Scavenger and Medic, death and losing (docs/rules.md R2-R14). The simulator plays by them and
the audit checks a log against them; neither decides any of these on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.definition import BUILD_PHASE, OPENING_BUDGET, RECOUP_PHASE
from zcards.game.effects import Effect, Target, Timing
from zcards.game.power import Span
from zcards.game.table import Player, Survivor, Table
from zcards.game.zombies import HIDDEN, Board

DRAWS = 2  # R5.1: cards every player draws in a Draw phase
DISCARDS = 1  # R5.2: cards he then discards
RESOURCE_PLAYS = 1  # R6.1: face-down plays from the hand per player and turn
MAX_BID = 10  # R2.1
UPKEEP = 1  # R12.5: food the active player loses at the end of his Recoup phase
SCAVENGE_FAILS = 1  # R12.2: the die result on which attracting attention fails
MEDIC, SCAVENGER = "Medic", "Scavenger"


def opening_fits(costs: Iterable[int]) -> bool:
    """R2.4: opening survivors cost at most 6 together."""
    return sum(costs) <= OPENING_BUDGET


def bid_allowed(bid: int) -> bool:
    """R2.1: a bid is a whole number from 0 to 10."""
    return 0 <= bid <= MAX_BID


def draws_allowed(phase: str) -> bool:
    """R5.3: cards are drawn in the Draw phase (and for the opening hand, at setup)."""
    return phase == "Draw"


# -- costs and requirements (R7, R8) ---------------------------------------------------------


def ready_zombies(board: Board) -> int:
    """Ready zombie cards on a board: what a player can spend to pay a cost (R7.3)."""
    return len(board.rr) + len(board.cr) + sum(1 for u in board.up if not u.spent)


def keyword_counts(player: Player, cards: CardIndex, board: Board | None = None) -> Counter[str]:
    """Face-up zombies he controls with each keyword (casefolded), for requirements (R8.1):
    printed keywords of face-up zombies, and keywords text grants his ex-survivors; a zombie
    with two keywords counts for both."""
    board = player.zombies.board if board is None else board
    granted: set[str] = set()
    for name in player.face_up_names():
        info = cards.get(name)
        for row in info.rows(Timing.STATIC, Effect.KEYWORD) if info is not None else ():
            if row.target is Target.YOUR_EX_SURVIVORS and row.keyword:
                granted.add(row.keyword.casefold())
    counts: Counter[str] = Counter()
    for up in board.up:
        if up.generic:
            counts.update(granted)
        elif (info := cards.get(up.name)) is not None:
            counts.update(info.keywords)
    return counts


def missing_requirements(card: CardInfo, counts: Counter[str]) -> dict[str, int]:
    """The requirement of ``card`` that keyword counts do not meet: keyword -> still needed."""
    return {
        keyword: needed - counts[keyword.casefold()]
        for keyword, needed in card.card.requirements.items()
        if counts[keyword.casefold()] < needed
    }


def can_upgrade(card: CardInfo | None) -> bool:
    """R8.3: only a Zombie card is ever turned face up in a resource or combat zone."""
    return card is not None and card.type == "Zombie"


def can_play(card: CardInfo, player: Player, table: Table) -> bool:
    """R7.1, R7.2: survivors and items are played by the active player, in his Build phase."""
    return (
        card.type in ("Survivor", "Item")
        and player.name == table.active
        and table.phase == BUILD_PHASE
    )


# -- food (R1.8, R12) ------------------------------------------------------------------------


def scavenge_succeeds(roll: int) -> bool:
    """R12.2: attracting attention succeeds on 2-6 (one food), fails on a 1."""
    return roll != SCAVENGE_FAILS


def after_upkeep(food: int) -> int:
    """R12.5: the active player loses 1 food at the end of his Recoup phase; never below 0."""
    return max(0, food - UPKEEP)


def starvation(survivors: int, food: int) -> int:
    """R12.5: one wound for each survivor in excess of food."""
    return max(0, survivors - max(0, food))


def scavenging_blocked(table: Table, cards: CardIndex) -> bool:
    """No Scavenger may attract attention while text forbids it (Carrion Crows in a combat
    zone)."""
    for player in table.in_game():
        for board in player.zombies.readings:
            for up in board.up:
                info = cards.get(up.name) if up.combat and not up.generic else None
                if info is not None and info.has(Effect.NO_SCAVENGING):
                    return True
    return False


def scavengers(player: Player, cards: CardIndex) -> list[Survivor]:
    """His ready survivors with the Scavenger symbol (R12.2)."""
    return [s for s in player.survivors if not s.spent and _has_symbol(cards, s, SCAVENGER)]


def medics(player: Player, cards: CardIndex) -> list[Survivor]:
    """His ready survivors with the Medic symbol (R12.3)."""
    return [s for s in player.survivors if not s.spent and _has_symbol(cards, s, MEDIC)]


def _has_symbol(cards: CardIndex, survivor: Survivor, symbol: str) -> bool:
    info = cards.get(survivor.name)
    return info is not None and info.has_symbol(symbol)


def medic_may_heal(target: CardInfo | None) -> bool:
    """R12.3 and card text: a Medic may remove a wound from any survivor whose text does not
    forbid it (Ex-Con Dwayne)."""
    return target is None or not target.has(Effect.NO_MEDIC_HEAL)


def may_be_infected(target: CardInfo | None) -> bool:
    """R10.7 and card text: a survivor may be infected unless its text forbids it."""
    return target is None or not target.has(Effect.NO_INFECTION)


# -- death and losing (R11, R14) ---------------------------------------------------------------


def dies(wounds: int, health: Span | None) -> bool:
    """R11.1: a survivor whose wounds reach his Health dies (every Health he may have)."""
    return health is not None and wounds >= health.hi


def may_die(wounds: int, health: Span | None) -> bool:
    """Whether the wounds may have reached his Health (an item may have raised it)."""
    return health is None or wounds >= health.lo


def has_lost(player: Player, *, setup_over: bool) -> str | None:
    """R14.1: why he has lost (an empty deck, or no survivors once the setup is over)."""
    if player.deck == 0:
        return "empty deck"
    if setup_over and player.known and not player.survivors:
        return "no survivors"
    return None


def phase_allows_ability(phase: str) -> bool:
    """R12.1: Medic and Scavenger abilities are used in the Recoup phase."""
    return phase == RECOUP_PHASE


def face_down(name: str) -> bool:
    return name == HIDDEN
