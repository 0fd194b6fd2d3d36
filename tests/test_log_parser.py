"""The log parser on whole logs: timestamps, names, games, encodings, garbage, strict mode."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from support.paths import ROOT

from lackey_plugin.errors import LackeyError
from lackey_plugin.game import CardFunction, GameDefinition, GameZone, GeneralFunction
from lackey_plugin.log import events as ev
from lackey_plugin.log import parser as parser_module
from lackey_plugin.log.matcher import MAX_LINE
from lackey_plugin.log.parser import (
    LogFormatError,
    LogParser,
    iter_log_file,
    parse_log_file,
    parse_log_text,
)
from lackey_plugin.log.templates import load_templates
from zcards.game.definition import ZOMBIE_GAME, Meaning


def test_the_protocol_setup_example_parses_completely():
    doc = (ROOT / "docs" / "log-protocol.md").read_text(encoding="utf-8")
    block = doc.split("```", 2)[1]
    lines = [re.sub(r"\s+<-.*$", "", line) for line in block.strip().splitlines()]
    log = parse_log_text("\n".join(lines), game=ZOMBIE_GAME)
    assert log.unparsed == []
    assert log.players == ("Alice", "Bob")
    assert [event.kind for event in log.events] == [
        "seat",
        "seat",
        "new_game",
        "deck_load",
        "deck_load",
        "chat",
        "chat",
        "stat",
        "draw",
        "draw",
        "play",
        "play",
        "shuffle",
        "play",
        "shuffle",
        "turn",
    ]
    assert log.events[7] == ev.StatChange("Bob", "Food", 10, 7, -3, "Bob")
    assert log.events[-1] == ev.TurnChange("Bob", 1, "Bob")


def test_timestamps_are_kept_and_roll_over_midnight():
    log = parse_log_text(
        "[23:59:58] Bob draws 2 cards.\n"
        "[23:59:59] Bob draws a card.\n"
        "Bob draws a card.\n"
        "[0:00:03] Bob: midnight\n"
        "[0:00:03] Bob: same second\n"
        "[12:00:00] Bob: noon\n"
        "[11:00:00] Bob: next day again\n",
        game=ZOMBIE_GAME,
    )
    assert [event.timestamp for event in log.events] == [
        "23:59:58",
        "23:59:59",
        None,
        "0:00:03",
        "0:00:03",
        "12:00:00",
        "11:00:00",
    ]
    day = 24 * 3600
    assert [event.seconds for event in log.events] == [
        day - 2,
        day - 1,
        None,
        day + 3,
        day + 3,
        day + 12 * 3600,
        2 * day + 11 * 3600,
    ]
    assert log.events[0] == ev.Draw("Bob", 2)  # provenance does not count for equality
    assert log.events[0].raw == "[23:59:58] Bob draws 2 cards."


def test_a_bracket_that_is_not_a_timestamp_stays_in_the_line():
    log = parse_log_text("[AFK] Bob: back\n[1:2:3] Bob: x\n", game=ZOMBIE_GAME)
    assert log.events == [ev.Chat("[AFK] Bob", "back"), ev.Unparsed("[1:2:3] Bob: x")]
    assert log.events[0].timestamp is None


def test_names_with_spaces_are_learnt_from_seat_lines_and_matched_longest_first():
    log = parse_log_text(
        "The Man who sits down at seat 1\n"
        "The Man who plays sits down at seat 2\n"
        "The Man who plays plays Kyle Bjorn from his Hand.\n"
        "The Man who changes The Man who plays's Food to 9. (from 10 to 9) (-1)\n",
        game=ZOMBIE_GAME,
    )
    assert log.players == ("The Man who", "The Man who plays")
    assert log.events[2] == ev.Play("The Man who plays", "Kyle Bjorn", "The Man who plays", "Hand")
    assert log.events[3].target == "The Man who plays"


def test_names_can_be_given_when_the_log_never_introduces_them():
    line = "The Man who plays plays Kyle Bjorn from his Hand.\n"
    unaided = parse_log_text(line, game=ZOMBIE_GAME).events[0]
    assert unaided.player == "The Man who" and unaided.card == "plays Kyle Bjorn"
    given = parse_log_text(line, players=["The Man who plays"], game=ZOMBIE_GAME)
    assert given.events[0].player == "The Man who plays"
    assert given.players == ("The Man who plays",)


def test_names_are_learnt_from_join_new_game_and_deck_load_lines():
    log = parse_log_text(
        "Ann Lee has joined as a spectator. Ann Lee likes to watch.\n"
        "Mini Lock1 starts a new game.\n"
        "Test Dummy loads a deck to the Deck zone and shuffles it.\n"
        "Test Dummy draws 7 cards.\n",
        game=ZOMBIE_GAME,
    )
    assert log.players == ("Ann Lee", "Mini Lock1", "Test Dummy")


def test_a_chat_line_that_looks_like_an_action_is_chat():
    log = parse_log_text(
        "Alice sits down at seat 1\nBob sits down at seat 2\nBob: Alice draws 2 cards.\n",
        game=ZOMBIE_GAME,
    )
    assert log.events[2] == ev.Chat("Bob", "Alice draws 2 cards.")


def test_a_line_no_template_knows_never_makes_a_new_player():
    log = parse_log_text(
        "Alice sits down at seat 1\nBob sits down at seat 2\n"
        "Alice draws 2 cards. (Deck: 30): extra words\nBob passes: for now\n"
        "Carol Ann: hello\nBob: ok\n",
        game=ZOMBIE_GAME,
    )
    assert [event.line for event in log.unparsed] == [3, 4]
    assert log.events[4] == ev.Chat("Carol Ann", "hello")
    assert log.players == ("Alice", "Bob")


def test_pronoun_variants_read_as_the_players_own_stat_and_cards():
    log = parse_log_text(
        "Alice sits down at seat 1\nAlice changes their Food to 7. (from 8 to 7) (-1)\n"
        "Alice performs Ready All on all of her cards.\n",
        game=ZOMBIE_GAME,
    )
    assert log.events[1] == ev.StatChange("Alice", "Food", 8, 7, -1, "Alice")
    assert log.events[2] == ev.PerformAll("Alice", "Ready All", Meaning.READY_ALL)


def test_several_games_in_one_log_are_split_at_new_game_lines():
    log = parse_log_text(
        "Alice sits down at seat 1\nBob sits down at seat 2\n"
        "Alice starts a new game.\nAlice draws 7 cards.\n"
        "Bob starts a new game.\nBob draws 7 cards.\nCarol sits down at seat 3\n"
        "Dan has joined as a spectator. Dan likes to watch.\n"
        "Bob gets up from his seat.\nCarol starts a new game.\n",
        game=ZOMBIE_GAME,
    )
    assert [(game.number, game.start_line, len(game.events)) for game in log.games] == [
        (1, 1, 4),
        (2, 5, 5),
        (3, 10, 1),
    ]
    assert log.games[0].players == ["Alice", "Bob"]
    assert log.games[1].players == ["Alice", "Bob", "Carol"]
    assert log.games[2].players == ["Alice", "Carol"]
    assert log.players == ("Alice", "Bob", "Carol", "Dan")
    assert sum(len(game.events) for game in log.games) == len(log.events)


def test_a_log_without_a_new_game_line_is_one_game():
    log = parse_log_text("Bob draws 2 cards.\nBob: hi\n", game=ZOMBIE_GAME)
    assert [len(game.events) for game in log.games] == [2]
    assert parse_log_text("", game=ZOMBIE_GAME).games == []


def test_unknown_lines_are_unparsed_events_with_line_numbers():
    log = parse_log_text(
        "Bob draws 2 cards.\n\nsomething odd\n   \nBob dances.\n", game=ZOMBIE_GAME
    )
    assert [(event.line, event.text) for event in log.unparsed] == [
        (3, "something odd"),
        (5, "Bob dances."),
    ]
    assert log.kinds() == {"draw": 1, "unparsed": 2}


def test_strict_mode_fails_on_the_first_unknown_line_with_its_location(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text("Bob draws 2 cards.\nBob dances.\n", encoding="utf-8")
    with pytest.raises(LogFormatError) as caught:
        parse_log_file(path, strict=True, game=ZOMBIE_GAME)
    assert caught.value.location.line == 2
    assert caught.value.location.file == str(path)
    assert "Bob dances." in str(caught.value)


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-8-sig"])
def test_utf8_and_cp1252_files_decode(tmp_path, encoding):
    path = tmp_path / "log.txt"
    path.write_bytes(
        "Zoë sits down at seat 1\r\nZoë draws Café Zombie.\r\nZoë: “hi” – €5\r\n".encode(encoding)
    )
    log = parse_log_file(path, game=ZOMBIE_GAME)
    assert log.events == [
        ev.Seat("Zoë", "sit", 1),
        ev.Draw("Zoë", 1, "Café Zombie"),
        ev.Chat("Zoë", "“hi” – €5"),
    ]
    assert log.source == str(path)


def test_cr_only_line_ends_and_a_binary_stream():
    log = parse_log_file(io.BytesIO(b"Bob draws 2 cards.\rBob: hi\r\rBob: bye"), game=ZOMBIE_GAME)
    assert log.source == "<bytes>"
    assert [(event.line, event.kind) for event in log.events] == [
        (1, "draw"),
        (2, "chat"),
        (4, "chat"),
    ]


MIXED = (
    (
        "\ufeffBob draws 2 cards.\r\nBob: a\r\r\nBob: b\rBob: c\n\r\nZoë: é\n[1:00:00] Bob: d\r\n"
    ).encode()
    + "Zoë: café\n".encode("cp1252")
    + b"Bob: e\r\r"
)


@pytest.mark.parametrize("block", [1, 2, 5, 64])
def test_a_file_reads_the_same_whatever_its_block_size(tmp_path, monkeypatch, block):
    """Files are read in large blocks: a line cut by a block end, CRs before an LF, a BOM,
    a cp1252 line and a last line without LF read the same whatever the block size."""
    path = tmp_path / "log.txt"
    path.write_bytes(MIXED)
    expected = [
        (e.line, e.kind, e.raw, e.timestamp) for e in parse_log_file(path, game=ZOMBIE_GAME).events
    ]
    assert [line for line, *_ in expected] == [1, 2, 3, 4, 6, 7, 8, 9]
    assert expected[0][2] == "Bob draws 2 cards." and expected[-1] == (9, "chat", "Bob: e", None)
    assert expected[5] == (7, "chat", "[1:00:00] Bob: d", "1:00:00")
    assert expected[6][2] == "Zoë: café"
    monkeypatch.setattr(parser_module, "_BLOCK", block)
    assert [
        (e.line, e.kind, e.raw, e.timestamp) for e in parse_log_file(path, game=ZOMBIE_GAME).events
    ] == expected
    bad = MIXED.replace(b"Bob: c", b"Bob\x00 c")
    path.write_bytes(bad)
    with pytest.raises(LogFormatError) as caught:
        parse_log_file(path, game=ZOMBIE_GAME)
    assert (caught.value.location.line, caught.value.location.column) == (4, 4)


def test_the_line_cap_does_not_count_the_stamp():
    at_cap = "[1:00:00] Bob: " + "x" * (MAX_LINE - 5)
    events = parse_log_text(f"{at_cap}\n{at_cap}x\n", game=ZOMBIE_GAME).events
    assert isinstance(events[0], ev.Chat) and events[0].seconds == 3600
    assert isinstance(events[1], ev.Unparsed) and events[1].timestamp == "1:00:00"
    assert events[1].text == at_cap[10:] + "x"


def test_a_template_that_never_sets_a_required_field_is_refused(tmp_path):
    table = tmp_path / "templates.toml"
    table.write_text(
        '[draw]\nevent = "Draw"\n[[draw.templates]]\nname = "nobody"\n'
        'line = "Someone draws {count:int} cards."\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="nobody: Draw.player is never set"):
        LogParser(templates=load_templates(table), game=ZOMBIE_GAME)


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"Bob draws 2 cards.\nBob\x00 draws\n", 2, 4),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 2, 1),
        (b"ok\nok\nok\n\x7fELF", 4, 1),
    ],
)
def test_binary_garbage_is_a_clear_error_with_file_line_and_column(tmp_path, data, line, column):
    path = tmp_path / "not-a-log.txt"
    path.write_bytes(data)
    with pytest.raises(LogFormatError) as caught:
        parse_log_file(path, game=ZOMBIE_GAME)
    assert isinstance(caught.value, LackeyError)
    assert (
        caught.value.location.file,
        caught.value.location.line,
        caught.value.location.column,
    ) == (str(path), line, column)
    assert "not a Lackey text log" in str(caught.value)


def test_a_missing_file_is_a_log_format_error(tmp_path):
    with pytest.raises(LogFormatError, match="cannot read"):
        list(iter_log_file(Path(tmp_path / "missing.txt"), game=ZOMBIE_GAME))


def test_iter_log_file_streams_a_file(tmp_path):
    path = tmp_path / "log.txt"
    path.write_bytes(b"Bob draws 2 cards.\nBob: hi\n\x00\x00 garbage")
    stream = iter_log_file(path, game=ZOMBIE_GAME)
    assert next(stream) == ev.Draw("Bob", 2)
    assert next(stream) == ev.Chat("Bob", "hi")
    with pytest.raises(LogFormatError):
        next(stream)


def test_a_mistyped_path_is_a_file_error_never_log_text(tmp_path):
    path = tmp_path / "log.txt"
    path.write_text("Bob draws 2 cards.\n", encoding="utf-8")
    assert parse_log_file(str(path), game=ZOMBIE_GAME).events == [ev.Draw("Bob", 2)]
    with pytest.raises(LogFormatError, match="cannot read the log") as caught:
        parse_log_file(str(tmp_path / "lgo.txt"), game=ZOMBIE_GAME)
    assert caught.value.location.file == str(tmp_path / "lgo.txt")
    text = parse_log_text(str(path), game=ZOMBIE_GAME)  # text is text, even when it names a file
    assert [event.kind for event in text.events] == ["unparsed"]


def test_decoding_guesses_are_noted_by_line(tmp_path):
    path = tmp_path / "log.txt"
    path.write_bytes("Zoë: hi\n".encode() + "Zoë: café\n".encode("cp1252"))
    log = parse_log_file(path, game=ZOMBIE_GAME)
    assert [event.text for event in log.events] == ["hi", "café"]  # type: ignore[attr-defined]
    assert [(note.line, "Windows-1252" in note.message) for note in log.notes] == [(2, True)]


@pytest.mark.parametrize(
    ("head", "unit"),
    [
        ("Bob moves ", "a from his b c to his d e "),
        ("Bob moves ", "a from b's c to d's "),
        ("Bob (to ", "x (to y"),
        ("Bob performs ", "Spend on x on "),
    ],
)
def test_crafted_lines_cannot_stall_the_parser(head, unit):
    """Lines built to make a regex try every split stay unparsed (no timing: the test would
    not finish if the work were exponential)."""
    for length in (300, 1500, 2500):
        line = head + unit * (length // len(unit))
        event = parse_log_text(line, game=ZOMBIE_GAME).events[0]
        assert isinstance(event, ev.Unparsed) and event.text == line.strip()


def test_the_rules_engine_fixture_logs_parse_completely_and_round_trip():
    from lackey_plugin.log.writer import format_log

    logs = [
        path for path in sorted((ROOT / "tests" / "logs").glob("*.txt")) if path.name != "cards.txt"
    ]
    for path in logs:
        log = parse_log_file(path, game=ZOMBIE_GAME)
        assert log.unparsed == [], path.name
        assert (
            parse_log_text(format_log(log.events), players=log.players, game=ZOMBIE_GAME).events
            == log.events
        )


def test_the_parser_is_given_its_game_and_events_carry_that_games_meanings():
    """No game is wired in: labels, and what they mean, come from the definition given."""
    other = GameDefinition(
        name="other",
        player_stats=(),
        phases=("Main",),
        game_zones=(GameZone("Hand"),),
        deck_zones=(),
        counters=(),
        card_functions=(CardFunction("Tap", "MAKERIGHT90DEGREES", meaning="exhaust"),),
        general_functions=(
            GeneralFunction("Untap All", "ALLYOURCARDSMAKERIGHT0DEGREES", meaning="refresh"),
        ),
    )
    text = (
        "Ann performs Tap on Elsa.\n"
        "Ann performs Untap All on all his cards.\n"
        "Ann performs Spend on Elsa.\n"
    )
    events = parse_log_text(text, game=other).events
    assert [(e.label, e.meaning) for e in events] == [  # type: ignore[attr-defined]
        ("Tap", "exhaust"),
        ("Untap All", "refresh"),
        ("Spend", None),
    ]
    spend = parse_log_text(text, game=ZOMBIE_GAME).events[2]
    assert isinstance(spend, ev.Perform) and spend.meaning is Meaning.SPEND
