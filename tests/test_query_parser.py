"""The search language's parser: syntax trees and errors with their caret positions."""

from __future__ import annotations

import pytest

from zcards.errors import UsageError
from zcards.query.parser import And, Field, Not, Or, QueryError, Regex, Text, parse_query


def test_bare_words_are_an_implicit_and() -> None:
    assert parse_query("gross ghoul") == And((Text("gross", False, 0), Text("ghoul", False, 6)))


def test_or_binds_looser_than_and_and_minus_tighter() -> None:
    tree = parse_query("a -b or c")
    assert tree == Or(
        (And((Text("a", False, 0), Not(Text("b", False, 3), 2))), Text("c", False, 8))
    )


def test_parentheses_group() -> None:
    tree = parse_query("(a or b) c")
    assert tree == And((Or((Text("a", False, 1), Text("b", False, 6))), Text("c", False, 9)))


def test_explicit_and_and_case_insensitive_keywords() -> None:
    assert parse_query("a AND b OR c") == parse_query("a and b or c")
    assert parse_query("a and b") == And((Text("a", False, 0), Text("b", False, 6)))


@pytest.mark.parametrize("op", [":", "=", "!=", "<", "<=", ">", ">="])
def test_every_operator(op: str) -> None:
    query = f"cost{op}2"
    assert parse_query(query) == Field("cost", op, "2", 0, 4, 4 + len(op))


def test_quoted_phrase_with_escaped_quote_and_backslash() -> None:
    tree = parse_query(r'"say \"brains\" now" o:"back\\slash"')
    assert tree == And(
        (Text('say "brains" now', True, 0), Field("o", ":", "back\\slash", 21, 22, 23))
    )


def test_regex_terms_keep_escapes_and_unescape_slashes() -> None:
    assert parse_query(r"/a\/b\d+/") == Regex(r"a/b\d+", 0)
    assert parse_query("name:/^gr/") == Field("name", ":", Regex("^gr", 5), 0, 4, 5)


def test_a_word_ending_in_bang_is_a_word_not_a_field() -> None:
    assert parse_query("Ouch!") == Text("Ouch!", False, 0)


def test_negated_group_and_field() -> None:
    assert parse_query("-(a b)") == Not(And((Text("a", False, 2), Text("b", False, 4))), 0)
    assert parse_query("-k:fast") == Not(Field("k", ":", "fast", 1, 2, 3), 0)


@pytest.mark.parametrize(
    ("query", "column", "reason"),
    [
        ("(t:zombie", 1, "unbalanced '('"),
        ("a (b", 3, "unbalanced '('"),
        ("t:zombie)", 9, "unbalanced ')'"),
        (")", 1, "unbalanced ')'"),
        ("a or", 3, "'or' needs a term after it"),
        ("or a", 1, "'or' needs a term before it"),
        ("a or or b", 3, "'or' needs a term after it"),
        ("a and", 3, "'and' needs a term after it"),
        ("()", 1, "empty parentheses"),
        ("- a", 1, "'-' must be followed by a term"),
        ("a -", 3, "'-' must be followed by a term"),
        ("-)", 1, "'-' must be followed by a term"),
        ('name:"gross', 6, "unterminated quoted phrase"),
        ("/gross", 1, "unterminated regular expression"),
        ("cost=<2", 5, "unknown operator '=<'"),
        ("cost>>2", 5, "unknown operator '>>'"),
        ("cost<= 2", 7, "missing value after 'cost<='"),
        ("cost<=", 7, "missing value after 'cost<='"),
        ("", 1, "empty query"),
        ("   ", 1, "empty query"),
    ],
)
def test_syntax_errors_point_at_the_column(query: str, column: int, reason: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(query)
    error = caught.value
    assert isinstance(error, UsageError) and error.exit_code == 2
    assert error.column == column
    assert error.reason.startswith(reason)
    caret_line = str(error).splitlines()[-1]
    assert caret_line.index("^") - 2 == column - 1
    assert str(error).splitlines()[-2] == f"  {query}"
