"""The log parser's bounds: names are data (no regex per name), numbers stay in range."""

from __future__ import annotations

import json

import pytest
from support.log_examples import EXAMPLES, MEANINGS, ZOMBIE, A, B

from lackey_plugin.log import events as ev
from lackey_plugin.log import matcher as matcher_module
from lackey_plugin.log.matcher import MAX_KNOWN_NAMES, Matcher, is_ambiguous, name_continuations
from lackey_plugin.log.parser import LogFormatError, parse_log_file, parse_log_text
from lackey_plugin.log.templates import MAX_NUMBER, Vocabulary, default_templates, load_templates
from zcards.cli import main
from zcards.game.definition import ZOMBIE_GAME


def _count_matchers(monkeypatch) -> list[int]:
    built: list[int] = []
    original = matcher_module.Matcher.__init__

    def counting(self, *args, **kwargs) -> None:
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(matcher_module.Matcher, "__init__", counting)
    return built


def test_learning_many_names_compiles_no_regex(monkeypatch):
    """200 seat lines used to compile the whole template regex 200 times (41 s)."""
    parse_log_text(
        "Warm Up sits down at seat 1.\n", game=ZOMBIE_GAME
    )  # the process's one matcher for short names
    built = _count_matchers(monkeypatch)
    text = "".join(f"Player {i} sits down at seat {i}.\n" for i in range(200))
    text += "".join(
        f"Player {i} moves Axe from his Hand to Player 7's Discard.\n" for i in range(200)
    )
    log = parse_log_text(text, game=ZOMBIE_GAME)
    assert built == []
    assert len(log.players) == 200 and log.unparsed == []
    assert log.events[-1] == ev.Move(
        "Player 199", "Axe", "Player 199", "Hand", "Player 7", "Discard"
    )


def test_known_names_win_longest_first_after_many_names():
    seats = "".join(f"P{i} sits down at seat {i}.\n" for i in range(50))
    log = parse_log_text(
        seats + "The Man who sits down at seat 51\n"
        "The Man who plays sits down at seat 52\n"
        "The Man who plays plays Kyle Bjorn from his Hand.\n"
        "The Man who plays Kyle from his Hand.\n",
        game=ZOMBIE_GAME,
    )
    assert log.events[-2] == ev.Play("The Man who plays", "Kyle Bjorn", "The Man who plays", "Hand")
    assert log.events[-1] == ev.Play("The Man who", "Kyle", "The Man who", "Hand")


def test_ambiguous_names_past_the_cap_parse_as_any_name():
    names = [f"Ann{i} plays" for i in range(MAX_KNOWN_NAMES + 5)]  # "Ann0" + " plays ..."
    seats = "".join(f"{name} sits down at seat 1.\n" for name in names)
    log = parse_log_text(seats + f"{names[0]} plays Axe from his Hand.\n"
                    f"{names[-1]} plays Axe from his Hand.\n", game=ZOMBIE_GAME)  # fmt: skip
    assert len(log.players) == len(names) and log.unparsed == []
    assert log.events[-2] == ev.Play(names[0], "Axe", names[0], "Hand")
    assert log.events[-1] == ev.Play(
        f"Ann{len(names) - 1}", "plays Axe", f"Ann{len(names) - 1}", "Hand"
    )


@pytest.mark.parametrize(
    "line",
    [
        "Bob changes Bob's Food to 100000000000000000000. (from 1 to 100000000000000000000)"
        " (+99999999999999999999)",
        "Bob draws 1000000001 cards.",
        "Bob rolls 1 6-sided die. The result: 99999999999.",
        "Bob moves Axe from his Hand to position 12345678901 of his Deck.",
    ],
)
def test_a_number_out_of_range_makes_the_line_unparsed(line):
    log = parse_log_text(f"[1:00:00] {line}\n", game=ZOMBIE_GAME)
    assert log.events == [ev.Unparsed(line)]
    assert log.events[0].line == 1 and log.events[0].timestamp == "1:00:00"


def test_numbers_at_the_bound_are_read():
    log = parse_log_text(f"Bob draws {MAX_NUMBER} cards.\nBob changes Bob's Food to -{MAX_NUMBER}."
                    f" (from 0 to -{MAX_NUMBER}) (-{MAX_NUMBER})\n", game=ZOMBIE_GAME)  # fmt: skip
    assert log.unparsed == []
    assert log.events[0].count == MAX_NUMBER and log.events[1].delta == -MAX_NUMBER


def test_strict_mode_names_the_column_of_a_number_out_of_range(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("Bob draws 2 cards.\nBob draws 99999999999 cards.\n", encoding="utf-8")
    with pytest.raises(LogFormatError) as caught:
        parse_log_file(path, strict=True, game=ZOMBIE_GAME)
    assert str(caught.value).startswith(f"{path}, line 2, column 11: number 99999999999 is outside")


def test_the_regex_without_name_lookup_reads_unambiguous_names_the_same():
    """Lines without an ambiguous known name skip the table lookup: same events."""
    continuations = name_continuations(default_templates())
    assert not is_ambiguous(A, continuations) and not is_ambiguous(B, continuations)
    assert is_ambiguous("The Man who plays", continuations)  # "The Man who" + " plays "
    assert is_ambiguous("O'Brien", continuations)
    looked_up = Matcher(default_templates(), Vocabulary.of(ZOMBIE, [A, B]))
    plain = Matcher(default_templates(), Vocabulary.of(ZOMBIE, [A, B]), longest=0)
    for _name, line, expected in EXAMPLES:
        assert plain.event(line, MEANINGS, 1) == looked_up.event(line, MEANINGS, 1)
        assert plain.event(line, MEANINGS, 1)[0] == expected


def test_log_parse_streams_events_written_before_a_fatal_line(tmp_path, capsys):
    """Events go out as they are read: a binary line at the end still leaves every event
    before it on stdout, and the error names its line."""
    path = tmp_path / "game.txt"
    lines = [f"Bob draws {n % 7 + 2} cards." for n in range(5000)]
    path.write_bytes(("\n".join(lines) + "\nBob \x00 draws\n").encode())
    with pytest.raises(SystemExit) as exited:
        main(["log", "parse", str(path), "--format", "jsonl"])
    out, err = capsys.readouterr()
    assert exited.value.code == 2  # unusable input (README, exit codes)
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 5000 and rows[-1] == {
        "kind": "draw", "line": 5000, "timestamp": None, "seconds": None,
        "player": "Bob", "count": 4999 % 7 + 2, "card": None,
    }  # fmt: skip
    assert f"{path}, line 5001, column 5" in err


def test_a_name_followed_by_anything_makes_every_name_ambiguous(tmp_path):
    table = tmp_path / "templates.toml"
    table.write_text(
        '[chat]\nevent = "Chat"\n[[chat.templates]]\n'
        'name = "glued"\nline = "{player}{text:text}"\n',
        encoding="utf-8",
    )
    continuations = name_continuations(load_templates(table))
    assert continuations is None and is_ambiguous("Bob", continuations)
