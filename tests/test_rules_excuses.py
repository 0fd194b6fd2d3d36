"""Card-text excuses (R16.1), card by card: the table covers every card of the bundled set,
and each effect excuses its one kind of event only for its controller, at its time, and only
while it is on the table or was just used; outside that scope the finding stays a violation.
"""

from __future__ import annotations

import pytest

from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET
from zcards.rules.cards import CardIndex
from zcards.rules.excuses import CardText, effect_table, rows_for
from zcards.rules.findings import Clock
from zcards.rules.state import TableState

ALPHA = read_card_file(BUNDLED_SET)
CARDS = CardIndex(ALPHA)
ME, HIM = "Zed", "Ann"


def test_the_table_covers_every_card_of_the_bundled_set_once() -> None:
    table = effect_table()
    names = {card.name for card in ALPHA}
    assert set(table.rows) | table.plain == names
    assert not set(table.rows) & table.plain
    for card in ALPHA:
        rows = rows_for(card.name, card.text)
        assert rows is not None, card.name
        for row in rows:
            assert row.clause in card.text, (card.name, row.clause)


def test_an_edited_text_falls_back_to_the_patterns() -> None:
    """The rows are read only while the card data has the bundled text."""
    assert rows_for("First Aid Station", "Recoup - Spend: heal everything.") is None
    assert rows_for("Spitter", "Infectious. Your zombies get +3 power.") is None


def situation(
    card: str,
    how: str,
    event: str,
    *,
    subject: str = ME,
    active: str = ME,
    phase: str = "Recoup",
    card_name: str | None = None,
) -> list[str]:
    """What explains ``event`` (concerning ``subject``) when ``ME`` controls ``card`` placed
    ``how``: on the ``table``, ``attacking``, or ``spent``/``played``/``died``/``flipped``
    earlier in this phase, or ``gone`` (neither)."""
    table = TableState(started=True)
    for name in (ME, HIM):
        table.player(name).playing = True
    clock = Clock(number=3, phase=phase, active=active)
    text = CardText(CARDS, table, clock)
    me = table.players[ME]
    info = CARDS.get(card)
    assert info is not None
    if how in ("table", "attacking", "spent", "flipped"):
        if info.type == "Zombie":
            me.zombies.add_face_up(card)
        elif info.type == "Item":
            me.items.append(card)
        else:
            from zcards.rules.state import Survivor

            me.survivors.append(Survivor(card))
    if how == "attacking":
        text.set_attackers({ME: {card}})
    if how in ("spent", "played", "died", "flipped"):
        text.used(card, ME, how)
    return text.explain(event, subject, card=card_name)


# (card, event, where it is excused: how, subject, active, phase)
EXCUSED = [
    ("Frenzied Runner", "power", "attacking", HIM, HIM, "Attack"),
    ("Chainsaw Victim", "power", "attacking", HIM, HIM, "Attack"),
    ("Gross Ghoul", "power", "attacking", HIM, HIM, "Attack"),
    ("Mall Walker", "power", "attacking", HIM, HIM, "Attack"),
    ("Endless Tide", "power", "attacking", HIM, HIM, "Attack"),
    ("Pipe Wielder", "power", "attacking", HIM, HIM, "Attack"),
    ("Stadium Swarm", "power", "table", HIM, HIM, "Attack"),
    ("Infected Orderly", "power", "table", HIM, HIM, "Attack"),
    ("Hive Mother", "power", "table", HIM, HIM, "Attack"),
    ("Patient Zero", "power", "table", HIM, HIM, "Attack"),
    ("Kamikaze Corpse", "wound", "attacking", HIM, HIM, "Attack"),
    ("Unstoppable Fury", "wound", "attacking", HIM, HIM, "Attack"),
    ("Plague Carrier", "wound", "attacking", HIM, HIM, "Attack"),
    ("Hungry Masses", "food-loss", "attacking", HIM, HIM, "Attack"),
    ("Frothing Maniac", "discard-zombie", "attacking", ME, HIM, "Attack"),
    ("Ambush Lurker", "to-combat", "table", ME, HIM, "Attack"),
    ("Swarm Caller", "draw", "spent", ME, HIM, "Recoup"),
    ("Seeping Drifter", "wound", "spent", HIM, HIM, "Recoup"),
    ("Shuffling Crowd", "deck-to-resource", "flipped", ME, ME, "Build"),
    ("Hive Mother", "keyword", "table", ME, ME, "Build"),
    ("Dr. Amelia Stone", "cure", "spent", HIM, ME, "Recoup"),
    ("Prepper Vance", "food-gain", "spent", ME, ME, "Recoup"),
    ("Skater Zack", "leave-combat", "spent", HIM, ME, "Recoup"),
    ("Farmer Hank", "food-gain", "spent", ME, ME, "Recoup"),
    ("Father Gabriel", "cure", "spent", HIM, ME, "Recoup"),
    ("Father Gabriel", "wound", "spent", HIM, ME, "Recoup"),
    ("Mechanic Rosa", "draw", "spent", ME, ME, "Recoup"),
    ("Chef Antoine", "food-gain", "spent", ME, ME, "Recoup"),
    ("Librarian Ruth", "draw", "spent", ME, ME, "Recoup"),
    ("Librarian Ruth", "discard", "spent", ME, ME, "Recoup"),
    ("Survivalist Kim", "food-gain", "table", ME, ME, "Attack"),
    ("Grandma Edna", "heal", "died", ME, HIM, "Attack"),
    ("Shotgun", "discard-zombie", "table", HIM, ME, "Attack"),
    ("Riot Armour", "health", "table", ME, HIM, "Recoup"),
    ("Vegetable Garden", "food-gain", "spent", ME, ME, "Recoup"),
    ("First Aid Station", "heal", "spent", HIM, HIM, "Recoup"),
    ("Pickup Truck", "food-gain", "spent", ME, ME, "Recoup"),
    ("Canned Food", "food-gain", "played", ME, ME, "Build"),
    ("Bandages", "heal", "played", HIM, ME, "Build"),
    ("Antibiotics", "cure", "played", HIM, ME, "Build"),
    ("Flare Gun", "leave-combat", "played", HIM, ME, "Build"),
    ("Pipe Bomb", "discard-zombie", "played", HIM, ME, "Build"),
    ("Pipe Bomb", "wound", "played", ME, ME, "Build"),
    ("Road Map", "draw", "played", ME, ME, "Build"),
]


@pytest.mark.parametrize(
    ("card", "event", "how", "subject", "active", "phase"), EXCUSED, ids=lambda v: str(v)
)
def test_an_effect_excuses_its_event_in_its_scope_only(
    card: str, event: str, how: str, subject: str, active: str, phase: str
) -> None:
    here = {"subject": subject, "active": active, "phase": phase}
    assert situation(card, how, event, **here) == [card]
    # the same card, but not on the table or not used now
    assert situation(card, "gone", event, **here) == []
    # another kind of event
    other = "heal" if event != "heal" else "food-gain"
    assert card not in situation(card, how, other, **here)
    # another phase (every timed effect has one it does not cover)
    elsewhere = "Draw" if phase != "Draw" else "Build"
    rows = [r for r in rows_for(card, CARDS.get(card).card.text) or () if r.event == event]  # type: ignore[union-attr]
    if all("any" not in row.phase for row in rows):
        assert situation(card, how, event, **{**here, "phase": elsewhere}) == []
    # the other player's cards or total, where the effect names whose
    if all(row.affects != "any" for row in rows):
        flipped = HIM if subject == ME else ME
        assert situation(card, how, event, **{**here, "subject": flipped}) == []


@pytest.mark.parametrize(
    ("card", "excuses"),
    [
        # the measured cases: none of these may excuse anything in its scope
        ("Kyle Bjorn", ("spend-zombie", "draw", "heal")),  # his own "Spend X:" ability
        ("Nurse Ratchet", ("heal",)),  # the Medic symbol is modelled, not an excuse
        ("Old Pete", ("food-gain",)),  # the Scavenger symbol is modelled, not an excuse
        ("Marine Sergeant Cole", ("power", "wound")),  # the defender's card
        ("Little Sophie", ("power",)),
        ("Sprinter", ("to-combat", "power")),
    ],
)
def test_cards_that_only_restrict_or_are_modelled_excuse_nothing(card: str, excuses) -> None:
    for event in excuses:
        for how in ("table", "attacking", "spent", "played"):
            for phase in ("Build", "Attack", "Recoup"):
                for subject, active in ((ME, ME), (HIM, ME), (ME, HIM), (HIM, HIM)):
                    assert (
                        situation(card, how, event, subject=subject, active=active, phase=phase)
                        == []
                    ), (card, event, how, phase, subject, active)


def test_one_use_excuses_only_so_many_events() -> None:
    """First Aid Station spent once removes one wound: a second heal is not its doing."""
    table = TableState(started=True)
    table.player(ME).playing = True
    table.player(ME).items.append("First Aid Station")
    text = CardText(CARDS, table, Clock(number=2, phase="Recoup", active=ME))
    text.used("First Aid Station", ME, "spent")
    assert text.explain("heal", ME) == ["First Aid Station"]
    assert text.explain("heal", ME) == []


def test_ambush_lurker_moves_only_itself() -> None:
    assert (
        situation(
            "Ambush Lurker", "table", "to-combat", active=HIM, phase="Attack", card_name="Sprinter"
        )
        == []
    )
    assert situation(
        "Ambush Lurker",
        "table",
        "to-combat",
        active=HIM,
        phase="Attack",
        card_name="Ambush Lurker",
    ) == ["Ambush Lurker"]


def test_an_unknown_table_may_hide_a_card_that_explains_it() -> None:
    """A player whose part of the table the log did not show (R17.9) may have a Riot Armour
    out: a survivor of his surviving its Health is only unverifiable."""
    table = TableState(started=False)
    table.player(ME).playing = True
    text = CardText(CARDS, table, Clock(number=5, phase="Recoup", active=HIM))
    assert text.explain("health", ME) == [f"cards of {ME} not seen in this log"]
    assert text.explain("heal", ME) == []  # every heal excuse needs a use the log would show


# A short legal game with the bundled set: Ann's Marine Sergeant Cole, Grandma Edna and Nurse
# Ratchet against Bob's Kyle Bjorn and Librarian Ruth (cards whose texts the old patterns read
# as excuses for everything).
GAME = """\
Ann sits down at seat 1
Bob sits down at seat 2
Ann starts a new game.
Ann loads a deck to the Deck zone and shuffles it.
Bob loads a deck to the Deck zone and shuffles it.
Ann: bid 10
Bob: bid 10
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
Ann performs Wound (0 to 1) (+1) on Nurse Ratchet.
Ann changes Ann's Food to 9. (from 10 to 9) (-1)
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
        # Grandma Edna's death trigger explains no heal while she lives
        (
            "Ann changes Ann's Food to 9. (from 10 to 9) (-1)",
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


def test_a_one_shot_item_taken_back_excuses_nothing() -> None:
    """Bandages played and moved back to the hand was not used (a one-shot item is discarded
    once used, R7.5): it excuses no later heal, whether the two lines were a misclick and its
    correction or two real actions. Found by the detection-rate script."""
    table = TableState(started=True)
    table.player(ME).playing = True
    text = CardText(CARDS, table, Clock(number=2, phase="Draw", active=ME))
    text.used("Bandages", ME, "played")
    assert text.explain("heal", ME, consume=False) == ["Bandages"]
    text.withdrawn("Bandages", ME)
    assert text.explain("heal", ME) == []


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
