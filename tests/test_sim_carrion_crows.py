"""A simulated game with one Scavenger roll planted where Carrion Crows forbids it (face up in a
zombie player's combat zone, R16.1) is a violation at the roll; the simulator itself never rolls
there, so the game without the planted lines is clean."""

from __future__ import annotations

import random
from pathlib import Path

from support.faults.recoup import scavenge_under_ban
from support.faults.splice import Book

from lackey_plugin.log.parser import parse_log_text
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.resources import starter_decks
from zcards.rules.engine import audit
from zcards.sim.batch import iter_games
from zcards.sim.decklists import load_decks
from zcards.sim.recorder import RecordedLog, record
from zcards.sim.styles import resolve_style

GAMES = 24


def _crows_deck(folder: Path) -> Path:
    """The Contagion-Weird starter with its Lab Escapees turned into Carrion Crows."""
    source = next(p for p in starter_decks() if p.name.startswith("contagion-weird"))
    deck = folder / "crows.txt"
    deck.write_text(source.read_text("utf-8").replace("Lab Escapee", "Carrion Crows"), "utf-8")
    return deck


def test_a_scavenger_roll_planted_under_carrion_crows_is_a_violation(tmp_path, bundled_cards):
    rage = next(p for p in starter_decks() if p.name.startswith("rage"))
    decks = load_decks([_crows_deck(tmp_path), rage])
    cards = CardIndex(bundled_cards)
    by_name = {card.name: card for card in bundled_cards}
    planted = 0
    for number, result in enumerate(iter_games(decks, GAMES, seed=7)):
        pov = result.players[number % 2]
        log = record(result, pov, resolve_style("protocol", result.seed))
        mutation = scavenge_under_ban(log.events, random.Random(number), Book(by_name))
        if mutation is None:
            continue
        text = RecordedLog(mutation.events, (), log.pronoun).text()
        report = audit(parse_log_text(text, game=ZOMBIE_GAME).events, cards, pov=pov)
        found = [(v.kind, v.rule, v.line) for v in report.violations]
        assert ("ability-use", "R16.1", mutation.line) in found, (mutation.note, report.to_text())
        clean = audit(parse_log_text(log.text(), game=ZOMBIE_GAME).events, cards, pov=pov)
        assert clean.violations == [], clean.to_text()
        planted += 1
    assert planted >= 3  # the seed gives seven games with such a Recoup
