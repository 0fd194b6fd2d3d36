"""Lackey saved games both ways: the reference plugins' saved games read and written back are
the same bytes; the audit's table written at a line reads back as the same table; an audit of
the rest of the log from that save finds what the audit of the whole log finds there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lackey_plugin.errors import LackeyError
from lackey_plugin.saved import read_saved_game, write_saved_game
from zcards.cards.normalise import read_card_file
from zcards.cli import main
from zcards.rules.load import audit_log
from zcards.rules.saved_table import DRAWN, STAND_IN, save_of_table, table_of_save
from zcards.rules.states import first_table, taken_at

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "logs"
CARDS = LOGS / "cards.txt"
# The hand-written log of an illegal attacker (R10.1, line 71, turn 3); line 55 ends turn 2.
ATTACKER = LOGS / "illegal-attacker.txt"
CUT = 55


def test_the_reference_saved_games_round_trip(reference_dir: Path) -> None:
    saves = sorted(reference_dir.glob("*/saved/*.txt"))
    assert len(saves) >= 5
    for path in saves:
        text = path.read_bytes().decode("utf-8")
        game = read_saved_game(text)
        assert write_saved_game(game) == text, path
        assert game.players, path


def test_what_a_saved_game_holds(reference_dir: Path) -> None:
    game = read_saved_game(
        (reference_dir / "lackey-example" / "saved" / "AutoSave1.txt").read_text()
    )
    assert game.number("phase") == 1
    assert [(p.name, p.seat) for p in game.players] == [("Trev", 0), ("Test Dummy", 1)]
    hand = game.players[1].zone(0)
    assert hand is not None and hand.visible_to == ["Test Dummy"]
    assert [c.id for c in hand.cards] == [3]
    assert game.table is not None and game.table[3].get("ishovering") == "1"
    vtes = read_saved_game((reference_dir / "vtes" / "saved" / "start.txt").read_text())
    assert vtes.number("numseats") == 5 and vtes.players[2].stats == {"Pool": "0"}
    tribbles = read_saved_game((reference_dir / "tribbles" / "saved" / "start.txt").read_text())
    assert [e.tag for e in tribbles.tail] == ["shared"]


@pytest.mark.parametrize(
    "text", ["<save><player></save>", "<game></game>", "<save><table><card><id>x</id></card>"]
)
def test_a_broken_saved_game_is_an_error(text: str) -> None:
    with pytest.raises(LackeyError):
        read_saved_game(text + "</table></save>" if "table" in text else text)


def test_the_table_at_a_line_reads_back_as_the_same_table() -> None:
    cards = read_card_file(CARDS)
    table, _ = taken_at(ATTACKER, cards, CUT, first_table)
    text = write_saved_game(save_of_table(table, cards))
    again = table_of_save(read_saved_game(text), cards)
    assert write_saved_game(save_of_table(again, cards)) == text
    bob = again.players["Bob"]
    assert bob.food == table.players["Bob"].food
    assert [(s.name, s.wounds) for s in bob.survivors] == [
        (s.name, s.wounds) for s in table.players["Bob"].survivors
    ]
    assert bob.zombies.board == table.players["Bob"].zombies.board
    assert STAND_IN in text  # the hands the log does not show


def test_deck_lists_fill_the_hidden_cards(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    deck = tmp_path / "bob.txt"
    deck.write_text("20\tWalker\n20\tScout\n", encoding="utf-8")
    main(
        ["log", "state", str(ATTACKER), "--cards", str(CARDS), "--at", str(CUT)]
        + ["--format", "lackey", "--deck", f"Bob={deck}"]
    )
    text = capsys.readouterr().out
    bob = next(p for p in read_saved_game(text).players if p.name == "Bob")
    notes = {card.get("note") for zone in bob.zones for card in zone.cards}
    assert DRAWN in notes
    deck_zone = bob.zone(1)
    table, _ = taken_at(ATTACKER, read_card_file(CARDS), CUT, first_table, decks={"Bob": 40})
    assert deck_zone is not None and len(deck_zone.cards) == table.players["Bob"].deck


def test_an_audit_from_the_save_finds_what_the_whole_log_finds(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    saved = tmp_path / "saved" / "dispute.txt"
    main(
        ["log", "state", str(ATTACKER), "--cards", str(CARDS), "--at", str(CUT)]
        + ["--format", "lackey", "--out", str(saved)]
    )
    lines = ATTACKER.read_text(encoding="utf-8").splitlines()
    rest = tmp_path / "rest.txt"
    rest.write_text("\n".join(lines[CUT:]) + "\n", encoding="utf-8")
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(
            ["audit", str(rest), "--cards", str(CARDS), "--from-save", str(saved)]
            + ["--format", "json"]
        )
    from_save = json.loads(capsys.readouterr().out)
    whole = audit_log(ATTACKER, read_card_file(CARDS))
    after = [f for f in whole.violations if (f.line or 0) > CUT]
    assert [(f["kind"], f["line"] + CUT, f["message"]) for f in from_save["violations"]] == [
        (f.kind, f.line, f.message) for f in after
    ]
    assert after and from_save["unverifiable"] == []
    # without the save the same lines only raise doubts (R17.9)
    alone = audit_log(rest, read_card_file(CARDS))
    assert alone.violations == [] and alone.unverifiable
