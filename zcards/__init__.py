"""zcards: the Zombie CCG toolkit (card database, Lackey plugin, proxies, queries, audits).

The command line is a thin layer over these functions; docs/api.md shows each in a few lines.
Lackey's formats themselves (card data, updatelist, plugininfo, .dek, logs, checksums) are the
:mod:`lackey_plugin` library's, which zcards uses with the Zombie CCG game definition
(:data:`ZOMBIE_GAME`). Every error either raises is a :class:`lackey_plugin.LackeyError`
(:class:`ZcardsError` for zcards' own), naming file, line and column where it can.

The names below are imported on first use, so ``import zcards`` costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lackey_plugin.lazy import lazy_getattr
from zcards.version import __version__ as __version__

__all__ = [
    "BUNDLED_SET",
    "PHASES",
    "ZOMBIE_GAME",
    "AuditReport",
    "Card",
    "CardLookup",
    "ExportReport",
    "Finding",
    "ImportReport",
    "Meaning",
    "ProblemsFound",
    "UsageError",
    "ZcardsError",
    "audit",
    "audit_log",
    "card_data_columns",
    "convert_deck",
    "count_matches",
    "database_stats",
    "deck_entries",
    "export_plugin",
    "import_sources",
    "open_db",
    "parse_card_data",
    "read_card_file",
    "resolve_deck",
    "search",
    "search_rows",
    "starter_decks",
    "undo_run",
    "write_proxies",
]

__getattr__ = lazy_getattr(__name__)

if TYPE_CHECKING:
    from zcards.cards.model import Card, card_data_columns
    from zcards.cards.normalise import parse_card_data, read_card_file
    from zcards.errors import ProblemsFound, UsageError, ZcardsError
    from zcards.game.definition import PHASES, ZOMBIE_GAME, Meaning
    from zcards.ingest.importer import import_sources
    from zcards.ingest.report import ImportReport
    from zcards.publish.plugin_export import ExportReport, export_plugin
    from zcards.publish.proxies import write_proxies
    from zcards.query.decks import convert_deck, deck_entries, resolve_deck
    from zcards.query.lookup import CardLookup
    from zcards.query.search import count_matches, search, search_rows
    from zcards.query.stats import database_stats
    from zcards.resources import BUNDLED_SET, starter_decks
    from zcards.rules.engine import audit
    from zcards.rules.load import audit_log
    from zcards.rules.report import AuditReport, Finding
    from zcards.store.changes import undo_run
    from zcards.store.db import open_db
