"""Decks for the simulator: deck files resolved to real cards, the starter decks by default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import sqlite_utils

from zcards.db import ensure_schema, open_db
from zcards.decks import read_deck, resolve_deck
from zcards.errors import UsageError
from zcards.model import Card
from zcards.normalise import read_card_file
from zcards.resources import BUNDLED_SET, starter_decks
from zcards.sim.game import DeckList


def bundled_db() -> sqlite_utils.Database:
    """An in-memory card database of the bundled set, so simulating needs no built database."""
    db = sqlite_utils.Database(memory=True)
    ensure_schema(db)
    db.table("cards").insert_all(card.to_row() for card in read_card_file(BUNDLED_SET))
    return db


def load_decks(paths: Sequence[str | Path], db_path: Path | None = None) -> list[DeckList]:
    """Two deck files (the first two starter decks when none are given) as playable decks."""
    chosen = [Path(path) for path in paths] or starter_decks()[:2]
    if len(chosen) != 2:
        raise UsageError(f"a simulated game needs exactly two decks, got {len(chosen)}")
    db = open_db(db_path) if db_path is not None else bundled_db()
    return [deck_list(path, db) for path in chosen]


def deck_list(path: Path, db: sqlite_utils.Database) -> DeckList:
    """Resolve a deck file; unknown card names are an error naming the file and line."""
    resolved = resolve_deck(read_deck(path), db).require_ok()
    cards: list[Card] = []
    for entry in resolved.entries:
        cards.extend([entry.card] * entry.count)
    return DeckList(path.stem, tuple(cards))
