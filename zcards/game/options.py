"""What a player may do now: the legal choices the rules and the cards' text offer him.

The simulator's players pick only from these; the audit asks the same questions of a log
(could this heal, this draw, this food be a use of some card's text here and now?).
"""

from __future__ import annotations

from dataclasses import dataclass

from zcards.game.cards import CardIndex, CardInfo
from zcards.game.definition import BUILD_PHASE
from zcards.game.effects import Cost, Effect, Row, Target, Timing
from zcards.game.rules import (
    can_play,
    keyword_counts,
    medic_may_heal,
    medics,
    missing_requirements,
    ready_zombies,
    scavengers,
    scavenging_blocked,
)
from zcards.game.table import Item, Player, Survivor, Table
from zcards.game.zombies import Zombie, zombies_of


def playable(player: Player, cards: CardIndex, table: Table) -> list[CardInfo]:
    """Survivors and items in his hand he may play now: his Build phase (R7.1, R7.2), enough
    ready zombies to pay (R7.3), the card's requirement met (R7.4)."""
    if player.name != table.active or table.phase != BUILD_PHASE:
        return []
    budget = ready_zombies(player.zombies.board)
    counts = keyword_counts(player, cards)
    found = []
    for name in sorted(player.hand_names):
        info = cards.get(name)
        if (
            info is not None
            and can_play(info, player, table)
            and info.cost <= budget
            and not missing_requirements(info, counts)
        ):
            found.append(info)
    return found


def payable(player: Player) -> list[Zombie]:
    """His ready zombie cards: what pays a cost (R7.3)."""
    return [z for z in zombies_of(player.zombies.board) if not z.spent]


def upgradable(player: Player, cards: CardIndex) -> list[Zombie]:
    """Face-down Zombie cards of his whose requirement his face-up zombies meet (R8.1)."""
    counts = keyword_counts(player, cards)
    return [
        zombie
        for zombie in zombies_of(player.zombies.board)
        if not zombie.face_up
        and (info := cards.get(zombie.name)) is not None
        and info.type == "Zombie"
        and not missing_requirements(info, counts)
    ]


def movable(player: Player) -> list[Zombie]:
    """Ready zombies in his resource zone: what he may move to combat in his Recoup (R9.1)."""
    return [z for z in zombies_of(player.zombies.board) if not z.spent and not z.combat]


# -- abilities -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Use:
    """One use of an ability: the card (a survivor, item or zombie of ``player``), its rows
    (one ability), and its target when it has one."""

    player: str
    card: str
    rows: tuple[Row, ...]
    source: Survivor | Item | Zombie | None = None
    target: Survivor | Zombie | None = None
    owner: str | None = None  # whose card the target is

    def does(self, effect: Effect) -> Row | None:
        return next((row for row in self.rows if row.effect is effect), None)


def _abilities(info: CardInfo, phase: str) -> list[tuple[Row, ...]]:
    """The card's activated abilities usable in ``phase``, each as its rows."""
    clauses: dict[str, list[Row]] = {}
    for row in info.rows(Timing.ACTIVATED):
        if row.phase == phase:
            clauses.setdefault(row.clause, []).append(row)
    return [tuple(rows) for rows in clauses.values()]


def _cost_paid(rows: tuple[Row, ...], player: Player, cards: CardIndex, source: object) -> bool:
    cost = rows[0].cost
    others = [s for s in player.survivors if not s.spent and s is not source]
    if cost is Cost.SPEND_SELF_AND_SURVIVOR:
        return bool(others)
    if cost is Cost.SPEND_SELF_AND_SCAVENGER:
        return any(
            (i := cards.get(s.name)) is not None and i.has_symbol("Scavenger") for s in others
        )
    if cost is Cost.SPEND_SELF_AND_DISCARD:
        return bool(player.hand)
    if cost is Cost.SPEND_SELF_AND_DISCARD_ITEM:
        return any((i := cards.get(n)) is not None and i.type == "Item" for n in player.hand_names)
    return True


def activated(player: Player, cards: CardIndex, table: Table) -> list[Use]:
    """Abilities of his ready cards he may use in the current phase by paying their cost."""
    found: list[Use] = []
    sources: list[tuple[str, Survivor | Item | Zombie]] = [
        (s.name, s) for s in player.survivors if not s.spent
    ]
    sources += [(i.name, i) for i in player.items if not i.spent]
    sources += [(z.name, z) for z in zombies_of(player.zombies.board) if z.face_up and not z.spent]
    for name, source in sources:
        info = cards.get(name)
        if info is None or (isinstance(source, Zombie) and source.generic):
            continue
        for rows in _abilities(info, table.phase):
            if _cost_paid(rows, player, cards, source):
                found.append(Use(player.name, name, rows, source))
    return found


def heal_targets(player: Player, cards: CardIndex, *, medic: bool) -> list[Survivor]:
    """His wounded survivors a heal may target (a Medic's only those it may heal, R12.3)."""
    return [
        s for s in player.survivors if s.wounds and (not medic or medic_may_heal(cards.get(s.name)))
    ]


def symbol_uses(player: Player, cards: CardIndex, table: Table) -> list[Use]:
    """Medic and Scavenger uses open to his ready survivors in the Recoup phase (R12)."""
    uses: list[Use] = []
    if table.phase != "Recoup":
        return uses
    if not scavenging_blocked(table, cards):
        uses += [Use(player.name, s.name, (), s) for s in scavengers(player, cards)]
    for medic in medics(player, cards):
        uses += [
            Use(player.name, medic.name, (), medic, target, player.name)
            for target in heal_targets(player, cards, medic=True)
        ]
    return uses


def one_shot_rows(info: CardInfo) -> tuple[Row, ...]:
    """What a one-shot item does as it is played."""
    return tuple(info.rows(Timing.ONE_SHOT))


def host_rows(info: CardInfo) -> tuple[Row, ...]:
    """What a permanent item gives the survivor it is attached to."""
    return tuple(row for row in info.rows(Timing.STATIC) if row.target is Target.HOST)
