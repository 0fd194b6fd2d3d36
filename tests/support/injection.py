"""Systematic injection: every place a simulated log allows one of four violations, each
told apart by whether the log decides the rule (no legal reading of the injected line exists,
judged with the simulator's full state) or another legal reading exists (and which).

The four (issue 12's detection rates): a heal without a Medic, a zombie that is not a ready
attacker fighting (a zombie player's Spend in the Attack phase), a wound with no attacker,
and a third draw in a Draw phase. Each is one line inserted before ``index``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from zcards.model import Card
from zcards.rules.cards import Effect, text_effects
from zcards.sim.actions import Action, ActionKind
from zcards.sim.recorder import RecordedLog

from .logview import setup_end, walk
from .truth import Snapshot

# injection -> the violation kind the audit should report at the injected line
EXPECTED = {
    "heal without a Medic": "ability-use",
    "non-attacker fights": "illegal-attacker",
    "wound without an attacker": "combat-result",
    "third draw": "draw-count",
}
UNSEEN = "a card"


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
    recoup_spenders = {
        n for n, c in cards.items() if re.search(rf"Recoup - Spend {re.escape(n)}", c.text)
    }
    attackers_at_start: set[str] = set()
    for index, _, moment, _ in walk(events):
        if index <= start or moment.active is None:
            continue
        state = states[index]
        before, after = _neighbours(events, index)
        in_game = [name for name, side in state.items() if not side.lost]
        yield from _heals(index, state, in_game, before, after, healers)
        if moment.phase != "Attack":
            continue
        if _is_phase_line(before, "Attack"):
            attackers_at_start = {
                name
                for name in in_game
                if name != moment.active and any(z.attacking for z in state[name].zombies)
            }
        zombie_players = [name for name in in_game if name != moment.active]
        yield from _fighters(index, state, zombie_players, before, after, recoup_spenders)
        wounded = zombie_players if attackers_at_start else in_game
        yield from _wounds(index, state, wounded, before, after)
    yield from _third_draws(log, actions, states, pov)


def _neighbours(events: Sequence[ev.Event], index: int) -> tuple[ev.Event | None, ev.Event | None]:
    """The game actions (not chat) just before and just after the gap before ``index``."""
    before = next((e for e in reversed(events[:index]) if not isinstance(e, ev.Chat)), None)
    after = next((e for e in events[index:] if not isinstance(e, ev.Chat)), None)
    return before, after


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
        text = {n: c.text for n, c in cards.items() if Effect.HEAL in text_effects(c.text)}
        return cls(
            frozenset(n for n, c in cards.items() if c.has_symbol("Medic")),
            frozenset(n for n, t in text.items() if re.search(rf"Spend {re.escape(n)}:", t)),
            frozenset(n for n, t in text.items() if "one-shot" in t.casefold()),
            frozenset(n for n, t in text.items() if re.search(rf"When {re.escape(n)} dies", t)),
        )

    def reading(self, before: ev.Event | None, owner: str, card: str) -> str:
        """The card use just before a heal of ``owner``'s ``card`` that makes it legal."""
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
        return "card text" if leaves and used in self.dying and used != card else ""


def _heals(index, state: Snapshot, in_game, before, after, healers: Healers):
    """A Heal on each wounded survivor copy; legal right after a Medic's spend, as the inverse
    of the wound just before or after it (a correction), or right after a card whose text
    removes wounds was used (Bandages played, Grandma Edna's death for her own survivors…)."""
    for name in in_game:
        for survivor in {s for s in state[name].survivors if s.wounds > 0}:
            card, w = survivor.name, survivor.wounds
            undone = _counter(before, name, Meaning.WOUND, card, w - 1, w) or _counter(
                after, name, Meaning.WOUND, card, w - 1, w
            )
            reading = "a correction" if undone else healers.reading(before, name, card)
            heal = ev.CounterChange.of(name, Meaning.HEAL, card, w, w - 1)
            yield Injection("heal without a Medic", index, heal, reading)


def _performs(event: ev.Event | None, player: str, meaning: Meaning) -> TypeGuard[ev.Perform]:
    return isinstance(event, ev.Perform) and event.player == player and event.meaning == meaning


def _fighters(index, state: Snapshot, zombie_players, before, after, recoup_spenders):
    """A zombie player's Spend on a card of his that is not a ready attacker; legal when a
    ready attacker looks the same in the log, as half of a Spend/Ready correction, or as a
    Recoup ability logged just before the Recoup phase line (phase-line lag)."""
    for name in zombie_players:
        zombies = state[name].zombies
        for shown in sorted({z.shown for z in zombies if not z.attacking}):
            reading = (
                "a ready attacker looks the same"
                if any(z.attacking and z.shown == shown for z in zombies)
                else "a correction"
                if any(
                    _performs(x, name, Meaning.READY) and x.card == shown for x in (before, after)
                )
                else "a Recoup ability, logged early"
                if _is_phase_line(after, "Recoup") and shown in recoup_spenders
                else ""
            )
            spend = ev.Perform.of(name, Meaning.SPEND, shown)
            yield Injection("non-attacker fights", index, spend, reading)


def _wounds(index, state: Snapshot, players, before, after):
    """A Wound (not a lethal one) on a survivor no attacker can reach: a zombie player's, or
    the active player's when no zombie was attacking; legal only as half of a correction."""
    for name in players:
        for survivor in {s for s in state[name].survivors if s.wounds + 1 < s.health}:
            card, w = survivor.name, survivor.wounds
            undone = _counter(before, name, Meaning.HEAL, card, w + 1, w) or _counter(
                after, name, Meaning.HEAL, card, w + 1, w
            )
            wound = ev.CounterChange.of(name, Meaning.WOUND, card, w, w + 1)
            reading = "a correction" if undone else ""
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
