"""Systematic injection: every place a simulated log allows one of four violations, each
told apart by whether the log decides the rule (no legal reading of the log up to the
injected line makes that line legal) or another legal reading exists (and which).

The four (scripts/detection_rates.py): a heal without a Medic, a zombie that is not a ready
attacker fighting (a zombie player's Spend in the Attack phase), a wound with no attacker,
and a third draw in a Draw phase. Each is one line inserted before ``index``. *Where* to
inject comes from the simulator's full state (the line must break the rule in the game that
was played); *whether the log decides* comes from the log alone: what it shows of each
survivor and card, and every arrangement of the zombie cards its lines allow
(:mod:`.table_readings`), never from what only the simulator knows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeGuard

from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.game.definition import ZOMBIE_GAME, Meaning
from zcards.sim.actions import Action, ActionKind
from zcards.sim.recorder import RecordedLog

from .logview import Side, setup_end, walk
from .table_readings import Tables, corrections, readings
from .truth import Snapshot, Survivor

# injection -> the violation kind the audit should report at the injected line
EXPECTED = {
    "heal without a Medic": "ability-use",
    "non-attacker fights": "illegal-attacker",
    "wound without an attacker": "combat-result",
    "third draw": "draw-count",
}
UNSEEN = "a card"
HEALING = "remove a wound counter"  # what a card's text says when it heals (R12.1, R16.1)


@dataclass(frozen=True)
class Injection:
    """One line to insert before ``index``; ``reading`` names the legal reading of it that
    the log leaves open (empty when the log decides the rule)."""

    name: str
    index: int
    event: ev.Event
    reading: str = ""

    @property
    def decided(self) -> bool:
        return not self.reading


def injections(
    log: RecordedLog,
    actions: Sequence[Action],
    states: Sequence[Snapshot],
    cards: Mapping[str, Card],
    pov: str,
) -> Iterator[Injection]:
    """Every injection the log allows, in log order."""
    events = log.events
    start = setup_end(events)
    healers = Healers.of(cards)
    owed = healers.owed(events)
    recoup_spenders = {
        n for n, c in cards.items() if re.search(rf"Recoup - Spend {re.escape(n)}", c.text)
    }
    zombies = frozenset(n for n, c in cards.items() if c.type == "Zombie")
    attackers_at_start: set[str] = set()
    no_attacker = ""  # why the log cannot rule out an attacker when this Attack phase began
    positions = zip(walk(events), readings(events, zombies), _neighbours(events), strict=True)
    placed = _placed(events)
    for (index, _, moment, _), tables, (before, after) in positions:
        if index <= start or moment.active is None:
            continue
        state = states[index]
        in_game = [name for name, side in state.items() if not side.lost]
        heals = _heals(index, state, in_game, (before, after, placed[index]), healers, owed[index])
        yield from heals
        if moment.phase != "Attack":
            continue
        zombie_players = [name for name in in_game if name != moment.active]
        if _is_phase_line(before, "Attack"):
            attackers_at_start = {
                name for name in zombie_players if any(z.attacking for z in state[name].zombies)
            }
            no_attacker = tables.attacker_reading(zombie_players)
        yield from _fighters(index, state, tables, zombie_players, before, after, recoup_spenders)
        if not attackers_at_start:
            active = [name for name in in_game if name == moment.active]
            yield from _wounds(index, state, active, before, after, no_attacker)
        yield from _wounds(index, state, zombie_players, before, after, "")
    yield from _third_draws(log, actions, states, pov)


def _neighbours(events: Sequence[ev.Event]) -> list[tuple[ev.Event | None, ev.Event | None]]:
    """For the gap before each index, the game actions just before and just after it: chat
    skipped, and so is a corrected misclick wholly on one side of the gap (R17.3: the pair
    leaves the game as before it, so the lines around it are neighbours)."""
    undoes = corrections(events)  # undoing line -> the misclick it undoes
    undone = {misclick: undo for undo, misclick in undoes.items()}

    def back(k: int) -> ev.Event | None:
        while k >= 0 and (isinstance(events[k], ev.Chat) or k in undoes):
            k = undoes[k] - 1 if k in undoes else k - 1
        return events[k] if k >= 0 else None

    def forward(k: int) -> ev.Event | None:
        while k < len(events) and (isinstance(events[k], ev.Chat) or k in undone):
            k = undone[k] + 1 if k in undone else k + 1
        return events[k] if k < len(events) else None

    return [(back(gap - 1), forward(gap)) for gap in range(len(events))]


def _is_phase_line(event: ev.Event | None, new: str) -> bool:
    return isinstance(event, ev.PhaseChange) and event.new == new


def _counter(event: ev.Event | None, player: str, meaning: Meaning, card: str, old: int, new: int):
    """Whether ``event`` is ``player``'s counter line ``meaning (old to new)`` on ``card``."""
    return isinstance(event, ev.CounterChange) and (
        event.player,
        event.meaning,
        event.card,
        event.old,
        event.new,
    ) == (player, meaning, card, old, new)


@dataclass(frozen=True)
class Healers:
    """Cards that remove wounds, by how they do it (the alpha set's, from their text)."""

    medics: frozenset[str]  # Medic symbol: its Spend, then the heal of any survivor
    spent: frozenset[str]  # "Spend X: remove a wound counter" (First Aid Station)
    played: frozenset[str]  # one-shot items: played, the heal, then discarded (Bandages)
    dying: frozenset[str]  # "When X dies, remove a wound counter from each other survivor
    #                        you control" (Grandma Edna)

    @classmethod
    def of(cls, cards: Mapping[str, Card]) -> Healers:
        text = {n: c.text for n, c in cards.items() if HEALING in c.text.casefold()}
        return cls(
            frozenset(n for n, c in cards.items() if c.has_symbol("Medic")),
            frozenset(n for n, t in text.items() if re.search(rf"Spend {re.escape(n)}:", t)),
            frozenset(n for n, t in text.items() if "one-shot" in t.casefold()),
            frozenset(n for n, t in text.items() if re.search(rf"When {re.escape(n)} dies", t)),
        )

    def reading(self, before: ev.Event | None, owner: str) -> str:
        """The card use just before a heal of ``owner``'s survivor that makes it legal (a
        dying healer's heal may be of another copy of her: the dead one left the table)."""
        used = getattr(before, "card", None)
        if isinstance(before, ev.Perform) and before.meaning == Meaning.SPEND:
            if used in self.medics:
                return "a Medic's heal"
            return "card text" if used in self.spent else ""
        if isinstance(before, ev.Play | ev.TableToZone) and used in self.played:
            return "card text"
        leaves = (isinstance(before, ev.TableToZone) and before.player == owner) or (
            isinstance(before, ev.Perform)
            and before.meaning == Meaning.TAKE_CONTROL
            and before.player != owner
        )
        return "card text" if leaves and used in self.dying else ""

    def heals_one(self, event: ev.Event) -> bool:
        """A card use that removes one wound: a Medic or a healing card spent, a one-shot
        healer played."""
        if isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND:
            return event.card in self.medics | self.spent
        return isinstance(event, ev.Play) and event.card in self.played

    def owed(self, events: Sequence[ev.Event]) -> list[Owed]:
        """Before each event, the heals that cards used earlier in the phase may still owe
        (R16.1: a card spent, played or dead earlier in the phase explains its events):
        one per Medic or healing card spent and per one-shot healer played, less the heals
        logged since; each other survivor of a player whose dying healer died. Misclicks
        undone at once (R17.3) use no card and heal no one."""
        paired = {i for pair in corrections(events).items() for i in pair}
        owed, before = Owed(), []
        for index, event, _, sides in walk(events):
            before.append(owed)
            if isinstance(event, ev.PhaseChange | ev.TurnChange):
                owed = Owed()
            elif index in paired:
                continue
            elif isinstance(event, ev.CounterChange) and event.meaning == Meaning.HEAL:
                if event.player not in owed.owners:
                    owed = replace(owed, any=max(0, owed.any - 1))
            elif self.heals_one(event):
                owed = replace(owed, any=owed.any + 1)
            elif getattr(event, "card", None) in self.dying and (
                owner := _dead_owner(event, sides)
            ):
                owed = replace(owed, owners=owed.owners | {owner})
        return before


@dataclass(frozen=True)
class Owed:
    """Heals that cards used earlier in a phase may still owe, before one line."""

    any: int = 0  # to any survivor: a Medic spent, Bandages played… with no heal logged since
    owners: frozenset[str] = frozenset()  # to each survivor of theirs: a dying healer died

    def reading(self, owner: str) -> str:
        """Why a heal of ``owner``'s survivor may be one of them ("" when it cannot)."""
        return "a card's heal, logged late" if self.any or owner in self.owners else ""


def _dead_owner(event: ev.Event, sides: Mapping[str, Side]) -> str:
    """Whose card died on this line: moved from the table to the discard pile, or taken
    (infected) from another player ("" when no card died)."""
    if isinstance(event, ev.TableToZone) and event.dst_zone == "Discard":
        return event.player
    if isinstance(event, ev.Perform) and event.meaning == Meaning.TAKE_CONTROL:
        others = (p for p, side in sides.items() if p != event.player and side.named[event.card])
        return next(others, "")
    return ""


def _distinct(survivors: Iterable[Survivor]) -> list[Survivor]:
    """One of each copy state, in a fixed order (the sample must not depend on hashing)."""
    return sorted(set(survivors), key=lambda s: (s.name, s.wounds, s.health))


Placed = dict[tuple[str, str], tuple[int, int]]  # (player, survivor) -> its last counter line


def _placed(events: Sequence[ev.Event]) -> list[Placed]:
    """Before each line, the last Wound or Heal line of the phase on each player's survivor
    (``old``, ``new``): a later line undoing it is a fix found by its net effect (R17.3)."""
    placed: Placed = {}
    before: list[Placed] = []
    for event in events:
        before.append(placed)
        if isinstance(event, ev.PhaseChange | ev.TurnChange):
            placed = {}
        elif isinstance(event, ev.CounterChange) and event.meaning in (
            Meaning.WOUND,
            Meaning.HEAL,
        ):
            placed = {**placed, (event.player, event.card): (event.old, event.new)}
    return before


def _heals(index, state: Snapshot, in_game, around, healers: Healers, owed: Owed):
    """A Heal on each wounded survivor copy; legal right after a Medic's spend, as the inverse
    of the wound just before or after it, or of the last one put on that survivor earlier in
    the phase (a correction), right after a card whose text removes wounds was used (Bandages
    played, Grandma Edna's death for her own survivors…), or later in the phase of such a use
    whose heal is not logged yet (``owed``). ``around``: the game actions just before and
    after the line, and the wounds placed earlier in the phase."""
    before, after, placed = around
    for name in in_game:
        for survivor in _distinct(s for s in state[name].survivors if s.wounds > 0):
            card, w = survivor.name, survivor.wounds
            undone = (
                _counter(before, name, Meaning.WOUND, card, w - 1, w)
                or _counter(after, name, Meaning.WOUND, card, w - 1, w)
                or placed.get((name, card)) == (w - 1, w)
            )
            reading = (
                "a correction" if undone else healers.reading(before, name) or owed.reading(name)
            )
            heal = ev.CounterChange.of(name, Meaning.HEAL, card, w, w - 1, game=ZOMBIE_GAME)
            yield Injection("heal without a Medic", index, heal, reading)


def _performs(event: ev.Event | None, player: str, meaning: Meaning) -> TypeGuard[ev.Perform]:
    return isinstance(event, ev.Perform) and event.player == player and event.meaning == meaning


def _fighters(
    index, state: Snapshot, tables: Tables, zombie_players, before, after, recoup_spenders
):
    """A zombie player's Spend on a card of his that is not a ready attacker; legal when some
    arrangement of his cards the log allows has a ready attacker that looks the same (a
    face-down card whose zone the log does not show…), as half of a Spend/Ready correction,
    or as a Recoup ability logged just before the Recoup phase line (phase-line lag)."""
    for name in zombie_players:
        zombies = state[name].zombies
        for shown in sorted({z.shown for z in zombies if not z.attacking}):
            reading = (
                tables.fight_reading(name, shown)
                or (
                    "a correction"
                    if any(
                        _performs(x, name, Meaning.READY) and x.card == shown
                        for x in (before, after)
                    )
                    else ""
                )
                or (
                    "a Recoup ability, logged early"
                    if _is_phase_line(after, "Recoup") and shown in recoup_spenders
                    else ""
                )
            )
            spend = ev.Perform.of(name, Meaning.SPEND, shown, game=ZOMBIE_GAME)
            yield Injection("non-attacker fights", index, spend, reading)


def _wounds(index, state: Snapshot, players, before, after, attacker: str):
    """A Wound (not a lethal one) on a survivor of ``players`` that no attacker can reach (a
    zombie player's, or the active player's when no zombie was attacking); legal as half of a
    correction, or when the log allows an attacker (``attacker``: why it does)."""
    for name in players:
        for survivor in _distinct(s for s in state[name].survivors if s.wounds + 1 < s.health):
            card, w = survivor.name, survivor.wounds
            undone = _counter(before, name, Meaning.HEAL, card, w + 1, w) or _counter(
                after, name, Meaning.HEAL, card, w + 1, w
            )
            wound = ev.CounterChange.of(name, Meaning.WOUND, card, w, w + 1, game=ZOMBIE_GAME)
            reading = "a correction" if undone else attacker
            yield Injection("wound without an attacker", index, wound, reading)


def _third_draws(log: RecordedLog, actions: Sequence[Action], states, pov: str):
    """A single draw in a Draw phase by a player who has drawn his 2 cards, at every place
    after his second card and before the Build phase line (none when his deck would run out
    before the log ends). No card lets anyone draw in the Draw phase: always decided."""
    line_of = {source: i for i, source in enumerate(log.sources) if source is not None}
    final = states[-1]
    draw_phase: tuple[int, int] | None = None  # action indices of its phase lines
    for index, action in enumerate(actions):
        if action.kind is ActionKind.NEXT_PHASE and action.new == "Draw":
            draw_phase = (index, index)
        elif action.kind is ActionKind.NEXT_PHASE and action.new == "Build" and draw_phase:
            first, build = draw_phase[0], index
            for player in sorted({a.player for a in actions[first:build] if _draws(a)}):
                drawn = [line_of[i] for i in range(first, build) if _draws(actions[i], player)]
                if final[player].deck < 2 or first not in line_of or build not in line_of:
                    continue
                for gap in range(max(max(drawn), line_of[first]) + 1, line_of[build] + 1):
                    top = states[gap][player].top if pov == player else UNSEEN
                    draw = ev.Draw(player, 1, top or UNSEEN)
                    yield Injection("third draw", gap, draw)
            draw_phase = None


def _draws(action: Action, player: str | None = None) -> bool:
    return action.kind in (ActionKind.DRAW, ActionKind.DRAW_MANY) and player in (
        None,
        action.player,
    )
