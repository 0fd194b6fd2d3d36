"""``zcards audit LOG...``: several logs, one JSON line each as it is done (jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from support.paths import LOGS, ROOT

from zcards.cli import main

CARDS = LOGS / "cards.txt"
SCHEMA = json.loads((ROOT / "docs" / "audit-schema.json").read_text())


def run(capsys, *args: str | Path) -> tuple[int, str, str]:
    try:
        main(["audit", *map(str, args), "--cards", str(CARDS)])
        code = 0
    except SystemExit as exited:
        code = exited.code if isinstance(exited.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_jsonl_gives_one_schema_report_per_log_in_order(capsys, tmp_path):
    logs = [LOGS / "legal-game.txt", LOGS / "illegal-attacker.txt", LOGS / "legal-game.txt"]
    code, out, _ = run(capsys, *logs, "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["log"] for line in lines] == [str(log) for log in logs]
    for line in lines:
        jsonschema.validate(line["report"], SCHEMA)
    assert [bool(line["report"]["violations"]) for line in lines] == [False, True, False]
    assert code == 1
    _, single, _ = run(capsys, logs[1], "--format", "json")
    assert json.loads(single) == lines[1]["report"]


def test_an_unusable_log_is_reported_and_the_others_still_audited(capsys, tmp_path):
    missing = tmp_path / "missing.txt"
    code, out, err = run(capsys, missing, LOGS / "legal-game.txt", "--format", "jsonl")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["log"] == str(missing) and "error" in first and "report" not in first
    assert second["report"]["violations"] == []
    assert code == 2 and str(missing) in err


def test_text_names_each_log_and_json_takes_one(capsys):
    logs = [LOGS / "legal-game.txt", LOGS / "legal-overwhelm.txt"]
    code, out, _ = run(capsys, *logs)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("== ")] == [
        f"== {log} ==" for log in logs
    ]
    code, out, err = run(capsys, *logs, "--format", "json")
    assert code == 2 and out == "" and "--format jsonl" in err


@pytest.mark.parametrize("count", [1, 3])
def test_exit_code_is_the_worst_of_the_logs(capsys, count):
    code, _, _ = run(capsys, *[LOGS / "legal-game.txt"] * count, "--format", "jsonl")
    assert code == 0
