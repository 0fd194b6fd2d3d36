"""What a newcomer types: a near miss is answered with the nearest name, a query needs no
quotes, and ``deck check`` says its verdict first."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from zcards.cli import cli
from zcards.resources import starter_decks


@pytest.fixture(autouse=True)
def _sample_db(sample_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ZCARDS_DB", str(sample_db_path))


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["serch", "k:fast"], "No such command 'serch'. Did you mean 'search'?"),
        (["plugin", "lnt"], "No such command 'lnt'. Did you mean 'lint'?"),
        (["deck", "chek", "x"], "No such command 'chek'. Did you mean 'check'?"),
        (["search", "--limt", "3", "k:fast"], "No such option '--limt'. Did you mean '--limit'?"),
        (["search", "k:fast", "--lmit", "3"], "No such option '--lmit'. Did you mean '--limit'?"),
        (["stats", "--fromat", "json"], "No such option '--fromat'. Did you mean '--format'?"),
        (["audit", "--shwo", "all", "x"], "No such option '--shwo'. Did you mean '--show'?"),
    ],
)
def test_a_near_miss_names_the_nearest_command_or_option(args: list[str], error: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert f"Error: {error}" in result.output


def test_an_unquoted_query_of_several_words_is_one_query() -> None:
    quoted = invoke("search", "t:zombie pow>=2 -k:fast", "--format", "csv")
    assert quoted.exit_code == 0 and quoted.output.count("\n") > 1
    assert invoke("search", "t:zombie", "pow>=2", "-k:fast", "--format", "csv").output == (
        quoted.output
    )
    assert invoke("stats", "t:zombie", "pow>=2").output == invoke("stats", "t:zombie pow>=2").output


def test_deck_check_says_its_verdict_first_and_shows_statistics_on_demand(
    tmp_path: Path,
) -> None:
    good = starter_decks()[0]
    result = invoke("deck", "check", str(good))
    assert result.exit_code == 0
    assert result.output.startswith("legal: 40 cards (")
    assert result.output.count("\n") == 1
    with_stats = invoke("deck", "check", str(good), "--stats")
    assert with_stats.output.startswith(result.output) and "cost" in with_stats.output
    bad = tmp_path / "bad.txt"
    bad.write_text("3 Gross Ghoul\n2 Shamblr\n1 Nobody At All\n")
    failed = invoke("deck", "check", str(bad))
    assert failed.exit_code == 1
    assert failed.output.startswith("2 problems: 3 cards known (Deck: 3)\n")
    assert "line 2: unknown card 'Shamblr'; did you mean: Shambler" in failed.output
