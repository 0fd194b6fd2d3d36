"""A small grammar of the effect language: common templated phrasings read without rows.

"Recoup - Spend {self}: draw a card.", "{self} gets +1 power while fighting a wounded
survivor.", "During your Draw phase, you may draw an extra card.", "Add 1 food, then discard
{self}." and their kin are parsed (LALR, :mod:`lark`) into the same typed rows an effects file
gives (:class:`~zcards.game.effects.Row`, whose clause is the sentence itself). A sentence
the grammar cannot read in full gives no row: it stays for the bundled rows, a designer's, or
the reader's doubt. The bundled ``effects.toml`` holds only what this grammar cannot read.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError

from zcards.game.definition import PHASES
from zcards.game.effects import Condition, Cost, Effect, Row, Target, Timing

_GRAMMAR = r"""
start: prefix? effects
     | SELF "cannot" "be" "infected"                              -> no_infection
     | "medic" "survivors" "cannot" "remove" "wounds" "from" SELF  -> no_medic_heal
     | SELF "cannot" "be" "healed"                                -> no_medic_heal
     | "permanent"                                                -> permanent
     | "attach" "to" "a" "survivor" "you" "control"               -> permanent
     | "one-shot"                                                 -> one_shot

prefix: PHASE ("-" | ":") "spend" SELF (":" | "to")        -> activated
      | "during" "your" PHASE "phase" ("," | ":")?         -> your_phase
      | "at" "the" ("start" | "beginning") "of" "your" PHASE "phase" ","?  -> your_phase
      | "when" SELF "wins" "a" "fight" ","                 -> wins_fight
      | "when" SELF "loses" "a" "fight" ","                -> loses_fight
      | "when" SELF "dies" ","                             -> dies
      | "when" SELF "is" "turned" "face" "up" ","          -> turned_up
      | "attach" "to" "a" "survivor" "you" "control" ":"   -> attach

effects: effect ("," "then" effect | "and" "then" effect | "," effect | "then" effect)*
effect: MAY? act
MAY: "you may"

act: ("draw" | "draws") cards                               -> draw
   | ("discard" | "discards") cards                         -> discard
   | ("gain" | "gains" | "add" | "adds") NUMBER "food"      -> gain_food
   | ("lose" | "loses") NUMBER "food"                       -> lose_food
   | subject ("gets" | "get") SIGNED "power" condition?     -> power
   | subject ("gets" | "get") SIGNED "health"               -> health
   | subject ("has" | "have") "power" NUMBER condition?     -> set_power
   | "remove" ("a" | "one") "wound" "counter"? "from" "target" "survivor"   -> heal
   | "discard" SELF                                          -> discard_self
   | "play" ONE_MORE "card" "from" "your" "hand" TO_RESOURCES FACE_DOWN?  -> extra_resource

cards: "a" "card" | "an" "extra" "card" | "one" "card" | NUMBER "cards" | "a" "additional" "card"
     | "an" "additional" "card"

subject: SELF                  -> itself
       | "it"                  -> itself
       | "target" "survivor"   -> target_survivor

condition: "while" "fighting" "a" "wounded" "survivor"                    -> fighting_wounded
         | "while" "fighting" "a" "fast" "zombie"                         -> fighting_fast
         | "while" "you" "control" NUMBER "or" "more" "zombies"           -> zombies_at_least
         | "while" "you" "control" NUMBER "or" "more" "survivors"         -> survivors_at_least
         | "while" "you" "control" "a" "barricade"                        -> controls_barricade
         | "while" "an" "item" "is" "in" "your" "discard" "pile"          -> item_in_discard
         | "while" "you" "have" "fewer" "food" "than" "survivors"         -> food_below_survivors
         | "while" "another" FACTION "zombie" "is" "in" "the" "same" "fight"  -> another_of_faction
         | "until" "end" "of" "turn"                                      -> this_turn

SELF: "{self}"
ONE_MORE: /(one|an|a) (additional|extra|more)/
FACE_DOWN: "face down"
TO_RESOURCES: "to your resource zone"
PHASE: /ready|draw|build|attack|recoup/
FACTION: /rage|horde|contagion|weird/
SIGNED: /[+-][0-9]+/
NUMBER: /[0-9]+/

%import common.WS
%ignore WS
"""

_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
_WORD_NUMBERS = re.compile(r"\b(one|two|three|four|five|six) (food|cards?)\b")


@cache
def _parser() -> Lark:
    # cache=True: lark keeps the built tables in the temporary folder, under the hash of the
    # grammar and options (a changed grammar is built again), so a command starts in ms
    return Lark(_GRAMMAR, parser="lalr", cache=True)


def read_sentence(sentence: str, name: str) -> tuple[Row, ...]:
    """The rows a sentence of the card called ``name`` says, all of it read; none when the
    grammar cannot read it in full."""
    clause = sentence.replace(name, "{self}") if name else sentence
    return _rows(clause)


@cache
def _rows(clause: str) -> tuple[Row, ...]:
    text = clause.casefold().rstrip(".!").strip()
    text = _WORD_NUMBERS.sub(lambda m: f"{_NUMBER_WORDS[m.group(1)]} {m.group(2)}", text)
    parser = _parser()  # outside the try: a grammar that does not build is a bug, not a doubt
    try:
        tree = parser.parse(text)
        found: tuple[Row, ...] = _Rows(clause).transform(tree)
    except (LarkError, _Unread):
        return ()
    return found


class _Unread(Exception):
    """A sentence the grammar parses but cannot make rows of (no timing it knows)."""


class _Rows(Transformer[Token, Any]):
    """Parse tree -> rows: each effect a row, all with the prefix's timing, cost and phase."""

    def __init__(self, clause: str) -> None:
        super().__init__()
        self.clause = clause

    def start(self, children: list[Any]) -> tuple[Row, ...]:
        prefix: dict[str, Any] = children[0] if len(children) == 2 else {}
        effects: list[dict[str, Any]] = children[-1]
        one_shot = any(e.get("discard_self") for e in effects)
        rows = []
        for effect in effects:
            if effect.get("discard_self"):
                continue
            fields = {**effect, **prefix}
            if "timing" not in fields:
                if one_shot:
                    fields["timing"] = Timing.ONE_SHOT
                elif fields["effect"] in _STATIC or fields.get("condition") is Condition.THIS_TURN:
                    fields["timing"] = Timing.STATIC
                else:
                    raise _Unread
            if fields.pop("host", False):
                fields["target"] = Target.HOST
            rows.append(Row(clause=self.clause, **fields))
        if not rows:
            raise _Unread
        return tuple(rows)

    def __default__(self, data: Token, children: list[Any], meta: Any) -> Any:
        """A phrase that always says the same (see _SAYS)."""
        said = _SAYS[str(data)]
        return dict(said) if isinstance(said, dict) else said

    def _only(self, effect: Effect) -> tuple[Row, ...]:
        return (Row(self.clause, Timing.STATIC, effect),)

    def no_infection(self, _: list[Any]) -> tuple[Row, ...]:
        return self._only(Effect.NO_INFECTION)

    def no_medic_heal(self, _: list[Any]) -> tuple[Row, ...]:
        return self._only(Effect.NO_MEDIC_HEAL)

    def permanent(self, _: list[Any]) -> tuple[Row, ...]:
        return (Row(self.clause, Timing.MARKER, Effect.PERMANENT),)

    def one_shot(self, _: list[Any]) -> tuple[Row, ...]:
        return (Row(self.clause, Timing.MARKER, Effect.ONE_SHOT),)

    # -- prefixes: when, at what cost ---------------------------------------------------------

    def activated(self, children: list[Token]) -> dict[str, Any]:
        return {"timing": Timing.ACTIVATED, "phase": _phase(children[0]), "cost": Cost.SPEND_SELF}

    def your_phase(self, children: list[Token]) -> dict[str, Any]:
        return {"timing": Timing.YOUR_PHASE, "phase": _phase(children[0])}

    # -- effects ---------------------------------------------------------------------------

    def effects(self, children: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return children

    def effect(self, children: list[Any]) -> dict[str, Any]:
        act: dict[str, Any] = children[-1]
        return {**act, "optional": True} if len(children) == 2 else act

    def draw(self, children: list[Any]) -> dict[str, Any]:
        return {"effect": Effect.DRAW, "target": Target.YOU, "amount": children[-1]}

    def discard(self, children: list[Any]) -> dict[str, Any]:
        return {"effect": Effect.DISCARD, "target": Target.YOU, "amount": children[-1]}

    def gain_food(self, children: list[Token]) -> dict[str, Any]:
        return {"effect": Effect.FOOD, "target": Target.YOU, "amount": int(children[-1])}

    def lose_food(self, children: list[Token]) -> dict[str, Any]:
        return {"effect": Effect.FOOD, "target": Target.YOU, "amount": -int(children[-1])}

    def power(self, children: list[Any]) -> dict[str, Any]:
        return _stat(Effect.POWER, children)

    def health(self, children: list[Any]) -> dict[str, Any]:
        return _stat(Effect.HEALTH, children)

    def set_power(self, children: list[Any]) -> dict[str, Any]:
        return _stat(Effect.SET_POWER, children)

    def cards(self, children: list[Token]) -> int:
        return int(children[0]) if children else 1

    # -- conditions --------------------------------------------------------------------------

    def zombies_at_least(self, children: list[Token]) -> dict[str, Any]:
        return {"condition": Condition.ZOMBIES_AT_LEAST, "count": int(children[0])}

    def survivors_at_least(self, children: list[Token]) -> dict[str, Any]:
        return {"condition": Condition.SURVIVORS_AT_LEAST, "count": int(children[0])}

    def another_of_faction(self, children: list[Token]) -> dict[str, Any]:
        return {"condition": Condition.ANOTHER_OF_FACTION, "faction": str(children[0]).title()}


_STATIC = frozenset({Effect.POWER, Effect.HEALTH, Effect.SET_POWER})
# What the phrases without numbers or names say: a prefix's timing, an effect, a subject, a
# condition.
_SAYS: dict[str, dict[str, Any] | Target] = {
    "wins_fight": {"timing": Timing.WINS_FIGHT},
    "loses_fight": {"timing": Timing.LOSES_FIGHT},
    "dies": {"timing": Timing.DIES},
    "turned_up": {"timing": Timing.TURNED_UP},
    "attach": {"timing": Timing.STATIC, "host": True},
    "heal": {"effect": Effect.HEAL, "target": Target.SURVIVOR, "amount": 1},
    "extra_resource": {"effect": Effect.EXTRA_RESOURCE, "target": Target.YOU, "amount": 1},
    "discard_self": {"discard_self": True},
    "itself": Target.SELF,
    "target_survivor": Target.SURVIVOR,
    "fighting_wounded": {"condition": Condition.FIGHTING_WOUNDED},
    "fighting_fast": {"condition": Condition.FIGHTING_FAST},
    "controls_barricade": {"condition": Condition.CONTROLS_BARRICADE},
    "item_in_discard": {"condition": Condition.ITEM_IN_DISCARD},
    "food_below_survivors": {"condition": Condition.FOOD_BELOW_SURVIVORS},
    "this_turn": {"condition": Condition.THIS_TURN},
}


def _stat(effect: Effect, children: list[Any]) -> dict[str, Any]:
    target, amount = children[0], int(children[1])
    fields: dict[str, Any] = {"effect": effect, "target": target, "amount": amount}
    if len(children) == 3:
        fields |= children[2]
    return fields


def _phase(token: Token) -> str:
    return next(phase for phase in PHASES if phase.casefold() == str(token))


def same_row(a: Row, b: Row) -> bool:
    """Whether two rows say the same thing (their notes aside)."""
    return replace(a, note="") == replace(b, note="")
