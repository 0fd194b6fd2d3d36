"""Properties: parse(write(events)) == events, and no input raises anything but LogFormatError."""

from __future__ import annotations

import dataclasses
import io

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.log_examples import EXAMPLES

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import LogFormatError, parse_log_file, parse_log_text
from lackey_plugin.log.templates import default_templates
from lackey_plugin.log.writer import LogWriter, format_log
from zcards.game.definition import ZOMBIE_GAME

PLAYERS = ["Alice Smith", "Bob", "Test Dummy", "Mini Lock1", "Zoë"]
TEMPLATES = {template.name: template for template in default_templates()}

_word = st.from_regex(r"[A-ZÉ][a-zé'\-]{0,8}[a-z0-9]?", fullmatch=True)
names = st.sampled_from(PLAYERS)
cards = st.one_of(
    st.sampled_from(sorted(ev.HIDDEN_CARDS)), st.lists(_word, min_size=1, max_size=4).map(" ".join)
)
small = st.integers(0, 999)
texts = (
    st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=40)
    .map(str.strip)
    .filter(bool)
)
positions = st.one_of(st.none(), st.sampled_from(["top", "bottom"]), small)

FIELD_VALUES = {
    "player": names,
    "target": names,
    "active": names,
    "to": names,
    "owner": names,
    "src_owner": names,
    "dst_owner": names,
    "card": cards,
    "name": cards,
    "file": texts,
    "text": texts,
    "zone": st.sampled_from(["Hand", "Deck", "Discard", "Removed", "Side Board"]),
    "label": st.sampled_from(["Spend", "Wound", "Take Control", "Ready All", "Exhaust", "Wound+"]),
    "stat": st.sampled_from(["Food", "Life Points"]),
    "seat": small,
    "count": small,
    "number": small,
    "sides": small,
    "total": small,
    "at_position": small,
    "delta": st.integers(-99, 99),
    "src_pos": positions,
    "dst_pos": positions,
    "end": st.sampled_from(["top", "bottom"]),
    "pos": st.sampled_from(["top", "bottom"]),
    "audience": st.sampled_from(["self", "owner", "everyone", "all", "others"]),
    "modifier": st.from_regex(r"[+-][0-9]{1,2}( to each)?", fullmatch=True),
    "average": st.from_regex(r"-?[0-9]{1,3}(\.[0-9]{1,2})?", fullmatch=True),
    "counts": st.one_of(
        st.none(),
        st.dictionaries(
            st.sampled_from(["Hand", "Deck", "Discard", "Side Board"]), small, min_size=1
        ),
    ),
}
PHASES = st.sampled_from(["Ready", "Draw", "Build", "Attack", "Recoup", "End", "Main Phase"])


def _values_for(example: ev.Event, field: str) -> st.SearchStrategy:
    if field in ("old", "new"):
        return PHASES if isinstance(example, ev.PhaseChange) else st.integers(-99, 99)
    if field == "results":
        if isinstance(example, ev.CoinFlip):
            return st.lists(st.sampled_from(["HEADS", "TAILS"]), min_size=1).map(tuple)
        return st.lists(small, min_size=1).map(tuple)
    if field.endswith("zone"):
        return FIELD_VALUES["zone"]
    return FIELD_VALUES[field]


@st.composite
def events(draw: st.DrawFn) -> ev.Event:
    """An example event with every field its template says replaced by a random value."""
    name, _, example = draw(
        st.sampled_from([e for e in EXAMPLES if not isinstance(e[2], ev.System)])
    )
    changes = {field: draw(_values_for(example, field)) for field in TEMPLATES[name].fields}
    stamp = draw(
        st.one_of(st.none(), st.tuples(st.integers(0, 23), st.integers(0, 59), st.integers(0, 59)))
    )
    if stamp:
        changes["timestamp"] = "{}:{:02d}:{:02d}".format(*stamp)
    return dataclasses.replace(example, **changes)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events(), max_size=30), st.sampled_from(["his", "their"]))
def test_parse_of_write_gives_the_events_back(sample, pronoun):
    text = format_log(sample, pronoun=pronoun)
    parsed = parse_log_text(text, players=PLAYERS, game=ZOMBIE_GAME)
    assert parsed.events == sample
    assert [event.timestamp for event in parsed.events] == [e.timestamp for e in sample]
    assert parsed.unparsed == []


@settings(max_examples=300)
@given(st.binary(max_size=400))
@example(b"\xc3\x85\x80")  # a raw-NEL line end chosen inside a UTF-8 sequence (found by a run)
def test_random_bytes_parse_or_raise_the_documented_error(data):
    try:
        log = parse_log_file(io.BytesIO(data), game=ZOMBIE_GAME)
    except LogFormatError as error:
        assert error.location.line >= 1 and error.location.column >= 1
    else:
        assert all(event.line >= 1 for event in log.events)


_garbage_lines = st.one_of(
    texts,
    st.binary(max_size=30).map(
        lambda data: data.decode("cp1252", errors="replace").replace("\r", " ").replace("\n", " ")
    ),
    st.builds(lambda word, rest: f"{word} {rest}", names, texts),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            events().map(lambda event: ("event", event)),
            _garbage_lines.map(lambda line: ("garbage", line)),
        ),
        max_size=25,
    ),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(["utf-8", "cp1252"]),
)
def test_mixtures_of_valid_and_invalid_lines(items, newline, encoding):
    writer = LogWriter()
    lines = [writer.line(item) if kind == "event" else item for kind, item in items]
    data = newline.join(lines).encode(encoding, errors="replace")
    try:
        log = parse_log_file(io.BytesIO(data), players=PLAYERS, game=ZOMBIE_GAME)
    except LogFormatError:
        assert any(ord(char) < 32 and char != "\t" or char == "\x7f" for char in "".join(lines))
        return
    by_line = {event.line: event for event in log.events}
    for number, (kind, item) in enumerate(items, start=1):
        if kind == "event" and encoding == "utf-8":
            assert by_line[number] == item
