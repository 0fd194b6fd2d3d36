"""The recipes of docs/extending.md, held by tests: each fails naming the step a change skipped.

* every value of the effect vocabulary (:class:`zcards.game.effects.Effect`) is read by the
  audit and by the simulator, or is marked inert for that side with its reason (below);
* every ability of a bundled card is carried out by the simulator, or the card is listed in
  ``UNPLAYED`` with the reason;
* an effect target the audit cannot place is an error, never a silent yes.

A value is *read* by a side when code of that side, or of the rules model both sides run
through (``zcards/game/``), names it (``Effect.NAME``). Like XMage's VerifyCardDataTest, the
lists of exceptions are here, each with its reason, so a new exception is a visible choice.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import pytest
from support.imports import imported_names

from zcards.cards.normalise import read_card_file
from zcards.game.cardtext import read_text
from zcards.game.effects import Effect, Row, Target, Timing
from zcards.resources import BUNDLED_SET
from zcards.rules.text import Event
from zcards.sim import attack, build, recoup
from zcards.sim.simulator import Simulator

PACKAGE = Path(__file__).resolve().parent.parent / "zcards"
MODEL = "game"  # the rules model both sides run through
VOCABULARY = PACKAGE / MODEL / "effects.py"
# The model's readers of card text: they name every effect to make rows of it, and carry none
# of them out.
READERS = frozenset(
    PACKAGE / MODEL / f"{name}.py"
    for name in ("effects", "cardtext", "grammar", "wording", "suggest")
)
SIDES = {"audit": "rules", "simulator": "sim"}
RECIPE = "docs/extending.md, 'A new effect'"

# (side, value) -> why that side has nothing to do for it.
INERT: dict[tuple[str, Effect], str] = {
    ("audit", Effect.PERMANENT): "an item stays on the table unless it is one-shot (R7.5)",
    ("simulator", Effect.PERMANENT): "an item stays on the table unless it is one-shot (R7.5)",
    ("audit", Effect.LOOK): "looking at or reordering cards puts no line a rule checks in the log",
    ("audit", Effect.NO_BLOCKING): "the zombie player may make every fight himself: no fight "
    "result is forbidden by it",
    ("audit", Effect.MUST_FIGHT): "a zombie moves to combat in its controller's Recoup and "
    "fights in a later turn, when the choice is no longer in the log",
    ("simulator", Effect.MUST_FIGHT): "the simulator assigns fights without the choice; the "
    "game it records stays legal",
    ("audit", Effect.DISCARD_TO_RESOURCE): "no rule limits a card put into the resource zone "
    "from the discard pile",
    ("audit", Effect.ITEM_TO_HAND): "no rule limits a card put into the hand from the discard pile",
    ("simulator", Effect.ITEM_TO_HAND): "Mechanic Rosa's ability is not played (see UNPLAYED)",
    ("audit", Effect.INFECT): "an Infected token put on in a fight is taken as the log shows it",
    ("simulator", Effect.INFECT): "Ichor Spewer's optional infection is never chosen",
    ("audit", Effect.LEAVE_COMBAT): "no rule limits a zombie leaving the combat zone",
    ("simulator", Effect.LEAVE_COMBAT): "the cards that send a zombie out of combat are not "
    "played (see UNPLAYED)",
    ("simulator", Effect.TO_COMBAT): "Surprise attack is an option the simulator never takes",
    ("audit", Effect.NO_TARGETING): "not checked yet: the log does not say what a card targeted",
    ("audit", Effect.NO_SURVIVOR_SPENDS): "not checked yet: a spend's cause is not in the log",
    ("simulator", Effect.EXTRA_RESOURCE): "the simulator plays one resource a turn: it never "
    "takes the second a designer's card allows",
}


@cache
def effect_names(folder: Path) -> frozenset[str]:
    """Every ``Effect.NAME`` the modules under ``folder`` name (the vocabulary's own module
    aside)."""
    paths = (p for p in sorted(folder.rglob("*.py")) if p != VOCABULARY)
    return frozenset(name for path in paths for name in _named(path.read_text()))


def _named(source: str, enum: str = "Effect") -> Iterable[str]:
    """The members of ``enum`` the source names (``enum.NAME``)."""
    for node in ast.walk(ast.parse(textwrap.dedent(source))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == enum
        ):
            yield node.attr


def _read_by(side: str) -> frozenset[str]:
    """What the side's own code names, and the modules of the rules model it imports (directly
    or through another model module): a model module the side never imports reads nothing
    for it."""
    names = set(effect_names(PACKAGE / SIDES[side]))
    for path in _model_modules(PACKAGE / SIDES[side]) - READERS:
        names |= set(_named(path.read_text()))
    return frozenset(names)


@cache
def _model_modules(folder: Path) -> frozenset[Path]:
    """The modules of ``zcards/game/`` that code under ``folder`` imports, transitively."""
    found: set[Path] = set()
    todo = list(sorted(folder.rglob("*.py")))
    while todo:
        for name in imported_names(todo.pop()):
            parts = name.split(".")
            if parts[:2] != ["zcards", MODEL] or len(parts) < 3:
                continue
            module = PACKAGE / MODEL / f"{parts[2]}.py"
            if module.exists() and module not in found:
                found.add(module)
                todo.append(module)
    return frozenset(found)


@pytest.mark.parametrize("side", sorted(SIDES))
def test_every_effect_is_read_by_each_side_or_marked_inert(side: str) -> None:
    read = _read_by(side)
    missing = [
        f"Effect.{e.name} ({e.value!r}) is read by no code of the {side} "
        f"(zcards/{SIDES[side]}/ or zcards/{MODEL}/) and is not marked inert: give it a "
        f"handler or an INERT entry with its reason ({RECIPE})"
        for e in Effect
        if e.name not in read and (side, e) not in INERT
    ]
    assert not missing, "\n".join(missing)


def test_no_effect_is_marked_inert_where_it_is_read() -> None:
    stale = [
        f"Effect.{e.name} is read by the {side} now: remove its INERT entry"
        for side, e in INERT
        if e.name in _read_by(side)
    ]
    assert not stale, "\n".join(stale)


# -- abilities of the bundled cards the simulator carries out --------------------------------

# When an ability happens -> the simulator's code that carries its effects out (the game's
# fights, zcards.game.fights, apply what a fight's winner or loser does for both sides).
HANDLERS: dict[Timing, tuple[Callable[..., object], ...]] = {
    Timing.ACTIVATED: (recoup._use, attack._begin_attack),
    Timing.ONE_SHOT: (build._one_shot,),
    Timing.TURNED_UP: (build._flip,),
    Timing.WINS_FIGHT: (attack._wins_fight_food,),
    Timing.DIES: (Simulator.kill,),
}
FIGHT_RESULTS = frozenset({Timing.WINS_FIGHT, Timing.LOSES_FIGHT})
MODEL_FIGHTS = "fights.py"

EXTRA_COST = "not played yet: the simulator pays no cost but the card and any card in hand"
# Bundled cards with an ability the simulator never carries out, and why.
UNPLAYED: dict[str, str] = {
    "Adrenaline Shot": "not played yet: the simulator's fights take no boost for one turn",
    "Ambush Lurker": "Surprise attack is optional and the simulator never takes it",
    "Dr. Amelia Stone": "the cure with her heal is optional and never chosen",
    "Flare Gun": "not played yet: the simulator has no move out of the combat zone",
    "Ichor Spewer": "the infection is optional and never chosen",
    "Meat Stalker": "the simulator assigns fights without the chosen survivor",
    "Mechanic Rosa": "not played yet: the simulator has no move from the discard pile to the hand",
    "Pickup Truck": EXTRA_COST,
    "Pipe Bomb": "not played yet: discarding zombies in combat, and a wound on one's own survivor",
    "Skater Zack": "not played yet: the simulator has no move out of the combat zone",
    "Vegetable Garden": EXTRA_COST,
}
# Effects whose whole trace in a log is the card spent for them: nothing more to carry out.
SPENT_ONLY = frozenset({Effect.LOOK})


@cache
def _handled(timing: Timing) -> set[str]:
    named = {n for f in HANDLERS.get(timing, ()) for n in _named(inspect.getsource(f))}
    if timing in FIGHT_RESULTS:
        named |= set(_named((PACKAGE / MODEL / MODEL_FIGHTS).read_text()))
    return named


def _played(row: Row) -> bool:
    """Whether the simulator carries the row out (a Recoup ability only when ``PLAYED`` has
    its effect and ``PAID`` its cost: the others are never chosen)."""
    if (
        row.timing is Timing.ACTIVATED
        and row.phase == "Recoup"
        and (row.effect not in recoup.PLAYED or row.cost not in recoup.PAID)
    ):
        return False
    return row.effect in SPENT_ONLY or row.effect.name in _handled(row.timing)


ABILITIES = frozenset(Timing) - {Timing.STATIC, Timing.MARKER}


def test_every_bundled_ability_is_played_by_the_simulator_or_its_card_says_why() -> None:
    unplayed = {}
    for card in read_card_file(BUNDLED_SET):
        rows = [r for r in read_text(card).rows if r.timing in ABILITIES and not _played(r)]
        if rows:
            unplayed[card.name] = rows
    missing = [
        f"{name}: the simulator never plays {', '.join(f'{r.timing}/{r.effect}' for r in rows)}"
        f" ({rows[0].clause!r}): carry it out in the simulator or add {name!r} to UNPLAYED "
        "with the reason (docs/extending.md, 'A new effect')"
        for name, rows in sorted(unplayed.items())
        if name not in UNPLAYED
    ]
    assert not missing, "\n".join(missing)
    assert not set(UNPLAYED) - set(unplayed), "UNPLAYED names cards the simulator plays now"


# -- targets ---------------------------------------------------------------------------------


def _event() -> Event:
    return Event(frozenset({Effect.FOOD}), subject="Alice", card=None, gain=True)


@pytest.mark.parametrize("target", list(Target))
def test_the_audit_places_every_target(target: Target) -> None:
    row = Row("clause", Timing.ACTIVATED, Effect.FOOD, target=target, amount=1, phase="Recoup")
    assert _event().caused_by(row, "Alice", "Card", active="Alice") in (True, False)


def test_an_unknown_target_is_an_error_not_a_yes() -> None:
    row = Row("clause", Timing.ACTIVATED, Effect.FOOD, target="nobody", amount=1, phase="Recoup")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nobody"):
        _event().caused_by(row, "Alice", "Card", active="Alice")
