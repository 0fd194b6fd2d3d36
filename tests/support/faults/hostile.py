"""Hostile logs: a legal two-player setup, then one kind of line repeated to any length, as
an attacker (or a broken client) could write them. ``scripts/bench_hostile_logs.py`` times
the audit on them; the tests use the setup to check the audit's caps on small inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import count, islice

A, B = "Alice", "Bob"
SURVIVORS = ("Kyle Bjorn", "Old Pete", "Nurse Ratchet")


def setup(
    players: tuple[str, ...] = (A, B),
    *,
    turn_one: bool = True,
    survivors: tuple[str, ...] = SURVIVORS,
) -> list[str]:
    """A legal setup of ``players`` (each with the three ``survivors``), and the turn-1
    line."""
    lines = [f"{name} sits down at seat {seat}" for seat, name in enumerate(players, 1)]
    lines += [f"{name} loads a deck to the Deck zone and shuffles it." for name in players]
    lines += [f"{name} draws 7 cards." for name in players]
    for name in players:
        lines += [f"{name} plays {survivor} from his Deck." for survivor in survivors]
        lines.append(f"{name} shuffles his Deck.")
    if turn_one:
        lines.append(f"{players[0]} advances the turn. Current Turn: #1, {players[0]}'s turn.")
    return lines


def turns(first: int = 1) -> Iterator[str]:
    """Ordinary turns of Alice and Bob: phases, draws, a discard each, upkeep (11 lines a
    turn)."""
    food = {A: 10, B: 10}
    for number in count(first):
        me = (A, B)[(number - 1) % 2]
        if number > first:
            yield f"{me} advances the turn. Current Turn: #{number}, {me}'s turn."
        yield f"{me} advances to the next phase: Ready -> Draw"
        for name in (A, B):
            yield f"{name} draws 2 cards."
            yield f"{name} discards a card from his Hand to his Discard."
        for step in ("Draw -> Build", "Build -> Attack", "Attack -> Recoup"):
            yield f"{me} advances to the next phase: {step}"
        if food[me] > 0:
            food[me] -= 1
            left = food[me]
            yield f"{me} changes {me}'s Food to {left}. (from {left + 1} to {left}) (-1)"
        yield f"{me} advances to the next phase: Recoup -> End"


def clears(size: int) -> list[str]:
    return setup() + [f"{A} clears the table."] * size


def seats(size: int) -> list[str]:
    players = tuple(f"P{seat}" for seat in range(1, 201))
    head = setup(players, turn_one=False)
    body: list[str] = []
    while len(head) + len(body) < size:
        body += ["P1 advances to the next phase: Ready -> Draw", "P1: hmm", "P2: ok"]
    return head + body


def wounds(size: int) -> list[str]:
    """Bob's Attack phase against 50 copies of Old Pete, wounded line after line."""
    head = setup()[:-1] + [f"{A} plays Old Pete from his Deck."] * 47
    head += [
        f"{B} advances the turn. Current Turn: #1, {B}'s turn.",
        f"{B} plays a face down card from his Hand.",
        *(f"{B} advances to the next phase: {step}" for step in ("Ready -> Draw", "Draw -> Build")),
        f"{B} advances to the next phase: Build -> Attack",
    ]
    return _wounded(head, size, B, "Old Pete", 3)


def _wounded(head: list[str], size: int, player: str, card: str, cycle: int) -> list[str]:
    """``head``, then Wound lines on copies of ``card`` (counts cycling through ``cycle``
    values) up to ``size`` lines, and the line ending the Attack phase."""
    body = [
        f"{player} performs Wound ({n % cycle} to {n % cycle + 1}) (+1) on {card}."
        for n in range(max(0, size - len(head) - 1))
    ]
    return [*head, *body, f"{player} advances to the next phase: Attack -> Recoup"]


COPIES = 20  # identical survivors of the ``copies`` kind


def copies(size: int) -> list[str]:
    """Alice's 20 Grandma Ednas against Bob's one face-down attacker, and Wound lines whose
    counts leave open which copy each one hit, line after line in one Attack phase."""
    draws = [
        line
        for name in (A, B)
        for line in (
            f"{name} draws 2 cards.",
            f"{name} discards a card from his Hand to his Discard.",
        )
    ]
    head = [f"{name} sits down at seat {seat}" for seat, name in enumerate((A, B), 1)]
    head += [f"{name} loads a deck to the Deck zone and shuffles it." for name in (A, B)]
    head += [f"{name} draws 7 cards." for name in (A, B)]
    head += [f"{A} plays Grandma Edna from his Deck."] * COPIES + [f"{A} shuffles his Deck."]
    head += [f"{B} plays Kyle Bjorn from his Deck.", f"{B} shuffles his Deck."]
    head += [
        f"{B} advances the turn. Current Turn: #1, {B}'s turn.",
        f"{B} advances to the next phase: Ready -> Draw",
        *draws,
        f"{B} advances to the next phase: Draw -> Build",
        f"{B} plays a face down card from his Hand.",
        f"{B} advances to the next phase: Build -> Attack",
        f"{B} advances to the next phase: Attack -> Recoup",
        f"{B} performs Spend on a face-down card.",
        f"{B} performs To Combat (0 to 1) (+1) on a face-down card.",
        f"{B} changes {B}'s Food to 9. (from 10 to 9) (-1)",
        f"{B} advances to the next phase: Recoup -> End",
        f"{B} advances the turn. Current Turn: #2, {A}'s turn.",
        f"{B} performs Ready All on all his cards.",
        f"{A} advances to the next phase: Ready -> Draw",
        *draws,
        f"{A} advances to the next phase: Draw -> Build",
        f"{A} advances to the next phase: Build -> Attack",
    ]
    return _wounded(head, size, A, "Grandma Edna", 2)


def misclicks(size: int) -> list[str]:
    head = setup()
    body: list[str] = []
    while len(head) + len(body) < size:
        body += [
            f"{A} performs Wound (0 to 1) (+1) on Kyle Bjorn.",
            f"{A} performs Heal (1 to 0) (-1) on Kyle Bjorn.",
        ]
    return head + body


def late_fixes(size: int) -> list[str]:
    """Wounds and spends undone later in one long phase, two things at a time (each pair is
    a reading of its own, R17.3)."""
    head = setup()
    body: list[str] = []
    first, second = SURVIVORS[:2]
    while len(head) + len(body) < size:
        body += [
            f"{A} performs Wound (0 to 1) (+1) on {first}.",
            f"{A} performs Spend on {second}.",
            f"{A} performs Heal (1 to 0) (-1) on {first}.",
            f"{A} performs Ready on {second}.",
        ]
    return head + body


def saves(size: int) -> list[str]:
    return setup() + [f"{A} saves the game as game-{n}" for n in range(size)]


def plain(size: int) -> list[str]:
    """Games of 10 ordinary turns (before anyone starves), one after another."""
    lines = setup()
    while len(lines) < size:
        lines += islice(turns(), 10 * 11 - 1)
        lines += [f"{A} starts a new game.", *setup()]
    return lines[:size]


KINDS: dict[str, Callable[[int], list[str]]] = {
    "clears": clears,
    "seats": seats,
    "wounds": wounds,
    "copies": copies,
    "misclicks": misclicks,
    "late-fixes": late_fixes,
    "saves": saves,
    "plain": plain,
}
