"""Log parser throughput on a synthetic 1,000,000-line log, against a bare regex loop.

The log is written with the log writer (a Zombie CCG game's mix of lines, with timestamps and
a few unknown lines); both loops read the same file in the same run, so the ratio is what the
parser costs over the least any line-by-line reader must pay.

    python scripts/bench_log_parse.py [--lines N]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import iter_events
from lackey_plugin.log.writer import write_log

PLAYERS = ("Alice Smith", "Bob")
CARDS = ("Kyle Bjorn", "Old Pete", "Nurse Ratchet", "Gross Ghoul", "Meat Stalker")
BASELINE = re.compile(r"^(?:\[(\d{1,2}):(\d\d):(\d\d)\] )?(\S+) (\w+) (.*)$")


def synthetic_events(count: int) -> Iterator[ev.Event]:
    """``count`` events shaped like a recorded game, with ever-moving stamps."""
    seconds = 20 * 3600
    turn = 0
    produced = 0
    while True:
        turn += 1
        player, other = PLAYERS[turn % 2], PLAYERS[(turn + 1) % 2]
        card = CARDS[turn % len(CARDS)]
        food = turn % 10
        for event in (
            ev.TurnChange(other, turn, player),
            ev.PerformAll.of(player, Meaning.READY_ALL),
            ev.PhaseChange(player, "Ready", "Draw"),
            ev.Draw(player, 1, card),
            ev.Draw(player, 1, "a card"),
            ev.Draw(other, 2),
            ev.Move(
                player,
                card,
                player,
                "Hand",
                player,
                "Discard",
                dst_pos="top",
                discard=True,
                counts={"Hand": 6, "Discard": turn},
            ),
            ev.PhaseChange(player, "Draw", "Build"),
            ev.Play(player, "a face down card", player, "Hand"),
            ev.Perform.of(player, Meaning.SPEND, "a face-down card"),
            ev.Play(player, card, player, "Hand"),
            ev.CounterChange.of(other, Meaning.WOUND, card, 0, 1),
            ev.TableToZone(other, card, other, "Discard", "top"),
            ev.StatChange(player, "Food", food + 1, food, target=player),
            ev.DiceRoll(player, 6, (turn % 6 + 1,), button=True),
            ev.Chat(other, f"gg {turn}"),
            ev.Unparsed(f"{other} waves at turn {turn}"),
        ):
            if produced == count:
                return
            seconds += 1
            clock = seconds % 86400
            stamp = f"{clock // 3600}:{clock // 60 % 60:02d}:{clock % 60:02d}"
            yield replace(event, timestamp=stamp)
            produced += 1


def _rate(lines: int, started: float) -> float:
    return lines / (time.perf_counter() - started)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--lines", type=int, default=1_000_000)
    count = options.parse_args().lines
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "synthetic.txt"
        started = time.perf_counter()
        write_log(synthetic_events(count), path)
        print(
            f"wrote {count:,} lines ({path.stat().st_size / 1e6:.1f} MB) "
            f"at {_rate(count, started):,.0f} lines/s"
        )

        started = time.perf_counter()
        matched = 0
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if BASELINE.match(line) is not None:
                    matched += 1
        baseline = _rate(count, started)

        started = time.perf_counter()
        kinds: dict[str, int] = {}
        for event in iter_events(path):
            kinds[event.kind] = kinds.get(event.kind, 0) + 1
        parser = _rate(count, started)

    print(
        f"bare loop, one compiled regex per line: {baseline:12,.0f} lines/s ({matched:,} matched)"
    )
    print(
        f"iter_events (typed events):             {parser:12,.0f} lines/s "
        f"({sum(kinds.values()):,} events, {kinds.get('unparsed', 0):,} unparsed)"
    )
    print(f"ratio bare loop / parser: {baseline / parser:.1f}x")


if __name__ == "__main__":
    main()
