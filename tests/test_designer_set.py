"""Another designer's set (tests/logs/designer/grave.txt: keywords restated in his words or
in the rulebook's, flavour full of game words, a literal \\n, typographic quotes, items): a
legal game audits legal and a game with plain violations reports each at its line; his own
effect rows (grave-effects.toml) change what the audit and the simulator do, from a file or
kept in the database by the import; ``rules coverage`` and ``rules suggest`` on his cards.

The logs were written from docs/rules.md and docs/log-protocol.md: legal.txt is two players'
first three turns (a Scavenger roll, CB Radio's extra draw in its controller's own Draw
phase, Scrap Dealer's food); violations.txt is the same game with Bob's third draw (line 40),
Alice's third draw in Bob's turn (43: CB Radio gives it only in her own Draw phase) and Brute
turned up without the Fast zombie it requires (48)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zcards.cards.normalise import read_card_file
from zcards.cli import main
from zcards.game.cardtext import with_rows
from zcards.game.effects import load_rows
from zcards.rules.load import audit_log
from zcards.sim.game import DeckList, play_game

SET = Path(__file__).parent / "logs" / "designer"
CARDS = SET / "grave.txt"
EFFECTS = SET / "grave-effects.toml"


def findings(log: str, *, effects: bool) -> tuple[list[tuple[int | None, str]], list[str]]:
    cards = read_card_file(CARDS)
    if effects:
        cards = with_rows(cards, load_rows(EFFECTS))
    report = audit_log(SET / log, cards)
    return [(v.line, v.rule) for v in report.violations], [u.message for u in report.unverifiable]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    return code, capsys.readouterr().out


@pytest.mark.parametrize("effects", [False, True])
def test_a_legal_game_with_his_cards_is_legal(effects: bool) -> None:
    violations, _ = findings("legal.txt", effects=effects)
    assert violations == []


@pytest.mark.parametrize("effects", [False, True])
def test_plain_violations_with_his_cards_are_reported_at_their_lines(effects: bool) -> None:
    violations, _ = findings("violations.txt", effects=effects)
    assert violations == [(40, "R5.1"), (43, "R5.1"), (48, "R8.1")]


def test_his_effect_rows_read_what_the_grammar_cannot() -> None:
    """Without his rows, Scrap Dealer's food is unverifiable, naming the card and its
    sentence; with them it is a legal use of the card."""
    _, doubts = findings("legal.txt", effects=False)
    assert doubts and all(
        'Scrap Dealer ("Once per turn, during your Recoup phase, you may spend Scrap Dealer to '
        'add 1 food.")' in doubt
        for doubt in doubts
    )
    assert findings("legal.txt", effects=True)[1] == []


def test_his_effect_rows_change_what_the_simulator_does() -> None:
    """With his rows the players use Scrap Dealer's ability; without them they cannot, and
    the report says so."""
    plain = read_card_file(CARDS)
    used = {}
    for label, cards in (("plain", plain), ("rows", with_rows(plain, load_rows(EFFECTS)))):
        decks = [DeckList(name, tuple(c for c in cards for _ in range(3))) for name in "ab"]
        results = [play_game(decks, seed) for seed in range(10)]
        used[label] = sum(dict(f.used).get("Scrap Dealer", 0) for r in results for f in r.cards)
    assert used["plain"] == 0 < used["rows"]


def test_import_keeps_his_rows_for_later_commands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "grave.db"
    assert run(capsys, "import", str(CARDS), "--db", str(db), "--effects", str(EFFECTS))[0] == 0
    code, out = run(capsys, "audit", str(SET / "legal.txt"), "--db", str(db), "--format", "json")
    assert code == 0 and json.loads(out)["unverifiable"] == []
    code, out = run(capsys, "rules", "coverage", "--db", str(db), "--format", "json")
    assert [card["name"] for card in json.loads(out)["uncovered"]] == ["Kevlar Vest"]


def test_import_keeps_a_literal_line_break_as_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Rosie Tran's text has a literal \\n: a line break in the database, written back as
    \\n by the plugin export."""
    db = tmp_path / "grave.db"
    run(capsys, "import", str(CARDS), "--db", str(db))
    code, out = run(capsys, "card", "Rosie Tran", "--db", str(db), "--format", "json")
    assert code == 0 and "add 1 food.\n(To attract" in json.loads(out)["text"]
    assert run(capsys, "plugin", "export", "--db", str(db), "--out", str(tmp_path / "p"))[0] == 0
    exported = next((tmp_path / "p").rglob("grave.txt")).read_text(encoding="utf-8")
    assert "add 1 food.\\n(To attract" in exported


def test_coverage_lists_each_sentence_no_row_reads_in_full(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A row that reads a part of a sentence leaves it unread: its condition would be lost."""
    cards = tmp_path / "cards.txt"
    header = CARDS.read_text(encoding="utf-8").splitlines()[0]
    cards.write_text(
        header
        + "\nOdd Zed\tx\todd\tSurvivor\t\t1\t1\t1\t\t\t\tC\tIf you won the bid, Recoup - Spend "
        "Odd Zed: look at the top card of your deck. He is odd.\n",
        encoding="utf-8",
    )
    code, out = run(capsys, "rules", "coverage", "--cards", str(cards), "--format", "json")
    assert code == 1
    [odd] = json.loads(out)["uncovered"]
    sentence = "If you won the bid, Recoup - Spend Odd Zed: look at the top card of your deck."
    assert odd["unread"] == odd["partly_read"] == [sentence]
    assert (
        f"Odd Zed: partly read: {sentence}"
        in run(capsys, "rules", "coverage", "--cards", str(cards))[1]
    )


def test_suggest_proposes_rows_that_read_his_sentence_in_full(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = run(capsys, "rules", "suggest", "--cards", str(CARDS))
    assert code == 0 and '# check: the rows leave out "Once per turn"' in out
    proposed = tmp_path / "proposed.toml"
    proposed.write_text(out, encoding="utf-8")
    code, out = run(capsys, "rules", "coverage", "--cards", str(CARDS), "--effects", str(proposed))
    assert "Scrap Dealer" not in out


def test_a_bad_effects_file_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[row]]\nclause = "x"\ntiming = "static"\neffect = "powr"\n', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        main(["rules", "coverage", "--cards", str(CARDS), "--effects", str(bad)])
    assert exit_.value.code == 2
    assert "effect 'powr'" in capsys.readouterr().err
