"""Card text in the audit (R16.1), card by card: every card of the bundled set is covered by
effect rows; a use of a card explains its events only for whom, when and as often as its rows
say; a card the rows do not cover, or a table the log did not show, leaves a doubt naming it."""

from __future__ import annotations

import pytest

from zcards.cards.model import Card
from zcards.cards.normalise import read_card_file
from zcards.game.cards import CardIndex
from zcards.game.cardtext import read_text
from zcards.game.definition import ZOMBIE_GAME
from zcards.game.effects import Effect, Target, load_rows
from zcards.game.grammar import read_sentence
from zcards.game.table import Item, Survivor, Table
from zcards.resources import BUNDLED_SET
from zcards.rules.text import TextLedger, Why

ALPHA = read_card_file(BUNDLED_SET)
CARDS = CardIndex(ALPHA)
ME, HIM = "Zed", "Ann"


def test_the_rows_cover_every_card_of_the_bundled_set() -> None:
    used = set()
    for card in ALPHA:
        text = read_text(card)
        assert text.covered, (card.name, text.uncovered)
        used |= set(text.rows)
    assert set(load_rows()) <= used  # no row is dead


def test_the_bundled_rows_hold_only_what_the_grammar_cannot_read() -> None:
    for clause in {row.clause for row in load_rows()}:
        assert read_sentence(clause, "") == (), clause


def test_a_row_applies_to_every_card_whose_text_contains_its_clause() -> None:
    """A new card with a known clause is covered without code; an unknown clause is not."""
    twin = Card(
        name="Mad Runner",
        set_name="x",
        type="Zombie",
        power=1,
        keywords=("Fast",),
        text="Fast. Mad Runner gets +1 power while fighting a wounded survivor.",
    )
    text = read_text(twin)
    assert text.covered and [r.effect for r in text.rows] == [Effect.POWER]
    odd = Card(
        name="Odd Zed", set_name="x", type="Zombie", power=1, text="Odd Zed wins every fight."
    )
    assert read_text(odd).uncovered == ("Odd Zed wins every fight.",)
    assert read_text(
        Card(name="Plain", set_name="x", type="Survivor", text="He likes the rain.")
    ).covered


def test_a_misspelt_row_is_an_error_naming_it(tmp_path) -> None:
    bad = tmp_path / "effects.toml"
    bad.write_text('[[row]]\nclause = "x"\ntiming = "static"\neffect = "powr"\n')
    with pytest.raises(ValueError, match="row 1: effect 'powr'"):
        load_rows(bad)


def situation(
    card: str,
    how: str,
    effect: Effect,
    *,
    subject: str = ME,
    active: str = ME,
    phase: str = "Recoup",
    gain: bool | None = None,
    card_name: str | None = None,
    not_on: Target | None = None,
    paid: bool = True,
) -> Why:
    """What explains ``effect`` (concerning ``subject``) when ``ME`` controls ``card`` placed
    ``how``: on the ``table``, ``attacking``, or ``spent``/``played``/``died``/``flipped``
    earlier in this phase, or ``gone`` (neither); a card spent discards an Item from his hand
    with it unless ``paid`` is False."""
    table = Table(started=True)
    for name in (ME, HIM):
        table.edit(name).playing = True
    table.turn, table.phase, table.active = 3, phase, active
    text = TextLedger(CARDS, table)
    me = table.edit(ME)
    info = CARDS.get(card)
    assert info is not None
    if how in ("table", "attacking", "spent", "flipped"):
        if info.type == "Zombie":
            me.zombies = me.zombies.add_face_up(card)
        elif info.type == "Item":
            me.items.append(Item(card))
        else:
            me.survivors.append(Survivor(card))
    if how == "attacking":
        text.set_attackers({ME: frozenset({card})})
    if how in ("spent", "played", "died", "flipped"):
        text.used(card, ME, how)
    if how == "spent" and paid:  # what a "discard a card" or "an Item" cost discards
        text.discarded("Baseball Bat", ME)
    return text.explain(effect, subject, card=card_name, gain=gain, not_on=not_on)


LEGAL = Why(True, ())
NOTHING = Why(False, ())

# (card, effect, food gained?, how, subject, active, phase)
EXPLAINED = [
    ("Kamikaze Corpse", Effect.WOUND, None, "attacking", HIM, HIM, "Attack"),
    ("Unstoppable Fury", Effect.WOUND, None, "attacking", HIM, HIM, "Attack"),
    ("Plague Carrier", Effect.WOUND, None, "attacking", HIM, HIM, "Attack"),
    ("Hungry Masses", Effect.FOOD, False, "attacking", HIM, HIM, "Attack"),
    ("Survivalist Kim", Effect.FOOD, True, "table", ME, ME, "Attack"),
    ("Ambush Lurker", Effect.TO_COMBAT, None, "table", ME, HIM, "Attack"),
    ("Swarm Caller", Effect.DRAW, None, "spent", ME, HIM, "Recoup"),
    ("Seeping Drifter", Effect.WOUND, None, "spent", HIM, HIM, "Recoup"),
    ("Shuffling Crowd", Effect.DECK_TO_RESOURCE, None, "flipped", ME, ME, "Build"),
    ("Dr. Amelia Stone", Effect.CURE, None, "spent", HIM, ME, "Recoup"),
    ("Prepper Vance", Effect.FOOD, True, "spent", ME, ME, "Recoup"),
    ("Skater Zack", Effect.LEAVE_COMBAT, None, "spent", HIM, ME, "Recoup"),
    ("Farmer Hank", Effect.FOOD, True, "spent", ME, ME, "Recoup"),
    ("Father Gabriel", Effect.CURE, None, "spent", HIM, ME, "Recoup"),
    ("Father Gabriel", Effect.WOUND, None, "spent", HIM, ME, "Recoup"),
    ("Chef Antoine", Effect.FOOD, True, "spent", ME, ME, "Recoup"),
    ("Librarian Ruth", Effect.DRAW, None, "spent", ME, ME, "Recoup"),
    ("Librarian Ruth", Effect.DISCARD, None, "spent", ME, ME, "Recoup"),
    ("Grandma Edna", Effect.HEAL, None, "died", ME, HIM, "Attack"),
    ("Vegetable Garden", Effect.FOOD, True, "spent", ME, ME, "Recoup"),
    ("First Aid Station", Effect.HEAL, None, "spent", HIM, HIM, "Recoup"),
    ("Pickup Truck", Effect.FOOD, True, "spent", ME, ME, "Recoup"),
    ("Canned Food", Effect.FOOD, True, "played", ME, ME, "Build"),
    ("Bandages", Effect.HEAL, None, "played", HIM, ME, "Build"),
    ("Antibiotics", Effect.CURE, None, "played", HIM, ME, "Build"),
    ("Flare Gun", Effect.LEAVE_COMBAT, None, "played", HIM, ME, "Build"),
    ("Pipe Bomb", Effect.DISCARD_ZOMBIE, None, "played", HIM, ME, "Build"),
    ("Pipe Bomb", Effect.WOUND, None, "played", ME, ME, "Build"),
    ("Road Map", Effect.DRAW, None, "played", ME, ME, "Build"),
    ("Molotov Cocktail", Effect.SPEND, None, "played", HIM, ME, "Build"),
    ("Kyle Bjorn", Effect.SPEND, None, "spent", HIM, ME, "Attack"),
]


@pytest.mark.parametrize(
    ("card", "effect", "gain", "how", "subject", "active", "phase"), EXPLAINED, ids=str
)
def test_an_effect_explains_its_event_in_its_scope_only(
    card: str, effect: Effect, gain: bool | None, how: str, subject: str, active: str, phase: str
) -> None:
    here = {"subject": subject, "active": active, "phase": phase, "gain": gain}
    assert situation(card, how, effect, **here) == LEGAL
    # the same card, but not on the table or not used now
    assert situation(card, "gone", effect, **here) == NOTHING
    # another kind of event
    other = Effect.HEAL if effect is not Effect.HEAL else Effect.DRAW
    assert situation(card, how, other, **here) == NOTHING
    # food the other way round
    if gain is not None:
        assert situation(card, how, effect, **{**here, "gain": not gain}) == NOTHING
    # another phase: uses and fights belong to their phase
    elsewhere = "Draw" if phase != "Draw" else "Build"
    if how in ("spent", "attacking"):
        assert situation(card, how, effect, **{**here, "phase": elsewhere}) == NOTHING


def test_an_ability_explains_nothing_without_the_discard_its_cost_asks_for() -> None:
    """Chef Antoine's "discard an Item" and Prepper Vance's "discard a card" are costs: spent
    without that discard this phase, they give no food; Chef Antoine needs an Item."""
    for card in ("Chef Antoine", "Prepper Vance"):
        unpaid = Why(False, (), (card,))  # it would explain the food, its cost paid
        assert situation(card, "spent", Effect.FOOD, gain=True, paid=False) == unpaid
    table = Table(started=True)
    table.edit(ME).playing = True
    table.turn, table.phase, table.active = 3, "Recoup", ME
    text = TextLedger(CARDS, table)
    text.used("Chef Antoine", ME, "spent")
    text.discarded("Shambler", ME)
    assert not text.explain(Effect.FOOD, ME, gain=True, consume=False).legal
    text.discarded(None, ME)  # a card the log hides may be an Item
    assert text.explain(Effect.FOOD, ME, gain=True) == LEGAL
    assert text.explain(Effect.FOOD, ME, gain=True) == NOTHING  # used once


def test_a_discard_cost_may_be_logged_just_after_its_food() -> None:
    """People click the food before they drag the Item: the discard a little later in the same
    phase pays the cost, once."""
    from lackey_plugin.log import events as ev

    table = Table(started=True)
    table.edit(ME).playing = True
    table.turn, table.phase, table.active = 3, "Recoup", ME
    text = TextLedger(CARDS, table)
    later = ev.Move(ME, "Baseball Bat", ME, "Hand", ME, "Discard", discard=True, line=40)
    text.look = lambda: [later]
    text.used("Chef Antoine", ME, "spent")
    assert text.explain(Effect.FOOD, ME, gain=True) == LEGAL
    text.discarded("Baseball Bat", ME, 40)  # the line itself: already paid for
    assert text.discards == []


@pytest.mark.parametrize(
    ("card", "effects"),
    [
        ("Nurse Ratchet", (Effect.HEAL,)),  # the Medic symbol is the rules', not text
        ("Old Pete", (Effect.FOOD,)),  # the Scavenger symbol likewise
        ("Marine Sergeant Cole", (Effect.POWER, Effect.WOUND)),  # fights compute it
        ("Little Sophie", (Effect.POWER,)),
        ("Sprinter", (Effect.TO_COMBAT, Effect.POWER)),
        ("Kyle Bjorn", (Effect.DRAW, Effect.HEAL)),
    ],
)
def test_cards_that_only_restrict_or_are_modelled_explain_nothing(card: str, effects) -> None:
    for effect in effects:
        for how in ("table", "attacking", "spent", "played"):
            for phase in ("Build", "Attack", "Recoup"):
                for subject, active in ((ME, ME), (HIM, ME), (ME, HIM), (HIM, HIM)):
                    why = situation(card, how, effect, subject=subject, active=active, phase=phase)
                    assert why == NOTHING, (card, effect, how, phase, subject, active)


def test_kyle_bjorn_spends_only_an_attacking_zombie() -> None:
    spent = situation("Kyle Bjorn", "spent", Effect.SPEND, subject=HIM, phase="Attack")
    assert spent == LEGAL
    assert (
        situation(
            "Kyle Bjorn",
            "spent",
            Effect.SPEND,
            subject=HIM,
            phase="Attack",
            not_on=Target.ATTACKING_ZOMBIE,
        )
        == NOTHING
    )


def test_one_use_explains_only_so_many_events() -> None:
    """First Aid Station spent once removes one wound: a second heal is not its doing."""
    table = Table(started=True)
    me = table.edit(ME)
    me.playing = True
    me.items.append(Item("First Aid Station"))
    table.turn, table.phase, table.active = 2, "Recoup", ME
    text = TextLedger(CARDS, table)
    text.used("First Aid Station", ME, "spent")
    assert text.explain(Effect.HEAL, ME) == LEGAL
    assert text.explain(Effect.HEAL, ME) == NOTHING


def test_ambush_lurker_moves_only_itself() -> None:
    here = {"active": HIM, "phase": "Attack"}
    assert (
        situation("Ambush Lurker", "table", Effect.TO_COMBAT, card_name="Sprinter", **here)
        == NOTHING
    )
    lurker = situation(
        "Ambush Lurker", "table", Effect.TO_COMBAT, card_name="Ambush Lurker", **here
    )
    assert lurker == LEGAL


def test_an_unknown_table_may_hide_a_card_that_explains_it() -> None:
    """A player whose part of the table the log did not show (R17.9) may have a Riot Armour
    out: a survivor of his surviving its Health is only unverifiable; a heal needs a use the
    log would show."""
    table = Table(started=False)
    table.edit(ME).playing = True
    table.turn, table.phase, table.active = 5, "Recoup", HIM
    text = TextLedger(CARDS, table)
    assert text.explain(Effect.HEALTH, ME) == Why(False, (f"cards of {ME} not seen in this log",))
    assert text.explain(Effect.HEAL, ME) == NOTHING


def test_an_unread_sentence_may_do_what_it_speaks_of_and_nothing_else() -> None:
    odd = Card(
        name="Odd Zed",
        set_name="x",
        type="Survivor",
        cost=1,
        power=1,
        health=1,
        text="Odd Zed heals.",
    )
    cards = CardIndex([*ALPHA, odd])
    table = Table(started=True)
    me = table.edit(ME)
    me.playing = True
    me.survivors.append(Survivor("Odd Zed"))
    table.turn, table.phase, table.active = 2, "Recoup", ME
    text = TextLedger(cards, table)
    assert text.explain(Effect.HEAL, ME) == Why(False, ('Odd Zed ("Odd Zed heals.")',))
    assert text.explain(Effect.DRAW, ME) == NOTHING
    assert text.explain(Effect.FOOD, ME, gain=True) == NOTHING


def test_a_one_shot_item_taken_back_explains_nothing() -> None:
    """Bandages played and moved back to the hand was not used (a one-shot item is discarded
    once used, R7.5): it explains no later heal."""
    table = Table(started=True)
    table.edit(ME).playing = True
    table.turn, table.phase, table.active = 2, "Draw", ME
    text = TextLedger(CARDS, table)
    text.used("Bandages", ME, "played")
    assert text.explain(Effect.HEAL, ME, consume=False) == LEGAL
    text.withdrawn("Bandages", ME, "Hand")
    assert text.explain(Effect.HEAL, ME) == NOTHING


# A short legal game with the bundled set: Ann's Marine Sergeant Cole, Grandma Edna and Nurse
# Ratchet against Bob's Kyle Bjorn and Librarian Ruth (cards whose texts the old patterns read
# as excuses for everything). Ann bids 2, so her first upkeep leaves her two starvation wounds.
GAME = """\
Ann sits down at seat 1
Bob sits down at seat 2
Ann starts a new game.
Ann loads a deck to the Deck zone and shuffles it.
Bob loads a deck to the Deck zone and shuffles it.
Ann: bid 2
Bob: bid 10
Ann changes Ann's Food to 2. (from 10 to 2) (-8)
Ann draws 7 cards.
Bob draws 7 cards.
Ann plays Marine Sergeant Cole from his Deck.
Ann plays Grandma Edna from his Deck.
Ann plays Nurse Ratchet from his Deck.
Ann shuffles his Deck.
Bob plays Kyle Bjorn from his Deck.
Bob plays Librarian Ruth from his Deck.
Bob shuffles his Deck.
Ann advances the turn. Current Turn: #1, Ann's turn.
Ann advances to the next phase: Ready -> Draw
Ann draws 2 cards.
Ann discards Sprinter from his Hand to the top of his Discard.
Bob draws 2 cards.
Bob discards Shambler from his Hand to the top of his Discard.
Ann advances to the next phase: Draw -> Build
Ann plays a face down card from his Hand.
Bob plays a face down card from his Hand.
Ann advances to the next phase: Build -> Attack
Ann advances to the next phase: Attack -> Recoup
Ann changes Ann's Food to 1. (from 2 to 1) (-1)
Ann performs Wound (0 to 1) (+1) on Nurse Ratchet.
Ann performs Wound (0 to 1) (+1) on Marine Sergeant Cole.
Ann advances to the next phase: Recoup -> End
Ann advances the turn. Current Turn: #2, Bob's turn.
"""


def audit_text(text: str):
    from lackey_plugin.log.parser import parse_log_text
    from zcards.rules import audit

    return audit(parse_log_text(text, game=ZOMBIE_GAME).events, CARDS)


def test_the_legal_game_with_texts_is_clean() -> None:
    report = audit_text(GAME)
    assert (report.violations, report.unverifiable) == ([], [])


@pytest.mark.parametrize(
    ("after", "inserted", "kind"),
    [
        # Kyle Bjorn's own "Spend X:" ability is no excuse for a zombie outside combat fighting
        (
            "Ann advances to the next phase: Build -> Attack",
            "Bob performs Spend on a face-down card.",
            "illegal-attacker",
        ),
        # Marine Sergeant Cole (the defender's card, "cannot overwhelm him") explains no kill
        (
            "Ann advances to the next phase: Build -> Attack",
            "Ann moves Nurse Ratchet from the table to the top of his Discard.",
            "combat-result",
        ),
        # Grandma Edna's death trigger explains no heal while she lives (in the next turn: in
        # the Recoup of the wound, taking it off again is a misclick put right, R17.3)
        (
            "Ann advances the turn. Current Turn: #2, Bob's turn.",
            "Ann performs Heal (1 to 0) (-1) on Nurse Ratchet.",
            "ability-use",
        ),
        # Librarian Ruth's Recoup draw explains no third card in the Draw phase
        ("Bob draws 2 cards.", "Bob draws a card.", "draw-count"),
    ],
    ids=["own-spend-ability", "defender-text", "death-trigger", "recoup-draw"],
)
def test_texts_out_of_scope_excuse_nothing(after: str, inserted: str, kind: str) -> None:
    lines = GAME.splitlines()
    at = lines.index(after) + 1
    lines.insert(at, inserted)
    report = audit_text("\n".join(lines) + "\n")
    assert [(v.kind, v.line) for v in report.violations] == [(kind, at + 1)], report.to_text()


def test_a_heal_after_a_one_shot_item_was_taken_back_is_a_violation() -> None:
    """The log form of the case above: Bandages played in the Draw phase and moved straight
    back to the hand, then a heal. Under both readings (a misclick, or two real actions) no
    Medic and no used Bandages removed the wound."""
    report = audit_text(ONE_SHOT_TAKEN_BACK)
    assert [(v.kind, v.line) for v in report.violations] == [("ability-use", 34)]


ONE_SHOT_TAKEN_BACK = """\
Alice sits down at seat 1
Bob sits down at seat 2
Alice starts a new game.
Alice loads a deck to the Deck zone and shuffles it.
Bob loads a deck to the Deck zone and shuffles it.
Alice: bid 0
Bob: bid 10
Alice changes Alice's Food to 0. (from 10 to 0) (-10)
Alice draws 7 cards.
Bob draws 7 cards.
Alice plays Kyle Bjorn from his Deck.
Alice shuffles his Deck.
Bob plays Old Pete from his Deck.
Bob shuffles his Deck.
Alice advances the turn. Current Turn: #1, Alice's turn.
Alice advances to the next phase: Ready -> Draw
Alice draws 2 cards.
Alice discards Shambler from his Hand to the top of his Discard.
Bob draws 2 cards.
Bob discards Shambler from his Hand to the top of his Discard.
Alice advances to the next phase: Draw -> Build
Alice advances to the next phase: Build -> Attack
Alice advances to the next phase: Attack -> Recoup
Alice performs Wound (0 to 1) (+1) on Kyle Bjorn.
Alice advances to the next phase: Recoup -> End
Alice advances the turn. Current Turn: #2, Bob's turn.
Bob advances to the next phase: Ready -> Draw
Bob draws 2 cards.
Bob discards Shambler from his Hand to the top of his Discard.
Alice draws 2 cards.
Alice discards Shambler from his Hand to the top of his Discard.
Bob plays Bandages from his Hand.
Bob moves Bandages from the table to his Hand.
Alice performs Heal (1 to 0) (-1) on Kyle Bjorn.
Bob advances to the next phase: Draw -> Build
"""
