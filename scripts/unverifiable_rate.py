"""How many unverifiable findings the audit leaves on games the simulator wrote legal.

Every simulated game is legal, so each unverifiable finding is a doubt the log could not
settle (a hidden zone, a reading of a misclick): the fewer, the more a judge can trust the
report. Plays ``zcards simulate --games N --seed S --style STYLE`` (the tour's: 200 games,
seed 1, mixed styles), audits each log and prints the findings per game, by kind and by
reason (the message after its last ``;``), and any violation (there must be none).

    python scripts/unverifiable_rate.py [--games 200] [--seed 1] [--style mixed] [--format json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench_env import ZCARDS, installed_env

from zcards.rules.load import audit_log, load_cards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--style", default="mixed")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    cards = load_cards()
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    violations = 0
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [sys.executable, "-c", ZCARDS, "simulate", "--games", str(args.games)]
            + ["--seed", str(args.seed), "--style", args.style, "--out", folder],
            check=True,
            capture_output=True,
            env=installed_env(),
        )
        logs = sorted(Path(folder).glob("game-*.txt"))
        for log in logs:
            report = audit_log(log, cards)
            violations += len(report.violations)
            for finding in report.unverifiable:
                kinds[finding.kind] += 1
                reasons[finding.message.rsplit(";", 1)[-1].strip()] += 1
    total = kinds.total()
    result = {
        "games": len(logs),
        "unverifiable": total,
        "per_game": round(total / max(1, len(logs)), 3),
        "violations": violations,
        "kinds": dict(kinds.most_common()),
        "reasons": dict(reasons.most_common()),
    }
    if args.format == "json":
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{result['games']} games: {total} unverifiable findings, {result['per_game']} per "
        f"game, {violations} violations"
    )
    for kind, count in kinds.most_common():
        print(f"  {count:>5}  {kind}")
    for reason, count in reasons.most_common(10):
        print(f"  {count:>5}  ...; {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
