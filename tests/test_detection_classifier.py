"""The detection-rate classifier (scripts/detection_rates.py) judges "the log decides" from
the log alone: every arrangement of the zombie cards its lines allow (tests/support/
table_readings.py), and the heals cards used earlier in a phase may still owe. Small
hand-written logs check each reading; simulated games check that the simulator's true table
is always one of the arrangements (the tracker never rules out what really happened)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from support.faults.injection import Healers, Owed, injections
from support.faults.table_readings import (
    COMBAT,
    FACE_DOWN,
    RESOURCE,
    SURVIVOR,
    Contradiction,
    Tables,
    corrections,
    readings,
)
from support.faults.truth import Side, Survivor, Zombie, play_observed, states_by_line

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.sim.batch import game_seed
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import RecordedLog, record
from zcards.sim.styles import STYLE_NAMES, resolve_style

CARDS = {card.name: card for card in read_card_file(BUNDLED_SET)}
ZOMBIES = frozenset(name for name, card in CARDS.items() if card.type == "Zombie")

SETUP = """\
Alice sits down at seat 1
Bob sits down at seat 2
Alice starts a new game.
Alice loads a deck to the Deck zone and shuffles it.
Bob loads a deck to the Deck zone and shuffles it.
Alice draws 7 cards.
Bob draws 7 cards.
Alice plays Old Pete from his Deck.
Alice shuffles his Deck.
Bob plays Kyle Bjorn from his Deck.
Bob shuffles his Deck.
"""

# Alice's turn 1: a resource, sent to her combat zone in Recoup. Bob's turn 2: she readies
# it, plays a second resource and upgrades one of the two, the log does not say which.
FLIP_FROM_EITHER_ZONE = (
    SETUP
    + """\
Alice advances the turn. Current Turn: #1, Alice's turn.
Alice advances to the next phase: Ready -> Draw
Alice advances to the next phase: Draw -> Build
Alice plays a face down card from his Hand.
Alice advances to the next phase: Build -> Attack
Alice advances to the next phase: Attack -> Recoup
Alice performs Spend on a face-down card.
Alice performs To Combat (0 to 1) (+1) on a face-down card.
Alice advances to the next phase: Recoup -> End
Alice advances the turn. Current Turn: #2, Bob's turn.
Alice performs Ready All on all his cards.
Bob advances to the next phase: Ready -> Draw
Bob advances to the next phase: Draw -> Build
Alice plays a face down card from his Hand.
Alice performs Flip on Spitter.
Bob advances to the next phase: Build -> Attack
"""
)


def events_of(text: str) -> list[ev.Event]:
    return parse_log_text(text, game=ZOMBIE_GAME).events


def tables_after(text: str) -> Tables:
    """The arrangements after the last line of ``text``."""
    events = [*events_of(text), ev.Chat("Bob", "probe")]
    return list(readings(events, ZOMBIES))[-1]


def zombie_cards(tables: Tables, player: str) -> set[frozenset[tuple[str, str, bool, int]]]:
    """Each arrangement's cards in the zombie zones, as (shown, zone, spent, copies)."""
    return {
        frozenset((*card, n) for card, n in table if card.zone != SURVIVOR)
        for table in tables.of(player)
    }


def test_a_flip_from_either_zone_leaves_both_cards_zones_open() -> None:
    tables = tables_after(FLIP_FROM_EITHER_ZONE)
    assert zombie_cards(tables, "Alice") == {
        frozenset({("Spitter", COMBAT, False, 1), (FACE_DOWN, RESOURCE, False, 1)}),
        frozenset({(FACE_DOWN, COMBAT, False, 1), ("Spitter", RESOURCE, False, 1)}),
    }
    assert tables.fight_reading("Alice", "Spitter") == "a face-up zombie's zone is not in the log"
    assert tables.fight_reading("Alice", FACE_DOWN) == "a face-down card's zone is not in the log"
    assert tables.attacker_reading(["Alice"]) == "a ready attacker is in the log"  # either
    assert tables.attacker_reading(["Bob"]) == ""


def test_a_fight_of_the_face_down_card_decides_the_upgraded_one_never_attacked() -> None:
    tables = tables_after(FLIP_FROM_EITHER_ZONE + "Alice performs Spend on a face-down card.\n")
    assert zombie_cards(tables, "Alice") == {
        frozenset({(FACE_DOWN, COMBAT, True, 1), ("Spitter", RESOURCE, False, 1)})
    }
    assert tables.fight_reading("Alice", "Spitter") == ""
    assert tables.fight_reading("Alice", FACE_DOWN) == ""  # a second face-down fight: decided


def test_moving_the_upgraded_card_to_combat_shows_where_it_was() -> None:
    log = FLIP_FROM_EITHER_ZONE + (
        "Bob advances to the next phase: Attack -> Recoup\n"
        "Bob advances to the next phase: Recoup -> End\n"
        "Bob advances the turn. Current Turn: #3, Alice's turn.\n"
        "Alice advances to the next phase: Ready -> Draw\n"
        "Alice advances to the next phase: Draw -> Build\n"
        "Alice advances to the next phase: Build -> Attack\n"
        "Alice advances to the next phase: Attack -> Recoup\n"
        "Alice performs Spend on Spitter.\n"
        "Alice performs To Combat (0 to 1) (+1) on Spitter.\n"
    )
    tables = tables_after(log)
    assert zombie_cards(tables, "Alice") == {
        frozenset({(FACE_DOWN, COMBAT, False, 1), ("Spitter", COMBAT, True, 1)})
    }
    ready = tables_after(
        log
        + "Alice advances to the next phase: Recoup -> End\n"
        + "Alice advances the turn. Current Turn: #4, Bob's turn.\n"
        + "Alice performs Ready All on all his cards.\n"
    )
    assert ready.fight_reading("Alice", FACE_DOWN) == "a ready attacker looks the same"
    assert ready.fight_reading("Alice", "Spitter") == "a ready attacker looks the same"


def test_fights_count_against_the_face_down_cards_that_can_be_in_combat() -> None:
    two_in_combat = SETUP + (
        "Alice advances the turn. Current Turn: #1, Alice's turn.\n"
        "Alice advances to the next phase: Ready -> Draw\n"
        "Alice advances to the next phase: Draw -> Build\n"
        "Alice plays a face down card from his Hand.\n"
        "Alice plays a face down card from the top of his Deck.\n"
        "Alice performs Spend on a face-down card.\n"  # pays for nothing: a Build spend
        "Alice advances to the next phase: Build -> Attack\n"
        "Alice advances to the next phase: Attack -> Recoup\n"
        "Alice performs Spend on a face-down card.\n"
        "Alice performs To Combat (0 to 1) (+1) on a face-down card.\n"
        "Alice advances to the next phase: Recoup -> End\n"
        "Alice advances the turn. Current Turn: #2, Bob's turn.\n"
        "Alice performs Ready All on all his cards.\n"
        "Bob advances to the next phase: Ready -> Draw\n"
        "Bob advances to the next phase: Draw -> Build\n"
        "Bob advances to the next phase: Build -> Attack\n"
    )
    # one face-down card in combat, one in resource, whichever was spent in the Build phase
    assert tables_after(two_in_combat).fight_reading("Alice", FACE_DOWN) == (
        "a ready attacker looks the same"
    )
    one_fight = tables_after(two_in_combat + "Alice performs Spend on a face-down card.\n")
    assert one_fight.fight_reading("Alice", FACE_DOWN) == ""


def test_a_spend_of_unknown_rotation_is_named_as_such() -> None:
    """Bob's turn 2 Build: Alice spends one of her two face-down cards (one in combat): the
    log does not say which, so in the Attack phase her attacker may be spent already."""
    log = FLIP_FROM_EITHER_ZONE.replace(
        "Alice performs Flip on Spitter.\n", "Alice performs Spend on a face-down card.\n"
    )
    tables = tables_after(log)
    assert tables.fight_reading("Alice", FACE_DOWN) == (
        "whether a face-down card is spent is not in the log"
    )


def test_a_misclick_undone_at_once_leaves_the_table_as_it_was() -> None:
    """A Spend on a card that cannot fight, then Ready on it: a correction (R17.3), not a
    fight, so it neither contradicts the log nor uses up an attacker."""
    log = FLIP_FROM_EITHER_ZONE + (
        "Alice performs Spend on a face-down card.\n"
        "Alice performs Spend on Spitter.\n"  # Spitter is in the resource zone by now
        "Alice: oops\n"
        "Alice performs Ready on Spitter.\n"
    )
    tables = tables_after(log)
    assert zombie_cards(tables, "Alice") == {
        frozenset({(FACE_DOWN, COMBAT, True, 1), ("Spitter", RESOURCE, False, 1)})
    }


def test_between_a_misclick_and_its_correction_the_misclick_is_read_as_real() -> None:
    """A line put between a Spend and the Ready that undoes it breaks the pair (R17.3 wants
    the inverse on the next game action): there, the Spend is a fight like any other, so it
    resolves where Spitter was; after the pair, nothing happened."""
    log = FLIP_FROM_EITHER_ZONE + (
        "Alice performs Spend on a face-down card.\nAlice performs Ready on a face-down card.\n"
    )
    events = [*events_of(log), ev.Chat("Bob", "probe")]
    between, after = list(readings(events, ZOMBIES))[-2:]
    assert between.fight_reading("Alice", "Spitter") == ""
    assert zombie_cards(after, "Alice") == zombie_cards(
        tables_after(FLIP_FROM_EITHER_ZONE), "Alice"
    )


def test_an_infected_survivor_taken_is_a_zombie_in_the_resource_zone() -> None:
    log = FLIP_FROM_EITHER_ZONE + (
        "Bob performs Wound (0 to 1) (+1) on Kyle Bjorn.\n"
        "Alice performs Take Control on Kyle Bjorn.\n"
    )
    tables = tables_after(log)
    assert tables.fight_reading("Alice", "Kyle Bjorn") == ""
    assert all(card.shown != "Kyle Bjorn" for table in tables.of("Bob") for card, _ in table)


def test_a_line_no_arrangement_allows_is_an_error() -> None:
    with pytest.raises(Contradiction, match="Alice's table"):
        tables_after(
            FLIP_FROM_EITHER_ZONE + "Alice performs Leave Combat (1 to 0) (-1) on Old Pete.\n"
        )


def _attack_places(text: str, truth: dict[str, Side]) -> dict[tuple[int, str], str]:
    """The "non-attacker fights" injections in the Attack phase at the end of ``text``,
    classified with ``truth`` as the simulator's state at every line: (index, card) -> the
    reading ("" when the log decides)."""
    events = tuple(events_of(text))
    log = RecordedLog(events, tuple(range(len(events))))
    states = [truth] * (len(events) + 1)
    return {
        (place.index, getattr(place.event, "card", "")): place.reading
        for place in injections(log, [], states, CARDS, "Alice")
        if place.name == "non-attacker fights" and getattr(place.event, "player", "") == "Alice"
    }


def test_an_upgrade_of_unknown_zone_is_another_reading_even_where_it_truly_was_not() -> None:
    """The simulator knows Spitter was upgraded in the resource zone; the log does not, so a
    Spend of Spitter in the Attack phase has a legal reading; after the face-down card's
    fight it has none."""
    truth = {
        "Alice": Side(
            (Survivor("Old Pete", 0, 3),),
            (Zombie("Spitter", False, False), Zombie(FACE_DOWN, True, False)),
            30,
            None,
            False,
        ),
        "Bob": Side((Survivor("Kyle Bjorn", 0, 3),), (), 30, None, False),
    }
    log = FLIP_FROM_EITHER_ZONE + "Alice performs Spend on a face-down card.\n"
    places = _attack_places(log + "Bob performs Wound (0 to 1) (+1) on Kyle Bjorn.\n", truth)
    before_fight, after_fight = len(events_of(FLIP_FROM_EITHER_ZONE)), len(events_of(log))
    assert places[(before_fight, "Spitter")] == "a face-up zombie's zone is not in the log"
    assert places[(after_fight, "Spitter")] == ""


def test_heals_a_card_used_earlier_in_the_phase_may_still_owe() -> None:
    """R16.1: a card played, spent or dead earlier in the phase explains its heals; one
    Bandages one heal, Grandma Edna's death one per survivor of her controller; a card played
    and moved straight back (a misclick) none; the next phase owes nothing."""
    log = events_of(
        SETUP
        + """\
Alice advances the turn. Current Turn: #1, Alice's turn.
Alice advances to the next phase: Ready -> Draw
Alice advances to the next phase: Draw -> Build
Alice plays Bandages from his Hand.
Alice moves Bandages from the table to the top of his Discard.
Alice plays a face down card from his Hand.
Alice performs Heal (1 to 0) (-1) on Old Pete.
Bob plays Bandages from his Hand.
Bob moves Bandages from the table to his Hand.
Alice advances to the next phase: Build -> Attack
Alice moves Grandma Edna from the table to the top of his Discard.
Bob plays a face down card from his Hand.
Alice advances to the next phase: Attack -> Recoup
Alice performs Spend on Old Pete.
"""
    )
    owed = Healers.of(CARDS).owed(log)

    def before(line: str) -> Owed:
        return owed[next(i for i, event in enumerate(log) if event.raw == line)]

    late = "a card's heal, logged late"
    assert before("Alice plays a face down card from his Hand.").reading("Bob") == late
    assert before("Alice performs Heal (1 to 0) (-1) on Old Pete.").reading("Alice") == late
    assert before("Bob plays Bandages from his Hand.").reading("Alice") == ""  # healed once
    assert before("Alice advances to the next phase: Build -> Attack").reading("Alice") == ""
    after_edna = before("Bob plays a face down card from his Hand.")
    assert after_edna.reading("Alice") == late
    assert after_edna.reading("Bob") == ""  # her text heals her controller's survivors only
    assert before("Alice performs Spend on Old Pete.") == Owed()


def test_corrections_pair_each_undo_with_the_action_it_undoes_nested_too() -> None:
    log = events_of(
        SETUP
        + """\
Alice advances the turn. Current Turn: #1, Alice's turn.
Alice performs Wound (0 to 1) (+1) on Old Pete.
Alice performs Wound (1 to 2) (+1) on Old Pete.
Alice: oops
Alice performs Heal (2 to 1) (-1) on Old Pete.
Alice performs Heal (1 to 0) (-1) on Old Pete.
Alice changes Alice's Food to 9. (from 10 to 9) (-1)
Alice changes Alice's Food to 10. (from 9 to 10) (+1)
Alice performs Ready on Old Pete.
Alice performs Spend on Old Pete.
Alice performs Heal (1 to 0) (-1) on Old Pete.
"""
    )
    start = next(i for i, e in enumerate(log) if isinstance(e, ev.TurnChange)) + 1
    assert {undo - start: misclick - start for undo, misclick in corrections(log).items()} == {
        3: 1,  # Heal (2 to 1) undoes Wound (1 to 2), across the chat line
        4: 0,  # then Heal (1 to 0) undoes Wound (0 to 1): they are neighbours now
        6: 5,  # Food -1 then +1
    }  # Ready then Spend is no misclick undone; a Heal after a Spend undoes nothing


def test_a_heal_after_a_nested_correction_may_undo_the_wound_before_it() -> None:
    """Wound (0 to 1), then Wound (1 to 2) and Heal (2 to 1), a misclick put right: a Heal
    (1 to 0) there undoes the first wound (R17.3), so it is another reading, not decided;
    after a line of its own (here a Food change), it is decided."""
    log = FLIP_FROM_EITHER_ZONE + (
        "Bob performs Wound (0 to 1) (+1) on Kyle Bjorn.\n"
        "Bob performs Wound (1 to 2) (+1) on Kyle Bjorn.\n"
        "Bob performs Heal (2 to 1) (-1) on Kyle Bjorn.\n"
        "Bob changes Bob's Food to 9. (from 10 to 9) (-1)\n"
        "Bob advances to the next phase: Attack -> Recoup\n"
    )
    truth = {
        "Alice": Side((Survivor("Old Pete", 0, 2),), (), 30, None, False),
        "Bob": Side((Survivor("Kyle Bjorn", 1, 3),), (), 30, None, False),
    }
    events = tuple(events_of(log))
    places = {
        place.index: place.reading
        for place in injections(
            RecordedLog(events, tuple(range(len(events)))), [], [truth] * len(events), CARDS, "A"
        )
        if place.name == "heal without a Medic"
    }
    food = next(i for i, e in enumerate(events) if isinstance(e, ev.StatChange))
    assert places[food] == "a correction"
    assert places[food + 1] == ""


STYLES_PER_GAME = 3  # games per pairing and strategy mix: every style across the 27 games


def test_the_true_table_is_always_an_arrangement_the_log_allows() -> None:
    """Soundness: on simulated games in every recording style, from both points of view,
    before every line, each player's true zombie cards (what the log could show of each,
    its zone, its rotation) are one of the tracker's arrangements. Lines only the recording
    style adds (a misclick before its correction) change no true state, so the line after
    one is not compared."""
    checked = 0
    pairs = itertools.product(
        itertools.combinations(starter_decks(), 2),
        (("greedy", "greedy"), ("random", "greedy"), ("random", "random")),
        range(STYLES_PER_GAME),
    )
    for number, (pair, strategies, index) in enumerate(pairs):
        result, snapshots = play_observed(
            load_decks(list(pair)), game_seed(5, index), strategies=list(strategies)
        )
        style = resolve_style(STYLE_NAMES[number % len(STYLE_NAMES)], result.seed)
        for pov in result.players:
            log = record(result, pov, style)
            states = states_by_line(log, snapshots)
            for line, tables in enumerate(readings(log.events, ZOMBIES)):
                if line == 0 or log.sources[line - 1] is None:
                    continue
                for player, side in states[line].items():
                    truth = Counter(
                        (z.shown, COMBAT if z.in_combat else RESOURCE, z.spent)
                        for z in side.zombies
                    )
                    assert truth in [
                        Counter({tuple(c): n for c, n in table if c.zone != SURVIVOR})
                        for table in tables.of(player)
                    ], (number, pov, line, player)
                    checked += 1
    assert checked > 10_000
