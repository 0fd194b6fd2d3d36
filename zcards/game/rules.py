"""The rules' decisions outside fights: draws, resources, costs, requirements, readying, food,
Scavenger and Medic, death and losing (docs/rules.md R2-R14). The simulator plays by them and
the audit checks a log against them; neither decides any of these on its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from zcards.game.actions import Cause
from zcards.game.cards import CardIndex, CardInfo
from zcards.game.definition import (
    ATTACK_PHASE,
    BUILD_PHASE,
    OPENING_BUDGET,
    READY_PHASE,
    RECOUP_PHASE,
)
from zcards.game.effects import Cost, Effect, Target, Timing
from zcards.game.power import Span
from zcards.game.table import Player, Survivor, Table
from zcards.game.zombies import HIDDEN, Board

DRAWS = 2  # R5.1: cards every player draws in a Draw phase
DISCARDS = 1  # R5.2: cards he then discards
RESOURCE_PLAYS = 1  # R6.1: face-down plays from the hand per player and turn
MAX_BID = 10  # R2.1
UPKEEP = 1  # R12.5: food the active player loses at the end of his Recoup phase
DIE_SIDES = 6  # R12.2: the die a Scavenger attracting attention rolls
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


def readies(phase: str) -> bool:
    """R4.1: readying every spent card happens in the Ready phase."""
    return phase == READY_PHASE


READY_RULE = "R4.1"


def ready_fault(
    phase: str, card: CardInfo | None, *, arrived: bool, spent_here: bool
) -> str | None:
    """Why readying a card now breaks R4.1 (None: it may be readied). Outside the Ready phase
    only a Fast zombie as it arrives in the combat zone is readied (R9.2), and a spend of this
    phase may be taken back (a misclick; it then paid for nothing). A zombie that was moved to
    the combat zone this phase (``arrived``) paid for the move with its spend."""
    if readies(phase):
        return None
    if arrived:
        if card is not None and "fast" in card.keywords:
            return None
        return "it is not Fast: the spend that moved it to the combat zone stays"
    if spent_here:
        return None
    return f"it was not spent in this {phase} phase: spent cards are readied in the Ready phase"


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


NO_SCAVENGING_RULE = "R16.1"


def scavenging_ban(blocker: str) -> str:
    """Why no Scavenger may attract attention while ``blocker`` is in a combat zone."""
    return f"{blocker} is in a combat zone: no Scavenger attracts attention"


def scavenging_blocked(table: Table, cards: CardIndex) -> bool:
    """No Scavenger may attract attention while text forbids it (Carrion Crows in a combat
    zone)."""
    return scavenging_banned_by(table, cards)[0] is not None


def scavenging_blocker(table: Table, cards: CardIndex) -> str | None:
    """The card whose text forbids Scavenger rolls now (a face-up zombie in a combat zone),
    if any (in some board the log allows: the simulator knows the one board)."""
    return scavenging_banned_by(table, cards)[0]


def scavenging_banned_by(table: Table, cards: CardIndex) -> tuple[str | None, bool]:
    """The card whose text forbids attracting attention now (Carrion Crows face up in a
    combat zone), and whether it surely does: in every board the log allows of its controller
    (a face-down card's zone is hidden), not only in some."""
    maybe: str | None = None
    for player in table.in_game():
        boards = player.zombies.readings
        for board in boards:
            for up in board.up:
                info = cards.get(up.name) if up.combat and not up.generic else None
                if info is None or not info.has(Effect.NO_SCAVENGING):
                    continue
                name = info.name
                if all(any(u.name == up.name and u.combat for u in b.up) for b in boards):
                    return name, True
                maybe = name
    return maybe, False


def discard_cost(cost: Cost) -> str | None:
    """What a cost discards from the hand: "card", "Item", or None (it discards nothing)."""
    if cost is Cost.SPEND_SELF_AND_DISCARD:
        return "card"
    if cost is Cost.SPEND_SELF_AND_DISCARD_ITEM:
        return "Item"
    return None


DISCARD_COST_RULE = "R16.1"


def discard_cost_reason(card: str, cost: Cost) -> str:
    """What ``card``'s cost asks its user to discard, said the same way by both sides."""
    what = "an Item" if discard_cost(cost) == "Item" else "a card"
    return f"{card}'s cost discards {what} from his hand"


def discard_cost_fault(
    card: str, cost: Cost, discarded: CardInfo | None, *, hidden: bool
) -> str | None:
    """Why this card discarded from the hand does not pay ``card``'s cost (None: it does, or
    the cost discards nothing)."""
    if discard_cost(cost) is None or pays_discard(cost, discarded, hidden=hidden):
        return None
    return discard_cost_reason(card, cost)


def pays_discard(cost: Cost, card: CardInfo | None, *, hidden: bool) -> bool:
    """Whether a card discarded from the hand pays ``cost`` ("discard an Item": an Item; a
    card the log hides, or one missing from the card data, may be one)."""
    wanted = discard_cost(cost)
    if wanted is None or wanted == "card" or hidden:
        return wanted is not None
    return card is None or card.type == wanted


def scavengers(player: Player, cards: CardIndex) -> list[Survivor]:
    """His ready survivors with the Scavenger symbol (R12.2)."""
    return [s for s in player.survivors if not s.spent and _has_symbol(cards, s, SCAVENGER)]


def medics(player: Player, cards: CardIndex) -> list[Survivor]:
    """His ready survivors with the Medic symbol (R12.3)."""
    return [s for s in player.survivors if not s.spent and _has_symbol(cards, s, MEDIC)]


def _has_symbol(cards: CardIndex, survivor: Survivor, symbol: str) -> bool:
    info = cards.get(survivor.name)
    return info is not None and info.has_symbol(symbol)


MEDIC_TEXT_RULE = "R16.1"


def medic_may_heal(target: CardInfo | None) -> bool:
    """R12.3 and card text: a Medic may remove a wound from any survivor whose text does not
    forbid it (Ex-Con Dwayne)."""
    return target is None or not target.has(Effect.NO_MEDIC_HEAL)


def medic_heal_fault(target: CardInfo | None) -> str | None:
    """Why a Medic may not remove this survivor's wound (None: it may)."""
    if medic_may_heal(target):
        return None
    assert target is not None
    return f"a Medic removes a wound from {target.name}, whose text forbids it"


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


WOUND_RULE = "R10.8"  # no survivor is wounded but by a fight's result, or another rule's cause
NO_WOUND_CAUSE = "no fight, infection, starvation or card text wounds a survivor then"
WOUND_RULES = {  # the rule a wound of each cause cites
    Cause.FIGHT: WOUND_RULE,
    Cause.STARVATION: "R12.5",
    Cause.INFECTION: "R4.2",
    Cause.TEXT: "R16.1",
}


def wound_rule(phase: str, *, active: bool) -> str | None:
    """The rule that may wound a survivor in ``phase`` (``active``: one of the active
    player's): an infection in the Ready phase (R4.2), a lost fight in the Attack phase
    (R10.5, only the active player's survivors are attacked, R10.8), starvation at the end of
    the active player's Recoup (R12.5). None: only card text wounds a survivor then (R16.1)."""
    if phase == READY_PHASE:
        return WOUND_RULES[Cause.INFECTION]
    if phase == ATTACK_PHASE and active:
        return "R10.5"
    if phase == RECOUP_PHASE and active:
        return WOUND_RULES[Cause.STARVATION]
    return None


def wound_fault(phase: str, *, active: bool, by_text: bool) -> str | None:
    """R10.8: why nothing may wound this survivor now (None: a rule of the phase, or card text
    ``by_text``, may; whether one did is the cause's own to say)."""
    if by_text or wound_rule(phase, active=active) is not None:
        return None
    return NO_WOUND_CAUSE


def discards_itself_as_it_wins(info: CardInfo) -> bool:
    """Card text: the zombie may discard itself as it wins a fight (Kamikaze Corpse)."""
    return any(
        row.timing is Timing.WINS_FIGHT and row.cost is Cost.DISCARD_SELF for row in info.text.rows
    )


def discard_is_a_loss(info: CardInfo | None) -> bool:
    """R10.6 and card text: an attacking zombie discarded in the Attack phase lost a fight
    (text discarded it instead of spending it), unless its own text discards it as it wins
    (Kamikaze Corpse)."""
    return info is None or not discards_itself_as_it_wins(info)


TAKE_OVER_RULE = "R11.3"
TAKE_OVER = "only an infected survivor that died goes to the player who infected it"


def take_over_fault(
    infected: bool | None, wounds: int | None, health: Span | None, *, overwhelmed: bool
) -> str | None:
    """R11.3: why a survivor cannot be taken over (None: it may be): only an infected survivor
    that died goes to the player who infected it; it died when its wounds reached its Health,
    or when it was overwhelmed (``overwhelmed``: a fight of this phase may have done it)."""
    if infected is False:
        return "it was not infected"
    if overwhelmed or wounds is None or may_die(wounds, health):
        return None
    return f"it is alive ({wounds} wound(s), short of its Health)"


def phase_allows_ability(phase: str) -> bool:
    """R12.1: Medic and Scavenger abilities are used in the Recoup phase."""
    return phase == RECOUP_PHASE


def face_down(name: str) -> bool:
    return name == HIDDEN
