"""Decks for the simulator: deck files resolved to real cards, the starter decks by default."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import sqlite_utils

from lackey_plugin.dek import read_deck
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.game.cardtext import with_rows
from zcards.game.effects import Row
from zcards.query.decks import resolve_deck
from zcards.resources import starter_decks
from zcards.sim.game import DeckList
from zcards.store.db import open_db
from zcards.store.effect_rows import stored_rows


def load_decks(
    paths: Sequence[str | Path], db_path: Path | None = None, effects: tuple[Row, ...] = ()
) -> list[DeckList]:
    """Two deck files (the first two starter decks when none are given) as playable decks."""
    chosen = [Path(path) for path in paths] or starter_decks()[:2]
    if len(chosen) != 2:
        raise UsageError(f"a simulated game needs exactly two decks, got {len(chosen)}")
    return read_decks(chosen, db_path, effects)


def read_decks(
    paths: Sequence[Path], db_path: Path | None = None, effects: tuple[Row, ...] = ()
) -> list[DeckList]:
    """Deck files as playable decks, their cards from the default database of every command
    (else the bundled set), with the effect rows it keeps and ``effects``."""
    db = open_db(db_path)
    try:
        rows = stored_rows(db.conn) + effects
    except ValueError as error:
        raise UsageError(f"cannot read the effect rows: {error}") from error
    return [deck_list(path, db, rows) for path in paths]


def deck_list(path: Path, db: sqlite_utils.Database, rows: tuple[Row, ...] = ()) -> DeckList:
    """Resolve a deck file; unknown card names are an error naming the file and line."""
    resolved = resolve_deck(read_deck(path), db).require_ok()
    cards: list[Card] = []
    for entry in resolved.entries:
        cards.extend(with_rows([entry.card], rows) * entry.count)
    return DeckList(path.stem, tuple(cards))
