"""The game of an imported plugin, kept with its cards.

Importing a plugin folder or a published updatelist stores the plugin's game definition (as
``zcards plugin init`` would write it) in the database, so ``plugin export`` with no flag
writes that game's plugin, never a Zombie CCG plugin of another game's cards. A database that
already holds a game, or Zombie CCG's cards, keeps it (the import says so), and ``--game``
overrides both; Zombie CCG's own plugin keeps the built-in game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lackey_plugin.fetch import is_url
from lackey_plugin.gamefile import GameFile
from lackey_plugin.gamefile_toml import game_toml
from zcards.game.definition import ZOMBIE_GAME
from zcards.game.gamefile import init_game, parse_game
from zcards.store.game_columns import stored_game
from zcards.store.open import connect_readonly


def keeps_game(db_path: Path) -> bool:
    """Whether an import into ``db_path`` keeps a plugin's game: a new or empty database,
    not one holding a game already or Zombie CCG's cards."""
    if not db_path.exists():
        return True
    conn = connect_readonly(db_path)
    try:
        empty = conn.execute("select not exists (select 1 from cards)").fetchone()[0]
        return bool(empty) and stored_game(conn) is None
    finally:
        conn.close()


def plugin_game(location: str, fetch: Callable[[str], bytes]) -> GameFile | None:
    """The game definition of the plugin at ``location`` (a folder or an updatelist URL),
    its text as init writes it and its paths relative to the folder; None for Zombie CCG."""
    url = is_url(location)
    game = init_game(location, fetch if url else None)
    if game.game.name == ZOMBIE_GAME.name:
        return None
    folder = None if url else Path(location)
    heading = f"Game definition of {game.title}, kept by 'zcards import {location}'."
    text = game_toml(game, heading=heading, folder=folder)
    return parse_game(text, location, folder)
