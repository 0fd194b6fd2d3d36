"""Queries that used to end in a traceback are caret errors (exit 2) with documented limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from zcards.cli import main
from zcards.query.compiler import MAX_QUERY_NUMBER, compile_query
from zcards.query.parser import MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS, QueryError

HUGE = "9" * 20  # above 2**63 - 1: SQLite cannot bind it (OverflowError before)


@pytest.mark.parametrize(
    ("query", "message", "column"),
    [
        (f"cost>{HUGE}", "out of range", 6),
        (f"t:zombie pow=-{HUGE}", "out of range", 14),
        ("(" * 400 + "ghoul" + ")" * 400, f"nested too deeply: at most {MAX_DEPTH}", MAX_DEPTH + 1),
        ("ghoul " + "-" * 50 + "ghoul", f"nested too deeply: at most {MAX_DEPTH}", MAX_DEPTH + 7),
        (" or ".join(["k:fast"] * 1100), f"query too long: at most {MAX_QUERY_LENGTH}", 4001),
        (" or ".join(["k:x"] * 300), f"too many terms: at most {MAX_TERMS}", 1 + 7 * MAX_TERMS),
        ("cost=1_000", "needs a whole number", 6),
    ],
)
def test_oversized_queries_are_caret_errors_with_exit_2(
    sample_db_path: Path, capsys, query, message, column
):
    with pytest.raises(SystemExit) as exited:
        main(["search", query, "--db", str(sample_db_path)])
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert message in err and f"column {column}" in err and "Traceback" not in err
    caret_line = err.splitlines()[-1]
    assert set(caret_line.strip()) == {"^"} and len(caret_line) < 200  # long queries elided


def test_numbers_at_the_limit_and_the_deepest_nesting_still_work(sample_db_path: Path, capsys):
    nested = "(" * (MAX_DEPTH - 1) + "t:zombie" + ")" * (MAX_DEPTH - 1)
    wide = " or ".join([f"cost={n}" for n in range(MAX_TERMS - 1)] + [f"pow<={MAX_QUERY_NUMBER}"])
    for query in (f"cost<={MAX_QUERY_NUMBER} cost>=-{MAX_QUERY_NUMBER}", nested, wide):
        main(["search", query, "--db", str(sample_db_path), "--count"])
        assert int(capsys.readouterr().out) > 0


def test_other_games_numbers_have_the_same_range():
    with pytest.raises(QueryError, match="out of range") as caught:
        compile_query(f"lore>={HUGE}.5", extra_columns=["Lore"])
    assert caught.value.column == 7
    where, params = compile_query(f"lore>={MAX_QUERY_NUMBER}", extra_columns=["Lore"])
    assert float(MAX_QUERY_NUMBER) in params
