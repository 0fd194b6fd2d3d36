"""A Datasette ``metadata.json`` for a card database: what each column means, which tables
are zcards' own bookkeeping (hidden), the facets to start from and canned queries.

The columns are the game's: a database holding another game (a stored definition) describes
and facets that game's own columns (Lorcana's Color, Inkwell, Strength…), not Zombie CCG's.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from lackey_plugin.gamefile import GameFile
from zcards.store.game_columns import sql_name, stored_game

# Built-in card fields as Datasette shows them.
FIELD_DESCRIPTIONS = {
    "name": "The card's name, as printed",
    "set_name": "The set (expansion) the card belongs to",
    "image_file": "Lackey's ImageFile: the card image's file name, without .jpg",
    "type": "Card type",
    "faction": "Faction (Zombie CCG)",
    "cost": "Cost to play",
    "power": "Power (Zombie CCG)",
    "health": "Health (Zombie CCG)",
    "keywords": "Keywords, a JSON list",
    "requirements": "Requirements, a JSON object of keyword -> count",
    "symbols": "Symbols, a JSON list",
    "rarity": "Rarity",
    "text": "Rules text",
    "extra": "The source's other columns, exactly as written (JSON)",
    "image_url": "Where the card's image is downloaded from",
    "source_id": "The source (sources.id) the card was imported from",
}
ZOMBIE_FACETS = ("set_name", "type", "faction", "rarity")
# Tables of zcards' own bookkeeping: kept out of Datasette's table list.
HIDDEN_TABLES = (
    "import_runs", "changes", "game", "game_folder", "source_newlines", "cards_fts",
    "cards_fts_config", "cards_fts_data", "cards_fts_docsize", "cards_fts_idx",
)  # fmt: skip
CARDS_BY_SET = "select set_name, count(*) as cards from cards group by set_name order by set_name"
# A deck list pasted as it is: one "COUNT<TAB>Name", "COUNT Name" or "Name" a line.
CARDS_IN_DECK = """select c.* from cards c
where instr(char(10) || replace(replace(:deck, char(13), ''), char(9), char(10)) || char(10),
            char(10) || c.name || char(10))
   or instr(char(10) || replace(:deck, char(13), '') || char(10), ' ' || c.name || char(10))
order by c.name"""


def datasette_metadata(conn: sqlite3.Connection, database: str) -> dict[str, Any]:
    """The metadata of the card database ``database`` (its name in Datasette: the file's
    stem) that ``conn`` reads."""
    game = stored_game(conn)
    existing = {row[1] for row in conn.execute('pragma table_xinfo("cards")')}
    tables = {row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")}
    columns = {name: text for name, text in FIELD_DESCRIPTIONS.items() if name in existing}
    facets = list(ZOMBIE_FACETS)
    title = "Zombie CCG cards"
    if game is not None:
        columns |= _game_columns(game, existing)
        facets = [
            "set_name",
            *(sql_name(c) for c in game.columns if c.searched and c.field is None),
        ]
        facets += [c.field for c in game.columns if c.field in ("type", "rarity")]
        title = f"{game.title} cards"
    cards: dict[str, Any] = {
        "description": f"{title}: one row per card; further printings in card_variants",
        "columns": columns,
        "facets": list(dict.fromkeys(facets)),
        "sort": "name",
        "label_column": "name",
    }
    return {
        "title": title,
        "databases": {
            database: {
                "tables": {
                    "cards": cards,
                    **{table: {"hidden": True} for table in HIDDEN_TABLES if table in tables},
                },
                "queries": {
                    "cards_by_set": {"title": "Cards by set", "sql": CARDS_BY_SET},
                    "cards_in_deck": {
                        "title": "Cards in a deck list",
                        "description": "Paste a deck list: one 'COUNT<TAB>Name', 'COUNT Name' "
                        "or 'Name' a line",
                        "sql": CARDS_IN_DECK,
                    },
                },
            }
        },
    }


def _game_columns(game: GameFile, existing: set[str]) -> dict[str, str]:
    used = {column.field for column in game.columns}
    described = {
        field: f"not a column of {game.title} (always empty)"
        for field in ("faction", "power", "health", "keywords", "requirements", "symbols")
        if field not in used
    }
    for column in game.columns:
        if column.field is None and sql_name(column) in existing:
            described[sql_name(column)] = f"{game.title}'s {column.name} ({column.type})"
        elif column.field is not None:
            described[column.field] = f"{game.title}'s {column.name}"
    return described
