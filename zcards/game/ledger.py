"""What the table alone does not say but the rules need: what this phase owes and allows.

A :class:`Game` is a :class:`~zcards.game.table.Table` with the card index and a
:class:`Ledger`: the *grants* of the moment (a wound a fight's result owes, food a
Scavenger's roll gives, a heal a dying Grandma Edna allows), the fights declared this Attack
phase, the survivors dying, the bids, the resource plays of this turn. Grants are what makes
an effect legal: :func:`zcards.game.executor.legal` allows a wound only against a grant of a
wound, and :func:`~zcards.game.executor.apply` consumes it. A grant ``must`` be used before
the phase ends (:func:`zcards.game.executor.owed`); the others may be.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from zcards.game.actions import Cause, Fighting
from zcards.game.cards import CardIndex
from zcards.game.table import Table


class Grant(NamedTuple):
    """Leave for one effect: of ``kind`` (an action's class name) on ``player``'s cards (None:
    anyone's), on ``target`` (a survivor uid, a zombie, a food delta; None: any), for
    ``cause``; ``by``: whose card's text gives it, ``card``: which card."""

    kind: str
    player: str | None
    target: object = None
    cause: Cause = Cause.RULE
    by: str | None = None
    card: str | None = None


class Verdict(NamedTuple):
    """Whether an action is legal: ``allowed`` True, False (breaking ``rule``, for ``reason``)
    or None (it depends on what the observer cannot see, or on card text no row reads:
    ``reason`` names it)."""

    allowed: bool | None
    rule: str = ""
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed is not False


ALLOWED = Verdict(True)


class Obligation(NamedTuple):
    """Something the phase owes before it ends: a rule and what is still to be done."""

    rule: str
    what: str


class Ledger:
    """The executor's bookkeeping of one game (see the module docstring)."""

    __slots__ = (
        "must",
        "may",
        "bids",
        "opening",
        "resources",
        "fights",
        "assigned",
        "dying",
        "upkept",
        "setup_over",
        "kamikaze",
    )

    def __init__(self) -> None:
        self.must: Counter[Grant] = Counter()
        self.may: Counter[Grant] = Counter()
        self.bids: list[tuple[int, str]] = []
        self.opening: Counter[str] = Counter()  # opening cards drawn, per player (R2.3)
        self.resources: Counter[str] = Counter()  # resources each played this turn (R6.1)
        self.fights: dict[int, Fighting] = {}  # declared and not yet fought, by survivor uid
        self.assigned = False  # this Attack phase's fights were declared (R10.3)
        self.dying: dict[int, str] = {}  # survivor uid -> owner, until it leaves play (R11)
        self.upkept = False  # the active player paid upkeep this Recoup (R12.5)
        self.setup_over = False
        self.kamikaze: dict[tuple[str, object], int] = {}  # (owner, zombie) -> survivor uid

    def copy(self) -> Ledger:
        twin = Ledger()
        twin.must, twin.may = Counter(self.must), Counter(self.may)
        twin.bids, twin.opening = list(self.bids), Counter(self.opening)
        twin.resources, twin.fights = Counter(self.resources), dict(self.fights)
        twin.assigned, twin.dying = self.assigned, dict(self.dying)
        twin.upkept, twin.setup_over = self.upkept, self.setup_over
        twin.kamikaze = dict(self.kamikaze)
        return twin

    def give(self, grant: Grant, number: int = 1, *, must: bool = False) -> None:
        if number > 0:
            (self.must if must else self.may)[grant] += number

    def find(self, kind: str, player: str, target: object, cause: Cause) -> Grant | None:
        """The grant that allows this effect: must-grants first, an exact one before one
        for any target or anyone."""
        for pool in (self.must, self.may):
            fitting = None
            for grant in pool:
                if (
                    grant.kind == kind
                    and grant.cause is cause
                    and grant.player in (player, None)
                    and grant.target in (target, None)
                ):
                    if grant.player == player and grant.target == target:
                        return grant
                    fitting = fitting or grant
            if fitting is not None:
                return fitting
        return None

    def use(self, grant: Grant) -> None:
        pool = self.must if self.must[grant] > 0 else self.may
        pool[grant] -= 1
        if pool[grant] <= 0:
            del pool[grant]

    def drop(self, keep: object) -> None:
        """Forget the grants ``keep`` (a predicate on a grant) rejects."""
        for pool in (self.must, self.may):
            for grant in [g for g in pool if not keep(g)]:  # type: ignore[operator]
                del pool[grant]

    def new_phase(self) -> None:
        """Grants last one phase; what the phase owed was checked as it ended."""
        self.must.clear()
        self.may.clear()
        self.upkept = False
        self.fights.clear()
        self.assigned = False
        self.kamikaze.clear()


class Game(Table):
    """A table the executor keeps: the table, the cards' rows and the ledger."""

    __slots__ = ("cards", "ledger")

    def __init__(self, cards: CardIndex, *, started: bool = True) -> None:
        super().__init__(started=started)
        self.cards = cards
        self.ledger = Ledger()

    def fork(self) -> Game:
        """A copy sharing every player until one of them changes (the ledger is copied)."""
        base = Table.fork(self)
        twin = Game.__new__(Game)
        for slot in Table.__slots__:
            setattr(twin, slot, getattr(base, slot))
        twin.cards, twin.ledger = self.cards, self.ledger.copy()
        return twin
