"""Detection rates of the audit, by systematic injection.

Plays simulated games (every pairing of the starter decks, each strategy mix), records each
game in one recording style (the styles take turns) from both players' points of view, and
finds *every* place each log allows one of four violations (the simulator's full state says
where the line breaks the rule): a heal without a Medic, a zombie that is not a ready
attacker fighting, a wound with no attacker, a third draw. Each place is classed from the log
alone (zcards/sim/faults/injection.py): "the log decides" (no legal reading of the log up to the
injected line makes it legal) or "another reading" (which one: a correction, a Medic, card
text, a face-down card whose zone the log does not show …). A uniform sample of each class is
injected one at a time and audited; the script prints the share reported as a violation at
the injected line, as unverifiable, or missed, and with --examples N up to N places per row
that the audit classed otherwise (the log before the line, the line, the audit's messages).
Target: >= 95% violations where the log decides. A measurement, not a test.

Usage: python scripts/detection_rates.py [--games 3] [--sample 300] [--styles a,b]
                                         [--seed 1] [--format text|json] [--examples N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass

import support_path  # noqa: F401  (puts tests/support on sys.path)

from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.rules.engine import audit
from zcards.sim.batch import game_seed
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import RecordedLog, log_text, record
from zcards.sim.styles import STYLE_NAMES, resolve_style

# isort: split
from support.faults.injection import EXPECTED, Injection, injections
from support.faults.splice import numbered
from support.faults.truth import play_observed, states_by_line

STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
DECK_SIZE = 40
OUTCOMES = ("violation", "unverifiable", "missed")
EXCERPT = 12  # log lines shown before an example's injected line


@dataclass(frozen=True)
class Place:
    """One injection into one log."""

    log: RecordedLog
    pov: str
    players: tuple[str, ...]
    style: str
    injection: Injection


class Reservoir:
    """A uniform sample of at most ``size`` items from a stream, and the stream's length."""

    def __init__(self, size: int, rng: random.Random) -> None:
        self.size, self.rng, self.seen, self.items = size, rng, 0, list[Place]()

    def add(self, item: Place) -> None:
        self.seen += 1
        if len(self.items) < self.size:
            self.items.append(item)
        elif (slot := self.rng.randrange(self.seen)) < self.size:
            self.items[slot] = item


def find_places(games: int, seed: int, styles: list[str], sample: int, cards) -> dict:
    """Every place in every log, sampled per (injection, decided)."""
    rng = random.Random(f"detection/{seed}")
    pools: dict[tuple[str, bool], Reservoir] = defaultdict(lambda: Reservoir(sample, rng))
    readings: Counter[tuple[str, str]] = Counter()
    number = 0
    for pair in itertools.combinations(starter_decks(), 2):
        decks = load_decks(list(pair))
        for strategies in STRATEGIES:
            for index in range(games):
                order = slice(None) if index % 2 == 0 else slice(None, None, -1)
                result, snapshots = play_observed(
                    decks[order],
                    game_seed(seed, index),
                    strategies=list(strategies)[order],
                )
                style = styles[number % len(styles)]
                number += 1
                for pov in result.players:
                    log = record(result, pov, resolve_style(style, result.seed))
                    states = states_by_line(log, snapshots)
                    for place in injections(log, result.actions, states, cards, pov):
                        pools[(place.name, place.decided)].add(
                            Place(log, pov, result.players, style, place)
                        )
                        readings[(place.name, place.reading or "-")] += 1
    return {"pools": pools, "readings": readings, "games": number}


def outcome(place: Place, index: CardIndex) -> tuple[str, tuple[str, ...], list[str]]:
    """What the audit reports at the injected line: a violation (its kinds), unverifiable,
    or nothing (missed); and the audit's messages at that line."""
    at = place.injection.index
    events = [*place.log.events[:at], place.injection.event, *place.log.events[at:]]
    text = log_text(numbered(events), place.log.pronoun)
    decks = dict.fromkeys(place.players, DECK_SIZE)
    report = audit(parse_log_text(text, game=ZOMBIE_GAME).events, index, pov=place.pov, decks=decks)
    line = at + 1
    found = [f for f in (*report.violations, *report.unverifiable) if f.line == line]
    messages = [f"{f.kind}: {f.message}" for f in found]
    kinds = tuple(sorted({v.kind for v in report.violations if v.line == line}))
    if kinds:
        return "violation", kinds, messages
    if found:
        return "unverifiable", (), messages
    return "missed", (), messages


def example(place: Place, messages: list[str], context: int = EXCERPT) -> dict:
    """A place for a reader: the log lines before the injected one, the line, the audit."""
    at = place.injection.index
    lines = log_text(numbered(place.log.events[max(0, at - context) : at]), place.log.pronoun)
    injected = log_text(numbered([place.injection.event]), place.log.pronoun).strip()
    return {
        "style": place.style,
        "pov": place.pov,
        "line": at + 1,
        "reading": place.injection.reading or "-",
        "excerpt": lines.splitlines(),
        "injected": injected,
        "audit": messages,
    }


def measure(found: dict, index: CardIndex, examples: int = 0) -> dict:
    """The audit's outcome on every sampled place; up to ``examples`` places per row where
    it did not report what the class predicts (a violation exactly where the log decides)."""
    rows = []
    by_style: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for (name, decided), pool in sorted(found["pools"].items()):
        counts: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        odd: list[dict] = []
        for place in pool.items:
            result, violated, messages = outcome(place, index)
            counts[result] += 1
            kinds.update(violated)
            if (result == "violation") != decided and len(odd) < examples:
                odd.append(example(place, messages))
            if decided:
                by_style[(name, place.style)][result] += 1
        rows.append(
            {
                "injection": name,
                "expected": EXPECTED[name],
                "class": "log decides" if decided else "another reading",
                "places": pool.seen,
                "sampled": len(pool.items),
                **{key: counts[key] for key in OUTCOMES},
                "violation_kinds": dict(kinds),
                "examples": odd,
            }
        )
    styles = [
        {"injection": name, "style": style, **{key: counts[key] for key in OUTCOMES}}
        for (name, style), counts in sorted(by_style.items())
    ]
    readings = [
        {"injection": name, "reading": reading, "places": count}
        for (name, reading), count in sorted(found["readings"].items())
    ]
    return {"games": found["games"], "rates": rows, "by_style": styles, "readings": readings}


def _share(row: dict, key: str) -> str:
    total = sum(row[k] for k in OUTCOMES)
    return f"{100 * row[key] / total:5.1f}%" if total else "    -"


def print_text(data: dict, seconds: float) -> None:
    print(f"{data['games']} games, both points of view; {seconds:.0f} s")
    print(f"\n{'injection':28}{'class':17}{'places':>8}{'sampled':>8}  violation  unverif.  missed")
    for row in data["rates"]:
        print(
            f"{row['injection']:28}{row['class']:17}{row['places']:>8}{row['sampled']:>8}"
            f"  {_share(row, 'violation'):>9}  {_share(row, 'unverifiable'):>8}"
            f"  {_share(row, 'missed'):>6}   {row['violation_kinds'] or ''}"
        )
    print("\nwhere the log decides, share reported as a violation, by recording style:")
    names = list(EXPECTED)
    print(f"{'style':14}" + "".join(f"{name[:22]:>24}" for name in names))
    cells = {(r["injection"], r["style"]): r for r in data["by_style"]}
    for style in sorted({r["style"] for r in data["by_style"]}):
        row = [cells.get((name, style)) for name in names]
        print(
            f"{style:14}"
            + "".join(
                f"{_share(r, 'violation') + f' of {sum(r[k] for k in OUTCOMES)}':>24}"
                if r
                else f"{'-':>24}"
                for r in row
            )
        )
    print("\nplaces by reading ('-': the log decides):")
    for row in data["readings"]:
        print(f"  {row['injection']:28}{row['reading']:44}{row['places']:>8}")
    for row in data["rates"]:
        for shown in row["examples"]:
            print(f"\n{row['injection']} / {row['class']}: {shown['style']} log, {shown['pov']}'s")
            print(f"view, line {shown['line']} (reading: {shown['reading']})")
            print("\n".join(f"    {line}" for line in shown["excerpt"]))
            print(f"  > {shown['injected']}")
            print("\n".join(f"  audit: {message}" for message in shown["audit"] or ["nothing"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="per pairing and strategy mix")
    parser.add_argument("--sample", type=int, default=300, help="per injection and class")
    parser.add_argument("--styles", default=",".join(STYLE_NAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--examples", type=int, default=0, help="per row, places the audit did not class alike"
    )
    args = parser.parse_args()
    card_list = read_card_file(BUNDLED_SET)
    cards = {card.name: card for card in card_list}
    start = time.perf_counter()
    found = find_places(args.games, args.seed, args.styles.split(","), args.sample, cards)
    data = measure(found, CardIndex(card_list), args.examples)
    if args.format == "json":
        print(json.dumps(data, indent=2))
    else:
        print_text(data, time.perf_counter() - start)


if __name__ == "__main__":
    main()
