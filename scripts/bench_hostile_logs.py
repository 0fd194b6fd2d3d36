"""Benchmark the audit on hostile logs: every kind of line an attacker (or a broken client)
can repeat without end must cost the same per line however long the log, in flat memory.

Kinds (each a legal two-player setup, then the hostile part repeated to the size asked):

* ``clears``: ``clears the table.`` again and again (each looks ahead for deck loads);
* ``seats``: 200 seated players and no turn-1 line (one reading per player who may have
  taken turn 1, capped);
* ``wounds``: 50 survivors of one name wounded line after line in one Attack phase (which
  copy a Wound line means is a reading, and the fights are a search);
* ``misclicks``: Wound/Heal pairs undone at once (each pair is two readings, capped);
* ``saves``: ``saves the game as …`` with a new name each time (each keeps a snapshot,
  capped);
* ``plain``: ordinary turns, one after another.

For each kind and size, ``zcards audit LOG --format json`` runs in a child process that
reports the audit's own seconds and its peak resident memory (VmHWM); the script prints
lines/s, peak MiB, and the ratios of the largest size to the smallest (time per line and
peak memory: 1.0 is linear time and flat memory).

Usage: ``python scripts/bench_hostile_logs.py [--sizes 10000,20000] [--kinds clears,...]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from itertools import count, islice
from pathlib import Path

from zcards.resources import BUNDLED_SET

A, B = "Alice", "Bob"
SURVIVORS = ("Kyle Bjorn", "Old Pete", "Nurse Ratchet")


def setup(players: tuple[str, ...] = (A, B), *, turn_one: bool = True) -> list[str]:
    """A legal setup of ``players`` (each with three survivors), and the turn-1 line."""
    lines = [f"{name} sits down at seat {seat}" for seat, name in enumerate(players, 1)]
    lines += [f"{name} loads a deck to the Deck zone and shuffles it." for name in players]
    lines += [f"{name} draws 7 cards." for name in players]
    for name in players:
        lines += [f"{name} plays {survivor} from his Deck." for survivor in SURVIVORS]
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
    body = [
        f"{B} performs Wound ({n % 3} to {n % 3 + 1}) (+1) on Old Pete."
        for n in range(max(0, size - len(head) - 1))
    ]
    return [*head, *body, f"{B} advances to the next phase: Attack -> Recoup"]


def misclicks(size: int) -> list[str]:
    head = setup()
    body: list[str] = []
    while len(head) + len(body) < size:
        body += [
            f"{A} performs Wound (0 to 1) (+1) on Kyle Bjorn.",
            f"{A} performs Heal (1 to 0) (-1) on Kyle Bjorn.",
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
    "misclicks": misclicks,
    "saves": saves,
    "plain": plain,
}

# The audit in a child that reports its own seconds and peak resident memory (VmHWM).
_CHILD = """
import sys, time
from zcards.cards.normalise import read_card_file
from zcards.rules.load import audit_log
cards = read_card_file(sys.argv[2])
started = time.perf_counter()
report = audit_log(sys.argv[1], cards)
report.to_json()
elapsed = time.perf_counter() - started
status = open("/proc/self/status").read()
peak = status.split("VmHWM:")[1].split()[0]
print(elapsed, peak, len(report.violations), len(report.unverifiable))
"""


def measure(path: Path) -> tuple[float, float, int, int]:
    """Seconds, peak MiB, violations and unverifiable findings of auditing ``path``."""
    command = [sys.executable, "-c", _CHILD, str(path), str(BUNDLED_SET)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the audit failed on {path.name}: {done.stderr[-500:]}")
    seconds, peak, violations, unverifiable = done.stdout.split()
    return float(seconds), int(peak) / 1024, int(violations), int(unverifiable)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,20000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'kind':<10} {'lines':>7} {'seconds':>8} {'lines/s':>9} {'peak MiB':>9} viol. unverif.")
    with tempfile.TemporaryDirectory() as folder:
        for kind in args.kinds.split(","):
            results = []
            for size in sizes:
                path = Path(folder) / f"{kind}-{size}.txt"
                lines = KINDS[kind](size)
                path.write_text("\n".join(lines) + "\n", encoding="utf-8")
                seconds, peak, violations, unverifiable = measure(path)
                results.append((len(lines), seconds, peak))
                print(
                    f"{kind:<10} {len(lines):>7} {seconds:>8.2f} {len(lines) / seconds:>9.0f}"
                    f" {peak:>9.0f} {violations:>5} {unverifiable:>8}"
                )
            (small, small_s, small_peak), (large, large_s, large_peak) = results[0], results[-1]
            print(
                f"{kind:<10} {small} -> {large} lines: time per line "
                f"x{(large_s / large) / (small_s / small):.2f}, peak memory "
                f"x{large_peak / small_peak:.2f}"
            )


if __name__ == "__main__":
    main()
