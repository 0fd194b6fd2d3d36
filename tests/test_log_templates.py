"""Every log template: one example line each (``support.log_examples``), parsed and written
back with both pronouns; template tables are data."""

from __future__ import annotations

import pytest
from support.log_examples import EXAMPLES, MEANINGS, READ_ONLY, ZOMBIE, A, B

from lackey_plugin.log import events as ev
from lackey_plugin.log.matcher import Matcher
from lackey_plugin.log.parser import LogParser, parse_log_text
from lackey_plugin.log.templates import Vocabulary, default_templates, load_templates
from lackey_plugin.log.writer import LogWriter
from zcards.game.definition import Meaning


def _their(line: str) -> str:
    """The same line as a newer build words it ("their", "themselves")."""
    return line.replace(" his ", " their ").replace("himself", "themselves")


def test_every_template_has_an_example():
    names = [template.name for template in default_templates()]
    assert len(names) == len(set(names))
    assert [name for name, _, _ in EXAMPLES] == names


@pytest.mark.parametrize(
    ("name", "line", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_template_parses_and_writes_back(name, line, expected):
    matcher = Matcher(default_templates(), Vocabulary.of(ZOMBIE, [A, B]))
    event, template = matcher.event(line, MEANINGS, 1)
    assert template.name == name
    assert event == expected
    if isinstance(expected, ev.Perform | ev.PerformAll | ev.CounterChange):
        assert event.meaning is expected.meaning is not None
    assert LogWriter().line(expected) == line or name in READ_ONLY


@pytest.mark.parametrize(
    ("name", "line", "expected"), EXAMPLES, ids=[name for name, _, _ in EXAMPLES]
)
def test_their_pronoun_reads_the_same(name, line, expected):
    their = _their(line)
    if isinstance(expected, ev.System):
        expected = ev.System(expected.name, their, expected.player)
    parsed = LogParser(players=[A, B], game=ZOMBIE).parse_line(their, 1)
    assert parsed == expected
    assert LogWriter(pronoun="their").line(expected) == their or name in READ_ONLY


def test_function_labels_resolve_to_meanings_and_unknown_labels_still_parse():
    log = parse_log_text(
        f"{B} performs Wound (0 to 1) (+1) on Kyle Bjorn.\n"
        f"{B} performs Take Control on Kyle Bjorn.\n"
        f"{B} performs Exhaust on Kyle Bjorn.\n"
        f"{B} performs Poison (0 to 2) (+2) on Kyle Bjorn.\n"
        f"{B} performs Untap on all their cards.\n",
        game=ZOMBIE,
    )
    assert [getattr(event, "meaning", "x") for event in log.events] == [
        Meaning.WOUND,
        Meaning.TAKE_CONTROL,
        None,
        None,
        None,
    ]
    assert [event.label for event in log.events] == [
        "Wound",
        "Take Control",
        "Exhaust",
        "Poison",
        "Untap",
    ]
    assert log.unparsed == []


def test_hidden_cards_are_flagged():
    log = parse_log_text(
        f"{A} draws a card.\n{A} draws Old Pete.\n"
        f"{A} plays a face down card from his Hand.\n"
        f"{A} performs Spend on a face-down card.\n{A} draws 2 cards.\n",
        game=ZOMBIE,
    )
    assert [event.hidden for event in log.events] == [True, False, True, True, False]
    assert [getattr(event, "card", None) for event in log.events] == [
        "a card",
        "Old Pete",
        "a face down card",
        "a face-down card",
        None,
    ]


def test_zone_count_suffix_is_a_dict_or_none():
    log = parse_log_text(
        f"{B} plays Kyle Bjorn from his Hand. (Hand: 6, Discard: 2)\n"
        f"{B} plays Old Pete from his Hand.\n",
        game=ZOMBIE,
    )
    assert [event.counts for event in log.events] == [{"Hand": 6, "Discard": 2}, None]


def test_templates_are_data_a_corrected_wording_is_picked_up(tmp_path):
    table = tmp_path / "templates.toml"
    table.write_text(
        '[draw]\nevent = "Draw"\n[[draw.templates]]\nname = "pioche"\n'
        'line = "{player} pioche {count:int} cartes."\n',
        encoding="utf-8",
    )
    parser = LogParser(templates=load_templates(table), game=ZOMBIE)
    assert parser.parse_line("Bob pioche 2 cartes.", 1) == ev.Draw("Bob", 2)
    assert isinstance(parser.parse_line("Bob draws 2 cards.", 2), ev.Unparsed)


@pytest.mark.parametrize(
    "line",
    [
        '[x]\nevent = "Draw"\n[[x.templates]]\nname = "a"\nline = "{player} [draws"\n',
        '[x]\nevent = "Draw"\n[[x.templates]]\nname = "a"\nline = "{player} {n:nope}"\n',
        '[x]\nevent = "Draw"\n[[x.templates]]\nname = "a"\nline = "{player} {colour:int}"\n',
        '[x]\nevent = "Draw"\n[[x.templates]]\nname = "a"\nline = "{player} {count:int}"\n'
        "set = { count = 1 }\n",
    ],
)
def test_bad_template_tables_are_refused(tmp_path, line):
    table = tmp_path / "templates.toml"
    table.write_text(line, encoding="utf-8")
    with pytest.raises(ValueError, match="templates.toml|template a"):
        load_templates(table)
