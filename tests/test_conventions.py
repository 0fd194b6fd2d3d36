"""One convention for every command, through the real entry point (README, "Exit codes"):
0 success, 1 the command's finding, 2 unusable input or usage; errors under ``--format json``
are one JSON object on stderr; a closed pipe exits quietly; the default database is the same
for every command; progress bars on a terminal only."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

from zcards.cli import main


def _env() -> dict[str, str]:
    """This checkout (however it is installed), in the test session's environment (its own
    render cache, no $ZCARDS_DB): read when a command runs, not when the module is imported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ZCARDS_DB", None)
    return env


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def test_findings_exit_1(sample_db_args: list[str], tmp_path: Path, capsys) -> None:
    assert run(["card", "no such card at all", *sample_db_args], capsys)[0] == 1
    deck = tmp_path / "deck.txt"
    deck.write_text("4 Gross Ghoul\n2 Shamblr\n", encoding="utf-8")
    assert run(["deck", "check", str(deck), *sample_db_args], capsys)[0] == 1
    log = tmp_path / "game.txt"
    log.write_text((ROOT / "examples" / "game.txt").read_text(encoding="utf-8"), encoding="utf-8")
    assert run(["audit", str(log), *sample_db_args], capsys)[0] == 1


def test_unusable_input_exits_2_with_one_message(
    sample_db_args: list[str], tmp_path: Path, capsys
) -> None:
    cases = [
        ["search", "cost>>1", *sample_db_args],  # a bad query
        ["search", "k:fast", "--db", str(tmp_path / "missing.db")],  # no such database
        ["search", "k:fast", "--limit", "0", *sample_db_args],  # a bad option value
        ["plugin", "checksum", str(tmp_path / "missing.txt")],  # a missing file
        ["import", str(tmp_path / "missing.txt"), "--db", str(tmp_path / "new.db")],
        ["deck", "convert", str(ROOT / "examples" / "my-deck.txt"), "--to", "dek", *sample_db_args],
        ["log", "parse", str(tmp_path)],  # a folder, not a log
    ]
    for args in cases:
        code, out, err = run(args, capsys)
        assert code == 2, (args, err)
        assert out == "" and "Error" in err and "Traceback" not in err, (args, err)


def test_an_unwritable_output_is_exit_2_not_a_traceback(tmp_path: Path, capsys) -> None:
    deck = ROOT / "zcards" / "data" / "decks" / "horde-starter.txt"
    target = tmp_path / "no-such-folder" / "deck.txt"
    code, _out, err = run(
        ["deck", "convert", str(deck), "--to", "text", "--out", str(target)], capsys
    )
    assert code == 2 and err.startswith("Error: ") and "no-such-folder" in err


def test_errors_under_json_are_one_json_object_on_stderr(sample_db_args: list[str], capsys) -> None:
    code, out, err = run(["search", "cost>>1", "--format", "json", *sample_db_args], capsys)
    error = json.loads(err)
    assert code == 2 and out == ""
    assert error["exit_code"] == 2 and "unknown operator" in error["error"]
    assert error["file"] == "query" and error["column"] == 5
    code, _out, err = run(
        ["search", "k:fast", "--format=json", "--limit", "0", *sample_db_args], capsys
    )
    assert code == 2 and json.loads(err)["exit_code"] == 2  # a usage error found by click
    code, _out, err = run(["card", "nothing like it", "--format", "json", *sample_db_args], capsys)
    assert code == 1 and json.loads(err) == {
        "error": "no card named 'nothing like it'",
        "exit_code": 1,
    }


def test_a_closed_pipe_exits_0_quietly(sample_db_path: Path) -> None:
    """As in ``zcards search ... | head -1``: the reader is gone before zcards writes."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "zcards", "search", "t:zombie", "--db", str(sample_db_path)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=_env(),
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (0, b"")


def test_every_reading_command_finds_the_same_default_database(
    sample_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """build/cards.db is found from its folder; ./cards.db wins over it; $ZCARDS_DB over both;
    with none of them, the bundled set answers (read-only)."""
    monkeypatch.chdir(tmp_path)
    assert run(["search", 'name="Grinning Ghoul"', "--count"], capsys)[1] == "0\n"  # bundled set
    (tmp_path / "build").mkdir()
    code, out, _err = run(
        ["import", str(ROOT / "examples" / "cards.txt"), "--db", "build/cards.db"], capsys
    )
    assert code == 0
    assert run(["search", 'name="Grinning Ghoul"', "--count"], capsys)[1] == "1\n"
    code, out, _err = run(["card", "Grinning Ghoul"], capsys)
    assert code == 0 and out.startswith("Name") and "Grinning Ghoul" in out
    code, out, _err = run(["stats", "--format", "json"], capsys)
    assert json.loads(out)["total"] == 2
    (tmp_path / "cards.db").write_bytes(sample_db_path.read_bytes())
    assert run(["search", 'name="Grinning Ghoul"', "--count"], capsys)[1] == "0\n"  # ./cards.db
    monkeypatch.setenv("ZCARDS_DB", "build/cards.db")
    assert run(["search", 'name="Grinning Ghoul"', "--count"], capsys)[1] == "1\n"


def test_the_bundled_fallback_is_read_only(tmp_path: Path, monkeypatch) -> None:
    import sqlite3

    from zcards.store.db import open_db

    monkeypatch.chdir(tmp_path)
    db = open_db()
    assert db["cards"].count == 100
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("delete from cards")
    assert list(tmp_path.iterdir()) == []


def on_terminal(args: list[str]) -> tuple[str, str]:
    """Run zcards with stderr on a pseudo-terminal, stdout piped: (stdout, terminal output)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "zcards", *args], stdout=subprocess.PIPE, stderr=follower, env=_env()
    )
    os.close(follower)
    received = b""
    while select.select([leader], [], [], 120)[0]:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        received += chunk
    stdout = process.stdout.read().decode() if process.stdout else ""
    assert process.wait(timeout=60) == 0, received
    os.close(leader)
    return stdout, received.decode(errors="replace")


def piped(args: list[str]) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "zcards", *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_progress_on_a_terminal_and_quiet_when_piped() -> None:
    args = ["simulate", "--games", "40", "--seed", "2"]
    out_tty, err_tty = on_terminal(args)
    assert "Simulating" in err_tty and "100%" in err_tty
    out_pipe, err_pipe = piped(args)
    assert err_pipe == ""
    assert out_pipe == out_tty  # the report itself does not change


@pytest.mark.slow  # end to end: two real exports, one on a pseudo-terminal
def test_plugin_export_shows_a_bar_per_stage_on_a_terminal(
    mini_db_path: Path, tmp_path: Path
) -> None:
    args = ["plugin", "export", "--db", str(mini_db_path), "--dpi", "30"]
    _out, terminal = on_terminal([*args, "--out", str(tmp_path / "a")])
    assert "card images" in terminal and "100%" in terminal
    _out, err = piped([*args, "--out", str(tmp_path / "b")])
    assert "card images" not in err and "%" not in err


def test_stage_progress_is_one_bar_per_stage_and_none_when_piped(monkeypatch, capsys) -> None:
    from zcards.cli import common

    with common.stage_progress() as report:
        assert report is None  # tests do not run on a terminal
    monkeypatch.setattr(common, "is_interactive", lambda: True)
    with common.stage_progress() as report:
        assert report is not None
        for stage in ("card images", "proxies"):
            for done in range(1, 4):
                report(stage, done, 3)
    err = capsys.readouterr().err
    assert err.count("card images") == 1 and err.index("card images") < err.index("proxies")


def test_a_large_import_is_summarised_unless_verbose(tmp_path: Path, capsys) -> None:
    bundled = ROOT / "zcards" / "data" / "alpha.txt"
    code, out, _err = run(["import", str(bundled), "--db", str(tmp_path / "a.db")], capsys)
    assert code == 0 and "100 added" in out and "--verbose lists them" in out
    assert "+ Gross Ghoul (alpha)" not in out
    code, out, _err = run(["import", str(bundled), "--db", str(tmp_path / "b.db"), "-v"], capsys)
    assert code == 0 and "+ Gross Ghoul (alpha)" in out and out.count("\n+ ") == 100
