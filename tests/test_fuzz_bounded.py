"""Fuzzing queries and log text with a time budget per input.

Every input must end, within :data:`BUDGET` seconds, either with a result or with one of the
documented errors (:class:`~zcards.query.parser.QueryError` and other usage errors for
queries, :class:`~lackey_plugin.log.parser.LogFormatError` for logs): never a traceback of
another kind, never a hang. The budget is enforced with a timer signal, so a hang fails the
test instead of stalling the suite.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lackey_plugin.log.parser import LogFormatError, parse_log_text
from lackey_plugin.log.serial import event_to_json
from lackey_plugin.log.templates import MAX_NUMBER
from zcards.errors import UsageError
from zcards.game.definition import ZOMBIE_GAME
from zcards.query.search import count_matches, search_rows

BUDGET = 10.0
FUZZ = settings(
    max_examples=300,
    deadline=None,  # the budget below is the limit; hypothesis timings vary with load
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@contextmanager
def time_budget(seconds: float = BUDGET) -> Iterator[None]:
    def expired(_signal: int, _frame: object) -> None:
        raise TimeoutError(f"input took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_query_pieces = st.one_of(
    st.sampled_from(
        [
            "(",
            ")",
            "-",
            "or",
            "and",
            '"',
            "/",
            "order:",
            "order:-cost",
            "k:fast",
            "t:zombie",
            "f:",
            "cost>",
            "pow<=",
            "hp=",
            "name=",
            "o:",
            "req:",
            "sym:medic",
            "r:rare",
            "set:",
            "lore>=",
            "/[a-",
            "/(a|b)*c/",
            "*",
            "%",
            "_",
            "\\",
            "'",
            ";",
            "9" * 25,
            "-1e9",
            "٣",
            "1_000",
            "+3",
            "..",
            "=",
            "!=",
            "<>",
            ":",
        ]
    ),  # fmt: skip
    st.integers(-(10**30), 10**30).map(str),
    st.text(min_size=1, max_size=8),
)
queries = st.one_of(
    st.lists(_query_pieces, min_size=1, max_size=25).map(" ".join),
    st.lists(_query_pieces, min_size=1, max_size=25).map("".join),
    st.integers(1, 600).map(lambda depth: "(" * depth + "ghoul" + ")" * depth),
    st.integers(1, 1500).map(lambda terms: " or ".join(["k:fast"] * terms)),
)


@FUZZ
@given(queries, st.sampled_from([None, "cost", "-pow", "name", "keywords", "nope"]))
def test_any_query_ends_in_rows_or_a_usage_error(sample_db, query, sort):
    with time_budget():
        try:
            rows = list(search_rows(sample_db, query, sort=sort, limit=50))
            assert len(rows) == min(50, count_matches(sample_db, query))
        except UsageError as error:  # QueryError is one
            assert str(error)


_names = st.sampled_from(["Bob", "Alice Smith", "The Man who", "The Man who plays", "O'Brien"])
_numbers = st.one_of(
    st.integers(-MAX_NUMBER, MAX_NUMBER), st.integers(-(10**40), 10**40), st.just(10**20)
).map(str)
_lines = st.one_of(
    st.builds("{} sits down at seat {}.".format, _names, _numbers),
    st.builds("{} draws {} cards.".format, _names, _numbers),
    st.builds(
        "{0} changes {1}'s Food to {2}. (from {3} to {2}) ({4})".format,
        _names, _names, _numbers, _numbers, _numbers.map(lambda n: n if n[0] == "-" else "+" + n),
    ),
    st.builds("{} rolls 1 {}-sided die. The result: {}.".format, _names, _numbers, _numbers),
    st.builds(
        "{} moves {} from his Hand to position {} of {}'s Deck.".format,
        _names, st.text(max_size=30), _numbers, _names,
    ),
    st.builds("{}: {}".format, _names, st.text(max_size=60)),
    st.text(max_size=300),
    st.integers(1, 3000).map(lambda n: "Bob moves " + "a " * n + "from his Hand."),
)  # fmt: skip


@FUZZ
@given(st.lists(_lines, max_size=40), st.booleans())
def test_any_log_text_ends_in_events_or_the_documented_error(lines, strict):
    with time_budget():
        try:
            log = parse_log_text("\n".join(lines), strict=strict, game=ZOMBIE_GAME)
        except LogFormatError as error:
            assert error.location is not None and error.location.line >= 1
            return
        for event in log.events:
            event_to_json(event)
            for value in vars_of(event):
                if isinstance(value, int) and not isinstance(value, bool):
                    assert abs(value) <= max(MAX_NUMBER, event.line, event.seconds or 0)


def vars_of(event: object) -> list[object]:
    return [getattr(event, name) for name in getattr(type(event), "__slots__", ())]
