"""Card-text excuses (R16.1): could a card have caused this event, here and now?

The cards of the bundled set have their effects in ``card_effects.toml``, one row per effect,
each scoped to its controller, its timing (phase, whose turn), the one kind of event it
produces and what must hold at that moment (on the table, attacking, or spent / played /
died / turned face up earlier in the phase). Any other card text falls back to the
conservative pattern flags of :mod:`zcards.rules.cards`, scoped only to the cards on the table
or played this turn. :class:`CardText` keeps the uses of this phase and answers the checks.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import cast

from lackey_plugin.log import events as ev
from zcards.game.definition import DISCARD, HAND, Meaning
from zcards.rules.cards import CardIndex, Effect
from zcards.rules.context import Area, Fact, Handler, PhaseBegun, TurnBegun
from zcards.rules.findings import Clock
from zcards.rules.state import TableState

EFFECTS_FILE = Path(__file__).with_name("card_effects.toml")
EVENTS = frozenset(
    {
        "heal",
        "food-gain",
        "food-loss",
        "wound",
        "power",
        "health",
        "keyword",
        "to-combat",
        "leave-combat",
        "spend-zombie",
        "discard-zombie",
        "deck-to-resource",
        "draw",
        "discard",
        "cure",
        "none",
    }
)
NEEDS = frozenset({"table", "attacking", "spent", "played", "died", "flipped"})
USES = NEEDS - {"table", "attacking"}
# The pattern flags that stand for each event, for texts outside the table.
FALLBACK: dict[str, Effect] = {
    "heal": Effect.HEAL,
    "food-gain": Effect.FOOD,
    "wound": Effect.WOUND,
    "power": Effect.POWER,
    "health": Effect.HEALTH,
    "keyword": Effect.KEYWORD,
    "to-combat": Effect.COMBAT,
    "spend-zombie": Effect.SPEND,
    "deck-to-resource": Effect.DRAW,
    "draw": Effect.DRAW,
    "discard": Effect.DRAW,
}


@dataclass(frozen=True)
class EffectRow:
    """One effect of one card (see the header of ``card_effects.toml``)."""

    card: str
    clause: str
    event: str
    affects: str
    phase: tuple[str, ...]
    turn: str
    needs: str
    count: int = 0
    itself: bool = False

    def in_phase(self, phase: str) -> bool:
        return "any" in self.phase or phase in self.phase


@dataclass(frozen=True)
class EffectTable:
    rows: dict[str, tuple[EffectRow, ...]]
    plain: frozenset[str]


@cache
def effect_table(path: Path = EFFECTS_FILE) -> EffectTable:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    rows: dict[str, list[EffectRow]] = {}
    for raw in data.get("effect", []):
        row = EffectRow(
            card=raw["card"],
            clause=raw["clause"],
            event=raw["event"],
            affects=raw["affects"],
            phase=tuple(raw["phase"]),
            turn=raw["turn"],
            needs=raw["needs"],
            count=raw.get("count", 0),
            itself=raw.get("itself", False),
        )
        if row.event not in EVENTS or row.needs not in NEEDS:
            raise ValueError(f"{path}: bad row for {row.card}: {row.event}/{row.needs}")
        rows.setdefault(row.card, []).append(row)
    return EffectTable({k: tuple(v) for k, v in rows.items()}, frozenset(data.get("plain", [])))


@cache
def _bundled_texts() -> dict[str, str]:
    from zcards.cards.normalise import read_card_file
    from zcards.resources import BUNDLED_SET

    return {card.name: card.text for card in read_card_file(BUNDLED_SET)}


def rows_for(name: str, text: str) -> tuple[EffectRow, ...] | None:
    """The table's rows for a card whose text is the bundled one; None when the table does
    not cover this text (another set, an edited card): the patterns decide then."""
    table = effect_table()
    if _bundled_texts().get(name) != text:
        return None
    if name in table.rows:
        return table.rows[name]
    return () if name in table.plain else None


@dataclass
class Use:
    """A card spent, played, killed or turned face up in this phase, with what it may still
    excuse."""

    card: str
    controller: str
    how: str
    left: dict[str, int]  # event -> events it may still excuse (0: any number)


class CardText:
    """The card uses of the current phase, and the one question the checks ask."""

    def __init__(self, cards: CardIndex, table: TableState, clock: Clock) -> None:
        self.cards = cards
        self.table = table
        self.clock = clock
        self.uses: list[Use] = []
        self.attackers: dict[str, set[str]] = {}  # zombie player -> face-up attacking names
        self.played: set[str] = set()  # cards played from a hand this turn (pattern fallback)

    # -- bookkeeping (the replay calls these as the log goes) --------------------------------

    def new_turn(self) -> None:
        self.played.clear()
        self.new_phase()

    def new_phase(self) -> None:
        self.uses.clear()
        self.attackers = {}

    def set_attackers(self, attackers: dict[str, set[str]]) -> None:
        self.attackers = attackers

    def used(self, card: str | None, controller: str, how: str) -> None:
        """``card`` was spent / played / died / flipped by (or under) ``controller``."""
        if not card:
            return
        if how == "played":
            self.played.add(card)
        left = {row.event: row.count for row in self._rows(card) or () if row.needs == how}
        if left:
            self.uses.append(Use(card, controller, how, left))

    def withdrawn(self, card: str | None, controller: str) -> None:
        """A card played this phase went back off the table to a zone other than the discard
        pile: it was not used (a one-shot item is discarded once its effect happened), so its
        play excuses nothing from now on."""
        for index in range(len(self.uses) - 1, -1, -1):
            use = self.uses[index]
            if (use.card, use.controller, use.how) == (card, controller, "played"):
                del self.uses[index]
                return

    # -- the question ------------------------------------------------------------------------

    def explain(
        self, event: str, subject: str | None, *, card: str | None = None, consume: bool = True
    ) -> list[str]:
        """The cards (or unseen cards) whose text could have caused ``event``, which concerns
        ``subject``'s cards or total (``card``: the card it happened to); empty when none.
        A use that excuses it is consumed (``consume``)."""
        found: list[str] = []
        clock = self.clock
        for player in self.table.players.values():
            if not player.playing:
                continue
            for name in sorted(player.face_up_names()):
                if self._static(name, player.name, event, subject, card):
                    found.append(name)
            if not player.known and self._unseen_may(event, player.name, subject):
                found.append(f"cards of {player.name} not seen in this log")
        for use in self.uses:
            if use.left.get(event, -1) < 0:
                continue
            row = next(r for r in self._rows(use.card) or () if r.event == event)
            if self._scope(row, use.controller, subject, card) and row.in_phase(clock.phase):
                found.append(use.card)
                if consume and use.left[event] > 0:
                    use.left[event] -= 1
                    if use.left[event] == 0:
                        del use.left[event]
                break
        for name in sorted(self.played - set(found)):
            if self._rows(name) is None and self._fallback(name, event, subject, owner=None):
                found.append(name)  # a text outside the table, played this turn
        return sorted(set(found))

    def _rows(self, name: str) -> tuple[EffectRow, ...] | None:
        return card_rows(self.cards, name)

    def _scope(
        self, row: EffectRow, controller: str, subject: str | None, card: str | None
    ) -> bool:
        if row.itself and card is not None and card != row.card:
            return False
        if subject is not None:
            if row.affects == "self" and subject != controller:
                return False
            if row.affects == "others" and subject == controller:
                return False
        active = self.clock.active
        if row.turn == "own" and active != controller:
            return False
        return not (row.turn == "other" and active == controller)

    def _static(
        self, name: str, controller: str, event: str, subject: str | None, card: str | None
    ) -> bool:
        """A face-up card of ``controller`` whose text could cause ``event`` now."""
        rows = self._rows(name)
        if rows is None:
            return self._fallback(name, event, subject, owner=controller)
        for row in rows:
            if row.event != event or row.needs not in ("table", "attacking"):
                continue
            if not (row.in_phase(self.clock.phase) and self._scope(row, controller, subject, card)):
                continue
            if row.needs == "table" or name in self.attackers.get(controller, ()):
                return True
        return False

    def _fallback(self, name: str, event: str, subject: str | None, *, owner: str | None) -> bool:
        """A text outside the table: its pattern flags decide, as broadly as before; a card
        missing from the card data could do anything."""
        info = self.cards.get(name)
        if info is None:
            return True
        flag = FALLBACK.get(event)
        if flag is None or flag not in info.effects:
            return False
        personal = event in ("draw", "discard", "food-gain")
        return not (personal and owner is not None and owner != subject)

    def _unseen_may(self, event: str, controller: str, subject: str | None) -> bool:
        """Could a card of ``controller`` that the log has not shown cause ``event``?"""
        return any(
            self._could(name, event, controller, subject) for name in _capable(self.cards, event)
        )

    def _could(self, name: str, event: str, controller: str, subject: str | None) -> bool:
        rows = self._rows(name)
        if rows is None:
            return True
        return any(
            row.event == event
            and row.needs in ("table", "attacking")
            and row.in_phase(self.clock.phase)
            and self._scope(row, controller, subject, None)
            for row in rows
        )


def _capable(cards: CardIndex, event: str) -> tuple[str, ...]:
    """Cards of the card data whose text could cause ``event`` (by table row or pattern)."""
    key = ("capable", event)
    if key not in cards.memo:
        flag = FALLBACK.get(event)
        cards.memo[key] = tuple(
            info.name
            for info in cards.infos()
            if (
                (flag is not None and flag in info.effects)
                if (rows := card_rows(cards, info.name)) is None
                else any(row.event == event for row in rows)
            )
        )
    return cast(tuple[str, ...], cards.memo[key])


def card_rows(cards: CardIndex, name: str) -> tuple[EffectRow, ...] | None:
    """:func:`rows_for` the card of this name in ``cards`` (None for an unknown card)."""
    key = ("rows", name)
    if key not in cards.memo:
        info = cards.get(name)
        cards.memo[key] = rows_for(info.name, info.card.text) if info is not None else None
    return cast("tuple[EffectRow, ...] | None", cards.memo[key])


class CardUses(Area):
    """Feeds :class:`CardText` the uses it needs: spends, plays from the hand, deaths and
    upgrades, phase by phase."""

    def handlers(self) -> Mapping[type, Handler]:
        return {
            TurnBegun: self.on_turn,
            PhaseBegun: self.on_phase,
            ev.Perform: self.on_function,
            ev.Face: self.on_function,
            ev.Play: self.on_play,
            ev.TableToZone: self.on_leave,
            ev.CardAction: self.on_leave,
        }

    def on_turn(self, _: TurnBegun, __: Fact) -> None:
        self.ctx.text.new_turn()

    def on_phase(self, _: PhaseBegun, __: Fact) -> None:
        self.ctx.text.new_phase()

    def on_function(self, _: ev.Event, fact: Fact) -> None:
        if fact.owner is None:
            return
        if fact.meaning == Meaning.SPEND:
            self.ctx.text.used(fact.name, fact.owner.name, "spent")
        elif fact.meaning == Meaning.FLIP:
            self.ctx.text.used(fact.name, fact.owner.name, "flipped")
        elif fact.meaning == Meaning.TAKE_CONTROL and fact.survivor is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "died")

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        if event.src_zone == HAND and fact.owner is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "played")

    def on_leave(self, event: ev.Event, fact: Fact) -> None:
        if fact.owner is None:
            return
        if fact.survivor is not None:
            self.ctx.text.used(fact.name, fact.owner.name, "died")
        elif isinstance(event, ev.TableToZone) and event.dst_zone != DISCARD:
            self.ctx.text.withdrawn(fact.name, fact.owner.name)
