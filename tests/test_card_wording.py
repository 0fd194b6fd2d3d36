"""Card text however a designer words it: flavour by meaning, keywords and symbols restated
in his words or the rulebook's, typography that changes nothing, the grammar of common
phrasings, and an unread sentence doubting only what it speaks of (its areas, whose, when)."""

from __future__ import annotations

import pytest

from zcards.cards.model import Card
from zcards.game.cards import CardIndex
from zcards.game.cardtext import read_text
from zcards.game.effects import Condition, Cost, Effect, Target, Timing
from zcards.game.grammar import read_sentence
from zcards.game.table import Item, Table
from zcards.rules.text import TextLedger, Why

ME, HIM = "Zed", "Ann"
NOTHING = Why(False, ())


def card(text: str, *, kind: str = "Survivor", keywords=(), symbols=(), needs=None) -> Card:
    return Card(
        name="Bob Vance",
        set_name="x",
        type=kind,
        keywords=tuple(keywords),
        symbols=tuple(symbols),
        requirements=needs or {},
        text=text,
    )


@pytest.mark.parametrize(
    "flavour",
    [
        "A steady hand with a shotgun.",
        "Big, loud and hard to kill.",
        "He has done this before.",
        "It looks smart.",
        "Nobody leaves her behind.",
        "Hard to put down, harder to keep down.",
        "\u201cIt never stops digging.\u201d",
    ],
)
def test_flavour_is_known_by_meaning_not_by_its_words(flavour: str) -> None:
    assert read_text(card(flavour)).covered


@pytest.mark.parametrize(
    ("text", "kind", "keywords", "symbols"),
    [
        ("FAST.", "Zombie", ["Fast"], []),
        ("Fast and Fierce.", "Zombie", ["Fast", "Fierce"], []),
        ("Fast: When this zombie is moved to the combat zone, ready it.", "Zombie", ["Fast"], []),
        (
            "Moves quick: it is readied the moment it reaches the combat zone.",
            "Zombie",
            ["Fast"],
            [],
        ),
        (
            "Whenever it wins a fight, its victim takes one additional wound.",
            "Zombie",
            ["Fierce"],
            [],
        ),
        (
            "Recoup - Spend this survivor: Remove a wound counter from target survivor.",
            "Survivor",
            [],
            ["Medic"],
        ),
        (
            "Recoup: spend Bob Vance to take a wound counter off a survivor.",
            "Survivor",
            [],
            ["Medic"],
        ),
        (
            "Recoup - Attract attention: If successful, add 1 food.\\n(To attract attention, "
            "roll a die. On a 1, each zombie player puts the top card of his deck into his "
            "resource zone face-down.)",
            "Survivor",
            [],
            ["Scavenger"],
        ),
    ],
)
def test_a_restated_keyword_or_symbol_is_read_as_that_keyword(
    text, kind, keywords, symbols
) -> None:
    assert read_text(card(text, kind=kind, keywords=keywords, symbols=symbols)).covered


def test_a_restatement_that_says_more_than_its_rule_is_not_one() -> None:
    """A Scavenger whose text gives 2 food, or food without a roll, is not the symbol's rule;
    a Medic's spend that wounds is not a Medic's heal."""
    for text in (
        "Scavenger: Recoup - roll a die: add 2 food.",
        "At the start of your Recoup phase, add 1 food and draw a card.",
    ):
        assert not read_text(card(text, symbols=["Scavenger", "Medic"])).covered, text


def test_a_restated_requirement_is_the_requirements_column() -> None:
    """So is a sentence that only narrows when the card may be turned up; one that says when
    it may be (a phase) is read as what it says."""
    needs = {"Fast": 1}
    only = "It turns up only where the runners already are."
    assert read_text(card(only, kind="Zombie", needs=needs)).covered
    when = "It turns up only during your Attack phase."
    assert not read_text(card(when, kind="Zombie", needs=needs)).covered
    assert read_text(card("Needs a Fast zombie you control.", kind="Zombie", needs=needs)).covered
    assert not read_text(
        card("Needs a Tough zombie you control.", kind="Zombie", needs=needs)
    ).covered


def test_typography_and_spacing_do_not_change_how_a_sentence_is_read() -> None:
    plain = read_text(card("Bob Vance gets +1 power while fighting a wounded survivor."))
    odd = read_text(card("Bob  Vance gets +1 power while fighting a wounded survivor ."))
    assert plain.covered and odd.covered and plain.rows == odd.rows


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Recoup - Spend X: draw 2 cards.", (Timing.ACTIVATED, Effect.DRAW, Target.YOU, 2)),
        ("Recoup: spend X to gain 1 food.", (Timing.ACTIVATED, Effect.FOOD, Target.YOU, 1)),
        ("X gets +2 power.", (Timing.STATIC, Effect.POWER, Target.SELF, 2)),
        (
            "X has power 3 while you control 4 or more zombies.",
            (Timing.STATIC, Effect.SET_POWER, Target.SELF, 3),
        ),
        ("During your Draw phase: draw a card.", (Timing.YOUR_PHASE, Effect.DRAW, Target.YOU, 1)),
        (
            "At the start of your Recoup phase, add 1 food.",
            (Timing.YOUR_PHASE, Effect.FOOD, Target.YOU, 1),
        ),
        (
            "When X wins a fight, you may lose 1 food.",
            (Timing.WINS_FIGHT, Effect.FOOD, Target.YOU, -1),
        ),
        (
            "Remove a wound counter from target survivor, then discard X.",
            (Timing.ONE_SHOT, Effect.HEAL, Target.SURVIVOR, 1),
        ),
        ("X cannot be healed.", (Timing.STATIC, Effect.NO_MEDIC_HEAL, Target.SELF, 0)),
    ],
)
def test_the_grammar_reads_common_phrasings_into_typed_rows(sentence: str, expected) -> None:
    [row] = read_sentence(sentence, "X")
    assert (row.timing, row.effect, row.target, row.amount) == expected
    assert row.clause == sentence.replace("X", "{self}")


def test_the_grammar_reads_conditions_and_costs() -> None:
    [row] = read_sentence("X gets +1 power while another Horde zombie is in the same fight.", "X")
    assert (row.condition, row.faction) == (Condition.ANOTHER_OF_FACTION, "Horde")
    [row] = read_sentence("Recoup - Spend X: remove a wound counter from target survivor.", "X")
    assert (row.cost, row.phase) == (Cost.SPEND_SELF, "Recoup")


@pytest.mark.parametrize(
    "sentence",
    [
        "Once per game, draw a card.",
        "Draw a card.",
        "X gets +1 power while it rains.",
        "Prevent a wound.",
    ],
)
def test_what_the_grammar_cannot_read_in_full_gives_no_row(sentence: str) -> None:
    assert read_sentence(sentence, "X") == ()


WALKIE = Card(
    name="Walkie-Talkie",
    set_name="x",
    type="Item",
    text="Permanent. Once per turn, during your Draw phase, you may draw a card.",
)


def ledger(phase: str, active: str) -> TextLedger:
    """ME controls the Walkie-Talkie above (text the grammar cannot read in full)."""
    table = Table(started=True)
    for name in (ME, HIM):
        table.edit(name).playing = True
    table.turn, table.phase, table.active = 3, phase, active
    table.edit(ME).items.append(Item("Walkie-Talkie"))
    return TextLedger(CardIndex([WALKIE]), table)


def test_unread_text_excuses_only_its_controllers_own_draw_phase() -> None:
    named = ('Walkie-Talkie ("Once per turn, during your Draw phase, you may draw a card.")',)
    assert ledger("Draw", ME).explain(Effect.DRAW, ME) == Why(False, named)
    assert ledger("Draw", ME).explain(Effect.DRAW, HIM) == NOTHING  # the opponent's draw
    assert ledger("Draw", HIM).explain(Effect.DRAW, ME) == NOTHING  # his Draw phase, not mine
    assert ledger("Build", ME).explain(Effect.DRAW, ME) == NOTHING  # another phase
    assert ledger("Draw", ME).explain(Effect.FOOD, ME, gain=True) == NOTHING  # another area
