"""Log parsing and ``zcards log parse --format jsonl`` against loops that share no zcards code.

Synthetic logs (written by the log writer: a Zombie CCG game's mix of lines, with timestamps
and a few unknown lines) of 10k, 100k and 1M lines. In the same run, per size, in this
process's CPU time (other work on a shared machine moves it less than wall time), medians of
``--rounds`` alternating rounds:

* baseline A, the floor: a one-regex loop over the file's lines (the least a line reader pays);
* baseline B: the same loop plus ``json.dumps`` of the groups, one ``write`` per line
  (what a hand-written converter would do);
* ``iter_log_file``: the library's typed events;
* ``zcards log parse --format jsonl`` as a child process writing to a file (wall time and the
  child's peak memory, from ``wait4``), once.

Prints the rates, the ratios to both baselines, the CLI's peak memory, and the growth factor
(time per line and peak memory at the largest size over the smallest). Also times a log of
200 seat lines with 200 distinct names (each name learnt used to recompile the regex).

    python scripts/bench_log_parse.py [--sizes 10000,100000,1000000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import iter_log_file, parse_log_text
from lackey_plugin.log.writer import write_log
from zcards.game.definition import ZOMBIE_GAME, Meaning

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
            ev.PerformAll.of(player, Meaning.READY_ALL, game=ZOMBIE_GAME),
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
            ev.Perform.of(player, Meaning.SPEND, "a face-down card", game=ZOMBIE_GAME),
            ev.Play(player, card, player, "Hand"),
            ev.CounterChange.of(other, Meaning.WOUND, card, 0, 1, game=ZOMBIE_GAME),
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


def one_regex(path: Path) -> float:
    started = time.process_time()
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            BASELINE.match(line)
    return time.process_time() - started


def regex_and_dumps(path: Path, out: Path) -> float:
    started = time.process_time()
    with path.open(encoding="utf-8") as handle, out.open("w", encoding="utf-8") as sink:
        for line in handle:
            match = BASELINE.match(line)
            if match is not None:
                sink.write(json.dumps(match.groups(), ensure_ascii=False) + "\n")
    return time.process_time() - started


def library(path: Path) -> float:
    started = time.process_time()
    for _event in iter_log_file(path, game=ZOMBIE_GAME):
        pass
    return time.process_time() - started


def in_process(path: Path, out: Path, rounds: int) -> tuple[float, float, float, float]:
    """Medians of alternating rounds: the floor, regex + json, the library, library/floor."""
    found = [(one_regex(path), regex_and_dumps(path, out), library(path)) for _ in range(rounds)]
    regex, dumps, lib = (statistics.median(column) for column in zip(*found, strict=True))
    return regex, dumps, lib, statistics.median(row[2] / row[0] for row in found)


def cli_jsonl(path: Path, out: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of ``zcards log parse --format jsonl``."""
    command = [sys.executable, "-m", "zcards", "log", "parse", str(path), "--format", "jsonl"]
    started = time.perf_counter()
    with out.open("wb") as sink:
        child = subprocess.Popen(command, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command} failed with exit code {child.returncode}")
    return elapsed, usage.ru_maxrss / 1024


def seat_lines(count: int = 200) -> float:
    text = "".join(f"Player {i} sits down at seat {i}.\n" for i in range(count))
    text += "".join(
        f"Player {i} moves Axe from his Hand to Player 7's Discard.\n" for i in range(count)
    )
    started = time.perf_counter()
    log = parse_log_text(text, game=ZOMBIE_GAME)
    elapsed = time.perf_counter() - started
    assert len(log.players) == count and not log.unparsed
    return elapsed


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--sizes", default="10000,100000,1000000")
    options.add_argument("--rounds", type=int, default=3)
    arguments = options.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]
    print(f"200 seat lines with 200 names, then 200 lines naming them: {seat_lines():.3f} s")
    print(f"load average {os.getloadavg()[0]:.1f}; regex, regex+json, library: CPU seconds")
    header = f"{'lines':>9} {'regex':>8} {'regex+json':>10} {'library':>8} {'cli jsonl':>9}"
    print(header + "   lib/regex lib/(regex+json)   cli peak MiB")
    results = []
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.txt"
        empty.write_text("")
        startup = min(cli_jsonl(empty, Path(folder) / "empty.out")[0] for _ in range(3))
        print(f"(cli start-up, an empty log: {startup:.2f} s; growth below is net of it)")
        for count in sizes:
            path = Path(folder) / f"log-{count}.txt"
            write_log(synthetic_events(count), path)
            out = Path(folder) / "out.jsonl"
            regex, dumps, lib, ratio = in_process(path, out, arguments.rounds)
            cli, peak = cli_jsonl(path, out)
            rows = sum(1 for _ in out.open(encoding="utf-8"))
            assert rows == count, (rows, count)
            results.append((count, cli - startup, peak))
            print(
                f"{count:>9,} {regex:>7.3f}s {dumps:>9.3f}s {lib:>7.3f}s {cli:>8.2f}s"
                f"   {ratio:>8.1f}x {lib / dumps:>15.2f}x   {peak:>10.0f}"
            )
    (small, small_time, small_peak), (large, large_time, large_peak) = results[0], results[-1]
    per_line = (large_time / large) / (small_time / small)
    print(
        f"growth {small:,} -> {large:,} lines: time per line x{per_line:.2f}, "
        f"peak memory x{large_peak / small_peak:.2f}"
    )


if __name__ == "__main__":
    main()
