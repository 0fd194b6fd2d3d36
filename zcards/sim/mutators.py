"""Violation injection: for each violation kind of the audit, turn a legal log into one that
breaks exactly that rule, and say on which line.

A mutator takes the events of a legal log (one event per line), a random source and the card
book, and returns a :class:`Mutation`, or None when the log has no place where the violation
can be injected without ambiguity (e.g. no Scavenger ever rolled). Places are chosen so that
no reading of the mutated log is legal: the audit is sound, so an injection it could explain
(by a hidden card or card text) would rightly not be reported.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from zcards.model import Card
from zcards.rules.cards import Effect, text_effects
from zcards.rules.violations import Kind as Violation
from zcards.sim.logview import SETUP, texts, walk

FACE_DOWN = "a face-down card"


@dataclass(frozen=True)
class Mutation:
    """A mutated log and the 1-based line of the injected violation."""

    kind: Violation
    events: tuple[ev.Event, ...]
    line: int
    note: str


Site = tuple[Callable[[], tuple[list[ev.Event], int]], str]
Mutator = Callable[[Sequence[ev.Event], random.Random, Mapping[str, Card]], Mutation | None]


def _insert(events: Sequence[ev.Event], index: int, event: ev.Event) -> tuple[list, int]:
    return [*events[:index], event, *events[index:]], index


def _replace(events: Sequence[ev.Event], index: int, event: ev.Event) -> tuple[list, int]:
    return [*events[:index], event, *events[index + 1:]], index


def _delete(events: Sequence[ev.Event], index: int, report_at: int) -> tuple[list, int]:
    """Drop line ``index``; the violation shows at ``report_at`` (an index before deletion)."""
    return [*events[:index], *events[index + 1:]], report_at - (report_at > index)


def _pick(kind: Violation, sites: list[Site], rng: random.Random) -> Mutation | None:
    if not sites:
        return None
    make, note = rng.choice(sites)
    events, index = make()
    numbered = tuple(replace(event, line=number) for number, event in enumerate(events, 1))
    return Mutation(kind, numbered, index + 1, note)


def _flagged(cards: Mapping[str, Card], *effects: Effect) -> set[str]:
    """Cards whose text the audit reads as possibly having one of ``effects`` (R16.1)."""
    return {name for name, card in cards.items() if text_effects(card.text) & set(effects)}


def _next_phase_line(events: Sequence[ev.Event], start: int) -> int | None:
    """The first phase change at or after ``start``, where end-of-phase checks report."""
    return next((j for j in range(start, len(events)) if isinstance(events[j], ev.PhaseChange)),
                None)


def _is_phase(event: ev.Event, new: str) -> bool:
    return isinstance(event, ev.PhaseChange) and event.new == new


def _of_type(cards: Mapping[str, Card], *types: str, zero_requirements: bool = False) -> list:
    return sorted(
        name for name, card in cards.items()
        if card.type in types and not (zero_requirements and card.requirements)
    )


def draw_count(events, rng, cards) -> Mutation | None:
    """``draws 2 cards.`` becomes ``draws 3 cards.`` early in the game (the deck has plenty)."""
    drawing = _flagged(cards, Effect.DRAW)
    sites: list[Site] = [
        (lambda i=i, e=e: _replace(events, i, replace(e, count=3)), f"{e.player} draws 3")
        for i, e, moment, sides in walk(events)
        if isinstance(e, ev.Draw) and e.count == 2 and moment.phase == "Draw"
        and moment.turn <= 8 and not texts(moment, sides, e.player) & drawing
    ]
    return _pick(Violation.DRAW_COUNT, sites, rng)


def resource_play(events, rng, cards) -> Mutation | None:
    """A second face-down play in one Build, or one in the Recoup phase."""
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (isinstance(e, ev.Play) and e.hidden and e.src_zone == "Hand"
                and moment.phase == "Build" and sides[e.player].hand >= 2):
            sites.append((lambda i=i, e=e: _insert(events, i + 1, e), f"{e.player} plays twice"))
        if _is_phase(e, "Recoup") and i + 1 < len(events):
            for name, side in sides.items():
                if side.hand >= 1:
                    late = ev.Play(name, "a face down card", name, "Hand")
                    sites.append(
                        (lambda i=i, late=late: _insert(events, i + 1, late), f"{name} in Recoup")
                    )
    return _pick(Violation.RESOURCE_PLAY, sites, rng)


def card_play(events, rng, cards) -> Mutation | None:
    """Drop one Spend paying for a survivor or item, or let a non-active player play one."""
    free = [name for name in _of_type(cards, "Item") if (cards[name].cost or 0) == 0]
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (isinstance(e, ev.Play) and not e.hidden and e.src_zone == "Hand" and i > 0
                and _is_spend(events[i - 1], e.player) and moment.phase == "Build"
                and not _spends_later_in_phase(events, i + 1, e.player)):
            sites.append((lambda i=i: _delete(events, i - 1, i), f"{e.card} one spend short"))
        if _is_phase(e, "Build") and free and moment.active:
            for name, side in sides.items():
                if name != moment.active and side.hand >= 1:
                    item = rng.choice(free)
                    play = ev.Play(name, item, name, "Hand")
                    gone = ev.TableToZone(name, item, name, "Discard", dst_pos="top")
                    sites.append((lambda i=i, p=play, g=gone: (
                        [*events[:i + 1], p, g, *events[i + 1:]], i + 1),
                        f"{name} plays {item} on {moment.active}'s turn"))
    return _pick(Violation.CARD_PLAY, sites, rng)


def _is_spend(event: ev.Event, player: str) -> bool:
    return (isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND
            and event.player == player)


def _spends_later_in_phase(events: Sequence[ev.Event], start: int, player: str) -> bool:
    """Spends after a play may pay for it: only a play with none after it is surely short."""
    end = _next_phase_line(events, start) or len(events)
    return any(_is_spend(event, player) for event in events[start:end])


def opening_survivors(events, rng, cards) -> Mutation | None:
    """An item put out at setup, or an opening survivor that never acts swapped for a dearer
    one (so the number of survivors, and every later upkeep, stays the same)."""
    items = _plain(cards, "Item")
    survivors = _plain(cards, "Survivor")
    totals: dict[str, int] = {}
    for _i, e, moment, _ in walk(events):
        if isinstance(e, ev.Play) and moment.turn == 0 and e.card in cards:
            totals[e.player] = totals.get(e.player, 0) + (cards[e.card].cost or 0)
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if moment.turn != 0:
            continue
        if isinstance(e, ev.Shuffle) and items:
            play = ev.Play(e.player, rng.choice(items), e.player, "Deck")
            sites.append((lambda i=i, p=play: _insert(events, i, p), f"{play.card} at setup"))
        if not (isinstance(e, ev.Play) and e.card in cards) or _acted_on(events, i + 1, e.card):
            continue
        rest = totals[e.player] - (cards[e.card].cost or 0)
        dear = [name for name in survivors if rest + (cards[name].cost or 0) > 6]
        if dear:
            swap = replace(e, card=rng.choice(dear))
            sites.append((lambda i=i, s=swap: _replace(events, i, s),
                          f"{e.card} swapped for {swap.card}"))
    return _pick(Violation.OPENING_SURVIVORS, sites, rng)


def _plain(cards: Mapping[str, Card], card_type: str) -> list[str]:
    """Cards of a type whose text the audit cannot read as bending any rule."""
    return sorted(name for name, card in cards.items()
                  if card.type == card_type and not text_effects(card.text))


def _acted_on(events: Sequence[ev.Event], start: int, card: str) -> bool:
    return any(_on_table(event, card) for event in events[start:])


def phase_order(events, rng, cards) -> Mutation | None:
    """Skip an empty Attack phase (Build -> Recoup) or the End phase."""
    sites: list[Site] = []
    for i, e, _moment, _ in walk(events):
        following = events[i + 1] if i + 1 < len(events) else None
        if _is_phase(e, "Attack") and _is_phase(following, "Recoup"):
            skip = replace(e, new="Recoup")
            sites.append((lambda i=i, s=skip: (
                [*events[:i], s, *events[i + 2:]], i), "Attack skipped"))
        if _is_phase(e, "End") and isinstance(following, ev.TurnChange):
            sites.append((lambda i=i: _delete(events, i, i + 1), "End skipped"))
    return _pick(Violation.PHASE_ORDER, sites, rng)


def illegal_attacker(events, rng, cards) -> Mutation | None:
    """A zombie player's face-down card loses a fight although he has nothing in combat."""
    spending = _flagged(cards, Effect.SPEND)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if not _is_phase(e, "Attack"):
            continue
        for name, side in sides.items():
            if (name != moment.active and side.combat == 0 and side.face_down >= 1
                    and not texts(moment, sides, name) & spending):
                spend = ev.Perform.of(name, Meaning.SPEND, FACE_DOWN)
                sites.append((lambda i=i, s=spend: _insert(events, i + 1, s),
                              f"{name} attacks from outside combat"))
    return _pick(Violation.ILLEGAL_ATTACKER, sites, rng)


def combat_result(events, rng, cards) -> Mutation | None:
    """A wound in an Attack phase that no attacker can cause: on a zombie player's survivor,
    or on the active player's when no other player has anything in combat."""
    explaining = _flagged(cards, Effect.WOUND, Effect.POWER, Effect.COMBAT)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (not _is_phase(e, "Attack") or moment.active is None
                or texts(moment, sides) & explaining):
            continue
        unopposed = not any(side.combat for name, side in sides.items() if name != moment.active)
        for name, side in sides.items():
            if name != moment.active or unopposed:
                sites.extend(_wound_sites(events, i + 1, name, side, cards))
    return _pick(Violation.COMBAT_RESULT, sites, rng)


def _wound_sites(events, index: int, player: str, side, cards) -> list[Site]:
    sites: list[Site] = []
    for survivor in side.named:
        card = cards.get(survivor)
        wounds = side.wounds.get(survivor, 0)
        if card and card.type == "Survivor" and wounds + 1 < (card.health or 1):
            hit = ev.CounterChange.of(player, Meaning.WOUND, survivor, wounds, wounds + 1)
            sites.append((lambda h=hit: _insert(events, index, h),
                          f"{player}'s {survivor} wounded with no attacker"))
    return sites


def food_upkeep(events, rng, cards) -> Mutation | None:
    """Drop a player's last upkeep food line (nothing later depends on his food total)."""
    last_food: dict[str, int] = {}
    for i, e, _moment, _ in walk(events):
        if isinstance(e, ev.StatChange) and e.target:
            last_food[e.target] = i
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if not (isinstance(e, ev.StatChange) and moment.phase == "Recoup"
                and e.target == moment.active and e.delta == -1 and last_food[e.target] == i):
            continue
        end = next((j for j in range(i + 1, len(events)) if _is_phase(events[j], "End")), None)
        if end is not None:
            sites.append((lambda i=i, end=end: _delete(events, i, end), f"{e.target} no upkeep"))
    return _pick(Violation.FOOD_UPKEEP, sites, rng)


def infection_wound(events, rng, cards) -> Mutation | None:
    """Drop a Ready-phase infection wound that is the survivor's last counter change."""
    sites: list[Site] = []
    for i, e, moment, _ in walk(events):
        if not (isinstance(e, ev.CounterChange) and e.meaning == Meaning.WOUND
                and moment.phase == "Ready" and moment.turn > 0):
            continue
        ready_end = next((j for j in range(i + 1, len(events)) if _is_phase(events[j], "Draw")),
                         None)
        if ready_end is not None:
            sites.append((lambda i=i, j=ready_end: _delete(events, i, j), f"{e.card} not wounded"))
    return _pick(Violation.INFECTION_WOUND, sites, rng)


def _on_table(event: ev.Event, card: str) -> bool:
    """True for a line that acts on a table card named ``card`` (counters, functions, death)."""
    return (isinstance(event, ev.CounterChange | ev.Perform | ev.TableToZone)
            and event.card == card)


def zombie_upgrade(events, rng, cards) -> Mutation | None:
    """The active player's upgrade moved from Build to the Attack phase (his zombies do not
    fight then), or a non-zombie flipped in Build by a player with face-down cards to spare."""
    plain = _plain(cards, "Item") + _plain(cards, "Survivor")
    sites: list[Site] = []
    for i, e, moment, sides in walk(events):
        if (isinstance(e, ev.Perform) and e.meaning == Meaning.FLIP and moment.phase == "Build"
                and e.player == moment.active):
            end = _next_phase_line(events, i + 1)
            if (end is not None and _is_phase(events[end], "Attack")
                    and not any(getattr(x, "card", None) == e.card for x in events[i + 1:end])):
                sites.append((lambda i=i, e=e, end=end: (
                    [*events[:i], *events[i + 1:end + 1], e, *events[end + 1:]], end),
                    f"{e.card} upgraded in Attack"))
        if _is_phase(e, "Build") and plain:
            for name, side in sides.items():
                if _spare_face_down(events, i + 1, name, side.face_down) >= 1:
                    flip = ev.Perform.of(name, Meaning.FLIP, rng.choice(plain))
                    sites.append((lambda i=i, f=flip: _insert(events, i + 1, f),
                                  f"{flip.card} flipped"))
    return _pick(Violation.ZOMBIE_UPGRADE, sites, rng)


def _spare_face_down(events: Sequence[ev.Event], start: int, player: str, face_down: int) -> int:
    """How many of ``player``'s face-down cards he never needs ready again from ``start``."""
    spare, spent = face_down, 0
    for event in events[start:]:
        if isinstance(event, ev.TurnChange) or (
                isinstance(event, ev.PerformAll) and event.player == player):
            spent = 0
        elif getattr(event, "player", None) != player:
            continue
        elif isinstance(event, ev.Play) and event.hidden:
            face_down += 1
        elif isinstance(event, ev.Perform) and event.meaning == Meaning.FLIP:
            face_down -= 1
        elif isinstance(event, ev.Perform) and event.meaning == Meaning.SPEND and event.hidden:
            spare = min(spare, face_down - spent - 1)
            spent += 1
    return spare


def scavenge_food(events, rng, cards) -> Mutation | None:
    """A successful roll becomes a 1 and keeps its food."""
    feeding = _flagged(cards, Effect.FOOD)
    sites: list[Site] = [
        (lambda i=i, e=e: (_replace(events, i, replace(e, results=(1,)))[0], i + 1),
         f"{e.player} rolled 1")
        for i, e, moment, sides in walk(events[:-1])
        if isinstance(e, ev.DiceRoll) and e.results != (1,) and _gains_food(events[i + 1])
        and not texts(moment, sides, e.player) & feeding
    ]
    return _pick(Violation.SCAVENGE_FOOD, sites, rng)


def _gains_food(event: ev.Event) -> bool:
    return isinstance(event, ev.StatChange) and event.delta == 1


def ability_use(events, rng, cards) -> Mutation | None:
    """A Scavenger roll or a Medic heal without the survivor's Spend. The audit sees the
    unbacked roll when food is credited for it, so that is the line."""
    feeding, healing = _flagged(cards, Effect.FOOD), _flagged(cards, Effect.HEAL)
    sites: list[Site] = []
    for i, e, moment, sides in walk(events[:-1]):
        if not (i and _is_spend(events[i - 1], getattr(e, "player", "")))\
                or events[i - 1].hidden:
            continue
        note = f"{events[i - 1].card} not spent"
        if (isinstance(e, ev.DiceRoll) and _gains_food(events[i + 1])
                and not texts(moment, sides, e.player) & feeding):
            sites.append((lambda i=i: _delete(events, i - 1, i + 1), note))
        elif (isinstance(e, ev.CounterChange) and e.meaning == Meaning.HEAL
                and not texts(moment, sides) & healing):
            sites.append((lambda i=i: _delete(events, i - 1, i), note))
    return _pick(Violation.ABILITY_USE, sites, rng)


def action_after_loss(events, rng, cards) -> Mutation | None:
    """After the line that ended the game, the player who lost acts once more."""
    last = events[-1] if events else None
    if last is None or isinstance(last, ev.PhaseChange | ev.TurnChange):
        return None
    players = [e.player for e in events if isinstance(e, ev.Seat)]
    loser = last.player
    if isinstance(last, ev.Perform) and last.meaning == Meaning.TAKE_CONTROL:
        loser = next(name for name in players if name != last.player)
    action = ev.PerformAll.of(loser, Meaning.READY_ALL)
    return _pick(Violation.ACTION_AFTER_LOSS,
                 [(lambda: _insert(events, len(events), action), f"{loser} acts after losing")],
                 rng)


def dead_survivor(events, rng, cards) -> Mutation | None:
    """Drop the discard line of a survivor whose wounds reached its Health; the audit finds it
    still in play when the phase ends."""
    lasting = _flagged(cards, Effect.HEALTH)
    upkeeps = [(i, moment.active) for i, e, moment, _ in walk(events) if _is_phase(e, "End")]
    sites: list[Site] = []
    for i, e, moment, sides in walk(events[:-1]):
        if any(j > i and active == getattr(e, "player", None) for j, active in upkeeps):
            continue
        after = events[i + 1]
        card = cards.get(getattr(e, "card", ""))
        end = _next_phase_line(events, i + 2)
        if (isinstance(e, ev.CounterChange) and e.meaning == Meaning.WOUND and card
                and e.new >= (card.health or 1) and isinstance(after, ev.TableToZone)
                and after.card == e.card and end is not None
                and not any(isinstance(x, ev.TurnChange) for x in events[i + 2:end])
                and not any(_on_table(x, e.card) for x in events[i + 2:])
                and not texts(moment, sides, e.player) & lasting):
            sites.append((lambda i=i, end=end: _delete(events, i + 1, end), f"{e.card} stays"))
    return _pick(Violation.DEAD_SURVIVOR, sites, rng)


def food_total(events, rng, cards) -> Mutation | None:
    """A food line whose "from" is not the tracked total (the bid line when there is one)."""
    changes = [(i, e) for i, e in enumerate(events) if isinstance(e, ev.StatChange)]
    bids = [(i, e) for i, e in changes if i < _first_turn(events)]
    sites = [
        (lambda i=i, e=e: _replace(events, i, replace(e, old=e.old + 1, delta=None)),
         f"{e.target} from {e.old + 1}")
        for i, e in bids or changes
    ]
    return _pick(Violation.FOOD_TOTAL, sites, rng)


def _first_turn(events: Sequence[ev.Event]) -> int:
    return next((i for i, e in enumerate(events) if isinstance(e, ev.TurnChange)), len(events))


MUTATORS: dict[Violation, Mutator] = {
    Violation.DRAW_COUNT: draw_count,
    Violation.RESOURCE_PLAY: resource_play,
    Violation.CARD_PLAY: card_play,
    Violation.OPENING_SURVIVORS: opening_survivors,
    Violation.PHASE_ORDER: phase_order,
    Violation.ILLEGAL_ATTACKER: illegal_attacker,
    Violation.COMBAT_RESULT: combat_result,
    Violation.FOOD_UPKEEP: food_upkeep,
    Violation.INFECTION_WOUND: infection_wound,
    Violation.ZOMBIE_UPGRADE: zombie_upgrade,
    Violation.SCAVENGE_FOOD: scavenge_food,
    Violation.ABILITY_USE: ability_use,
    Violation.ACTION_AFTER_LOSS: action_after_loss,
    Violation.DEAD_SURVIVOR: dead_survivor,
    Violation.FOOD_TOTAL: food_total,
}


def mutate(
    kind: Violation | str, events: Sequence[ev.Event], rng: random.Random,
    cards: Mapping[str, Card],
) -> Mutation | None:
    """Inject one violation of ``kind`` into a legal log, or None when the log has no place."""
    return MUTATORS[Violation(kind)](events, rng, cards)
