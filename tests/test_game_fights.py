"""The rules model's fights: what one fight ends in (zcards.game.fights, R10.4-R10.7), and
the audit's question, whether some assignment of the attackers to fights gives what a log
showed (zcards.game.assignment, R10.3, R10.8)."""

from __future__ import annotations

from collections import Counter

import pytest

from zcards.game.assignment import fits
from zcards.game.cards import CardIndex
from zcards.game.fight_question import Question, Seen
from zcards.game.fights import outcomes, resolve
from zcards.game.power import Fight, Fighter, Powers, Span
from zcards.game.table import Survivor, Table
from zcards.game.zombies import HIDDEN


@pytest.fixture(scope="module")
def cards(log_cards) -> CardIndex:
    """The rule logs' cards (tests/logs/cards.txt), read as the rules model reads them."""
    return CardIndex(log_cards)


def table_with(*survivors: Survivor) -> Table:
    table = Table(started=True)
    table.active = "Alice"
    alice = table.edit("Alice")
    alice.playing = True
    alice.survivors.extend(survivors)
    bob = table.edit("Bob")
    bob.playing = True
    return table


BRUTE = Fighter("Brute", "Bob")  # power 3, Fierce
WALKER = Fighter("Walker", "Bob")  # power 1
SPITTER = Fighter("Spitter", "Bob")  # power 1, Infectious
FACE_DOWN = Fighter(HIDDEN, "Bob")  # a generic zombie: power 1


def test_ties_go_to_the_zombies_and_double_power_kills(cards: CardIndex) -> None:
    scout = Survivor("Scout")  # power 2
    powers = Powers(cards, table_with(scout))
    tie = outcomes(Fight(scout, "Alice", (FACE_DOWN, WALKER)), powers)
    assert tie.win and not tie.lose and tie.wound and not tie.overwhelm
    assert tie.wounds == frozenset({1})
    double = resolve(Fight(scout, "Alice", (BRUTE, WALKER)), powers)
    assert double.zombies_win and double.killed
    lost = resolve(Fight(scout, "Alice", (WALKER,)), powers)
    assert not lost.zombies_win and lost.wounds == 1


def test_fierce_adds_a_wound(cards: CardIndex) -> None:
    tank = Survivor("Tank")  # power 3: Brute ties, does not double
    result = resolve(Fight(tank, "Alice", (BRUTE,)), Powers(cards, table_with(tank)))
    assert result.zombies_win and not result.killed and result.wounds == 2


def question(seen: list[Seen], attackers: list[Fighter], spent: Counter[Fighter] | None = None):
    return Question("Alice", tuple(attackers), seen, spent or Counter())


def test_an_overwhelmed_survivor_is_killed_not_wounded(cards: CardIndex) -> None:
    """R10.5: Brute (3) against Lookout (1) kills him; one wound cannot come from it."""
    lookout = Survivor("Lookout")
    powers = Powers(cards, table_with(lookout))
    killed = Seen(lookout, 0, Span(2, 2), killed=True)
    assert fits(question([killed], [BRUTE]), powers, final=True)
    wounded = Seen(lookout, 0, Span(2, 2), wounds=1)
    assert not fits(question([wounded], [BRUTE]), powers, final=True)


def test_a_fierce_winner_gives_two_wounds(cards: CardIndex) -> None:
    tank = Survivor("Tank")
    powers = Powers(cards, table_with(tank))
    assert fits(question([Seen(tank, 0, Span(3, 3), wounds=2)], [BRUTE]), powers, final=True)
    assert not fits(question([Seen(tank, 0, Span(3, 3), wounds=1)], [BRUTE]), powers, final=True)
    # so far (the phase goes on), one wound of two may be logged
    assert fits(question([Seen(tank, 0, Span(3, 3), wounds=1)], [BRUTE]), powers, final=False)


def test_each_zombie_fights_once(cards: CardIndex) -> None:
    """Two wounded survivors need two winning fights: one Walker cannot give both."""
    first, second = Survivor("Lookout"), Survivor("Medic Mia")
    powers = Powers(cards, table_with(first, second))
    seen = [Seen(first, 0, Span(2, 2), wounds=1), Seen(second, 0, Span(2, 2), wounds=1)]
    assert not fits(question(seen, [WALKER]), powers, final=True)
    assert fits(question(seen, [WALKER, FACE_DOWN]), powers, final=True)


def test_a_spent_attacker_lost_to_a_survivor_with_no_result(cards: CardIndex) -> None:
    """R10.6: Walker (1) spent lost to Scout (2); against Lookout (1) alone it would have won."""
    scout, lookout = Survivor("Scout"), Survivor("Lookout")
    spent = Counter({WALKER: 1})
    both = Powers(cards, table_with(scout, lookout))
    quiet = [Seen(scout, 0, Span(2, 2)), Seen(lookout, 0, Span(2, 2))]
    assert fits(question(quiet, [WALKER], spent), both, final=True)
    only_lookout = Powers(cards, table_with(lookout))
    assert not fits(
        question([Seen(lookout, 0, Span(2, 2))], [WALKER], spent), only_lookout, final=True
    )


def test_an_infection_needs_an_infectious_winner(cards: CardIndex) -> None:
    lookout = Survivor("Lookout")
    powers = Powers(cards, table_with(lookout))
    infected = Seen(lookout, 0, Span(2, 2), wounds=1, infected=True)
    assert fits(question([infected], [SPITTER]), powers, final=True)
    assert not fits(question([infected], [WALKER]), powers, final=True)
