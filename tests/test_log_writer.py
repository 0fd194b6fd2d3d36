"""The log writer: exact lines, pronoun choice, files written atomically, refusals."""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import parse_log_file
from lackey_plugin.log.serial import event_from_dict
from lackey_plugin.log.writer import LogWriter, format_line, format_log, write_log
from zcards.cli import cli, main
from zcards.game.definition import ZOMBIE_GAME, Meaning

GAME = [
    ev.Seat("Alice", "sit", 1),
    ev.Seat("Bob", "sit", 2),
    ev.NewGame("Alice"),
    ev.DeckLoad("Alice", "Deck"),
    ev.DeckLoad("Bob", "Deck"),
    ev.Chat("Bob", "bid 7"),
    ev.StatChange("Bob", "Food", 10, 7, target="Bob"),
    ev.Draw("Alice", 7),
    ev.Play("Bob", "Kyle Bjorn", "Bob", "Deck"),
    ev.Shuffle("Bob", "Deck", "Bob"),
    ev.TurnChange("Bob", 1, "Bob"),
    ev.PerformAll.of("Bob", Meaning.READY_ALL, game=ZOMBIE_GAME),
    ev.Perform.of("Bob", Meaning.SPEND, "Kyle Bjorn", game=ZOMBIE_GAME),
    ev.CounterChange.of(
        "Bob", Meaning.WOUND, "Kyle Bjorn", 0, 1, timestamp="21:04:09", game=ZOMBIE_GAME
    ),
]


def test_the_simulator_constructors_write_the_protocol_wording():
    assert format_log(GAME).splitlines()[-4:] == [
        "Bob advances the turn. Current Turn: #1, Bob's turn.",
        "Bob performs Ready All on all his cards.",
        "Bob performs Spend on Kyle Bjorn.",
        "[21:04:09] Bob performs Wound (0 to 1) (+1) on Kyle Bjorn.",
    ]
    assert GAME[6].delta == -3 and GAME[-1].delta == 1


def test_pronoun_their():
    event = ev.Move("Bob", "Axe", "Bob", "Hand", "Bob", "Discard", dst_pos="top", discard=True)
    assert format_line(event, pronoun="their") == (
        "Bob discards Axe from their Hand to the top of their Discard."
    )
    assert format_line(ev.Reveal("Bob", "Hand", "self", "Bob"), pronoun="their") == (
        "Bob reveals their Hand zone to themselves."
    )
    with pytest.raises(ValueError, match="pronoun"):
        LogWriter(pronoun="its")


def test_another_owner_is_named():
    event = ev.TableToZone("Bob", "Kyle Bjorn", "Alice", "Discard", "top")
    assert format_line(event) == (
        "Bob moves Kyle Bjorn from the table to the top of Alice's Discard."
    )


@pytest.mark.parametrize(
    "event",
    [
        ev.Draw("Bob", 2, "Kyle Bjorn"),
        ev.Move("Bob", "Axe", "Bob", "Hand", "Bob", "Discard", src_pos="middle"),
        ev.Chat("Bob", "two\nlines"),
        ev.Shuffle("Bob", "Deck", all_decks=True),
    ],
)
def test_events_no_wording_can_say_are_refused(event):
    with pytest.raises(ValueError):
        format_line(event)


def test_write_log_to_a_file_replaces_it_atomically(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("old content\n", encoding="utf-8")
    assert write_log(GAME, path) == len(GAME)
    assert path.read_bytes().decode("utf-8") == format_log(GAME)
    assert b"\r\n" not in path.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]
    assert parse_log_file(path, game=ZOMBIE_GAME).events == GAME


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("old content\n", encoding="utf-8")
    with pytest.raises(ValueError):
        write_log([*GAME, ev.Draw("Bob", 2, "X")], path)
    assert path.read_text(encoding="utf-8") == "old content\n"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


def test_write_log_to_a_stream():
    stream = io.StringIO()
    write_log(GAME[:2], stream, pronoun="their")
    assert stream.getvalue() == "Alice sits down at seat 1.\nBob sits down at seat 2.\n"


def test_cli_log_parse_text_and_jsonl(tmp_path):
    path = tmp_path / "game.txt"
    write_log([*GAME, ev.Unparsed("Bob dances.")], path)
    runner = CliRunner()
    text = runner.invoke(cli, ["log", "parse", str(path)])
    assert text.exit_code == 0, text.output
    assert "    14  counter       player='Bob' label='Wound'" in text.output
    assert "1 unparsed line(s):\n  line 15: Bob dances." in text.output
    assert "  seat          2" in text.output
    jsonl = runner.invoke(cli, ["log", "parse", str(path), "--format", "jsonl"])
    rows = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert len(rows) == 15
    assert rows[13] == {
        "kind": "counter",
        "line": 14,
        "timestamp": "21:04:09",
        "seconds": 21 * 3600 + 4 * 60 + 9,
        "player": "Bob",
        "label": "Wound",
        "card": "Kyle Bjorn",
        "old": 0,
        "new": 1,
        "delta": 1,
        "meaning": "wound",
    }
    assert [event_from_dict(row, ZOMBIE_GAME) for row in rows[:-1]] == GAME
    assert "unparsed line(s)" in jsonl.stderr
    whole = runner.invoke(cli, ["log", "parse", str(path), "--format", "json"])
    assert whole.exit_code == 0, whole.output
    assert json.loads(whole.stdout) == rows
    assert "1 unparsed line(s)" in whole.stderr


def test_cli_strict_and_player_options(tmp_path, capsys):
    path = tmp_path / "game.txt"
    path.write_text("The Man who plays plays Axe from his Hand.\nBob dances.\n", encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["log", "parse", str(path), "--strict"])
    assert caught.value.code == 2
    assert f"Error: {path}, line 2: no log template matches 'Bob dances.'" in (
        capsys.readouterr().err
    )
    runner = CliRunner()
    named = runner.invoke(
        cli, ["log", "parse", str(path), "--player", "The Man who plays", "--format", "jsonl"]
    )
    assert json.loads(named.stdout.splitlines()[0])["player"] == "The Man who plays"
    assert runner.invoke(cli, ["log", "parse", "--help"]).exit_code == 0
