"""Game definition files as zcards reads them: any Lackey game's definition
(:mod:`lackey_plugin.gamefile`), its columns stored in zcards' built-in card fields.

The Zombie game is one such file, ``zcards/game/zombie.toml``, the default of every command.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lackey_plugin import gamefile, gamefile_init
from lackey_plugin.columns import CardFields
from lackey_plugin.gamefile import GameFile
from zcards.cards.model import CARD_FIELDS as MODEL_FIELDS

ZOMBIE_FILE = Path(__file__).with_name("zombie.toml")
# A header naming a built-in field is stored in it, as text, or as a number when every value
# is one ("Cost" of a Lorcana card is the cost; its "Strength" keeps a column of its own).
CARD_FIELDS = CardFields(
    tuple(name for name in MODEL_FIELDS if name != "extra"),
    {"name": "name", "set": "set_name", "imagefile": "image_file"}
    | {"type": "type", "rarity": "rarity", "text": "text"},
    {"cost": "cost", "power": "power", "health": "health"},
)


def load_game(path: str | Path) -> GameFile:
    """Read and check a game definition file (mistakes name file, line and column)."""
    return gamefile.load_game(path, CARD_FIELDS)


def parse_game(text: str, origin: str = "<game>", root: Path | None = None) -> GameFile:
    """A game definition from TOML text; relative paths are relative to ``root``."""
    return gamefile.parse_game(text, origin, root, CARD_FIELDS)


def init_game(source: str, fetch: Callable[[str], bytes] | None = None) -> GameFile:
    """The game definition of the plugin folder or updatelist URL at ``source``."""
    return gamefile_init.init_game(source, fetch, CARD_FIELDS)


def zombie_game_file() -> GameFile:
    """The shipped Zombie CCG game definition."""
    return load_game(ZOMBIE_FILE)
