"""lackey_plugin: LackeyCCG's file formats for any game, as a library.

Checksums, ``updatelist.txt``, ``plugininfo.txt`` (a typed game definition, rendered and
parsed), card data files of any columns, ``.dek`` decks and deck lists, pack and format files,
a whole plugin written and published atomically, the plugin linter and remote verifier, and
game logs (a parser that is given the game definition, typed events, a writer). Every reader
uses one decoding policy (:mod:`lackey_plugin.text`) and every error is a :class:`LackeyError`
naming file, line and column. Nothing here knows a particular game; see docs/lackey_plugin.md.

The names below are imported on first use, so ``import lackey_plugin`` costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lackey_plugin.lazy import lazy_getattr

__all__ = [
    "CardDataFile",
    "CardDataReader",
    "CardDataRow",
    "CardFields",
    "CardFunction",
    "CardSet",
    "Column",
    "Comparison",
    "Counter",
    "Deck",
    "DeckEntry",
    "DeckZone",
    "Definition",
    "Format",
    "GameFile",
    "GameDefinition",
    "GameZone",
    "GeneralFunction",
    "LackeyError",
    "LintFinding",
    "Location",
    "LogFormatError",
    "LogWriter",
    "Pack",
    "PackChance",
    "PackKind",
    "ParsedLog",
    "PluginContent",
    "PluginDeck",
    "PluginInfo",
    "Publication",
    "ShippedFiles",
    "SavedGame",
    "Stat",
    "UpdateEntry",
    "UpdateList",
    "checksum_bytes",
    "checksum_file",
    "compare_plugins",
    "decode_text",
    "event_from_dict",
    "event_to_dict",
    "format_log",
    "format_text_deck",
    "game_toml",
    "init_game",
    "iter_log_file",
    "iter_log_text",
    "lint_plugin",
    "load_game",
    "parse_dek",
    "parse_game",
    "parse_log_file",
    "parse_log_text",
    "parse_plugininfo",
    "parse_text_deck",
    "parse_updatelist",
    "publish_plugin",
    "read_card_data",
    "read_deck",
    "read_saved_game",
    "read_updatelist",
    "render_card_files",
    "render_chat",
    "render_plugininfo",
    "render_uninstall",
    "render_updatelist",
    "verify_plugin",
    "write_dek",
    "write_log",
    "write_plugin",
    "write_saved_game",
]

__getattr__ = lazy_getattr(__name__)


if TYPE_CHECKING:
    from lackey_plugin.carddata import (
        CardDataFile,
        CardDataReader,
        CardDataRow,
        read_card_data,
        render_card_files,
    )
    from lackey_plugin.checksum import checksum_bytes, checksum_file
    from lackey_plugin.columns import CardFields, Column
    from lackey_plugin.compare import Comparison, compare_plugins
    from lackey_plugin.dek import (
        Deck,
        DeckEntry,
        format_text_deck,
        parse_dek,
        parse_text_deck,
        read_deck,
        write_dek,
    )
    from lackey_plugin.errors import LackeyError, Location
    from lackey_plugin.export import (
        CardSet,
        PluginContent,
        PluginDeck,
        Publication,
        publish_plugin,
        write_plugin,
    )
    from lackey_plugin.game import (
        CardFunction,
        Counter,
        DeckZone,
        Definition,
        GameDefinition,
        GameZone,
        GeneralFunction,
        Stat,
    )
    from lackey_plugin.gamefile import GameFile, ShippedFiles, load_game, parse_game
    from lackey_plugin.gamefile_init import init_game
    from lackey_plugin.gamefile_toml import game_toml
    from lackey_plugin.lint import LintFinding, lint_plugin
    from lackey_plugin.log.parser import (
        LogFormatError,
        ParsedLog,
        iter_log_file,
        iter_log_text,
        parse_log_file,
        parse_log_text,
    )
    from lackey_plugin.log.serial import event_from_dict, event_to_dict
    from lackey_plugin.log.writer import LogWriter, format_log, write_log
    from lackey_plugin.packs import Format, Pack, PackChance, PackKind
    from lackey_plugin.plugininfo import PluginInfo, parse_plugininfo, render_plugininfo
    from lackey_plugin.release import render_chat
    from lackey_plugin.saved import SavedGame, read_saved_game, write_saved_game
    from lackey_plugin.text import decode_text
    from lackey_plugin.uninstall import render_uninstall
    from lackey_plugin.updatelist import (
        UpdateEntry,
        UpdateList,
        parse_updatelist,
        read_updatelist,
        render_updatelist,
    )
    from lackey_plugin.verify import verify_plugin
