"""A game definition written as TOML: what ``zcards plugin init`` saves for a person to edit.

Only what the definition states is written (a flag of None stays out), so loading the file
gives the same definition back (:func:`lackey_plugin.gamefile.parse_game`). The TOML itself
is written by ``tomlkit`` (it quotes every string a game may hold), laid out for a person:
one ``[[table]]`` per zone, function or column, long lists one item a line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import Array, InlineTable, Item

from lackey_plugin.columns import Column
from lackey_plugin.game import GameDefinition, Stat
from lackey_plugin.gamefile import GameFile, ShippedFiles


def game_toml(game_file: GameFile, *, heading: str = "", folder: Path | None = None) -> str:
    """The TOML text of ``game_file`` (``heading``: comment lines put first). ``folder``: where
    the file is saved; the shipped files' ``root`` is written relative to it, so the file and
    the folder it names can move together."""
    game = game_file.game
    version = "" if game_file.plugin_version is None else game_file.plugin_version
    document: dict[str, Any] = {
        "game": _kept(
            {
                "name": game.name,
                "title": game_file.title,
                "face": game_file.face,
                "back": game_file.back,
                "layout": game_file.layout,
                "name_tag": None if game_file.name_tag else False,
                "folder": game_file.folder or None,
            }
        )
        # "" says "no <pluginversion>"; a missing key means the release date.
        | {"plugin_version": version},
        "stats": _stats(game.player_stats),
        "global_stats": _stats(game.global_stats),
        "phases": {"labels": list(game.phases)} if game.phases else None,
        "zones": [
            _kept(
                {
                    "label": zone.label,
                    "visible_to_owner": zone.visible_to_owner,
                    "visible_to_others": zone.visible_to_others,
                    "shared": zone.shared,
                }
            )
            for zone in game.game_zones
        ],
        "deck_zones": [
            _kept(
                {
                    "label": deck.label,
                    "load_to": deck.load_to,
                    "shuffle": deck.shuffle,
                    "legacy_tag": deck.legacy_tag or None,
                }
            )
            for deck in game.deck_zones
        ],
        **_game_functions(game),
        "columns": _columns(game_file.columns),
        "images": _kept(
            {"general_urls": list(game_file.image_urls), "url_files": list(game_file.url_files)}
        ),
        "release": _kept(
            {
                "chat": list(game_file.chat),
                "phase_images": game_file.phase_images or None,
                "base_url": game_file.base_url,
            }
        ),
        "files": _files(game_file.files, folder) if game_file.files is not None else None,
    }
    out = tomlkit.document()
    for line in heading.splitlines():
        out.add(tomlkit.comment(line))
    for key, value in _kept(document).items():
        if isinstance(value, list):
            tables = tomlkit.aot()
            for entry in value:
                tables.append(_table(entry, inline=True))
            out.append(key, tables)
        else:
            out.append(key, _table(value, inline=False))
    return tomlkit.dumps(out).lstrip("\n")


def _table(values: Mapping[str, Any], *, inline: bool) -> Any:
    """A table; its tables are written inline (in a ``[[table]]``), or as ``[a.b]``."""
    table = tomlkit.table()
    for key, value in values.items():
        table.append(key, _value(value) if inline or not isinstance(value, dict) else value)
    return table


def _value(value: Any) -> Item:
    """Tables inline, lists of more than four items one item a line."""
    if isinstance(value, dict):
        inline: InlineTable = tomlkit.inline_table()
        inline.update(value)
        return inline
    if isinstance(value, list):
        array: Array = tomlkit.array()
        array.extend(value)
        return array.multiline(len(value) > 4)
    return tomlkit.item(value)


def _game_functions(game: GameDefinition) -> dict[str, list[dict[str, Any]]]:
    counters = [
        _kept(
            {
                "colour": counter.colour,
                "x": counter.position_x,
                "y": counter.position_y,
                "meaning": counter.meaning,
            }
        )
        for counter in game.counters
    ]
    card_functions = []
    for function in game.card_functions:
        x, y = function.position or (None, None)
        card_functions.append(
            _kept(
                {
                    "label": function.label,
                    "kind": function.kind,
                    "meaning": function.meaning,
                    "description": function.description,
                    "colour": function.colour,
                    "button": function.button,
                    "x": x,
                    "y": y,
                }
            )
        )
    general_functions = [
        _kept(
            {
                "label": general.label,
                "kind": general.kind,
                "meaning": general.meaning,
                "description": general.description,
                "button": general.button,
                "options": dict(general.options),
            }
        )
        for general in game.general_functions
    ]
    definitions = [
        _kept({"kind": definition.kind, "value": definition.value})
        for definition in game.definitions
    ]
    return {
        "counters": counters,
        "card_functions": card_functions,
        "general_functions": general_functions,
        "definitions": definitions,
    }


def _columns(columns: Iterable[Column]) -> list[dict[str, Any]]:
    return [
        _kept(
            {
                "name": column.name,
                "type": column.type,
                "field": column.field,
                "aliases": list(column.aliases),
                "searched": column.searched or None,
            }
        )
        for column in columns
    ]


def _files(files: ShippedFiles, folder: Path | None) -> dict[str, Any]:
    root = files.root
    if folder is not None:
        root = Path(os.path.relpath(root.resolve(), folder.resolve()))
    return _kept(
        {
            "root": root.as_posix(),
            "packs": list(files.packs),
            "decks": list(files.decks),
            "formats": files.formats,
            "sounds": list(files.sounds),
            "start": files.start,
            "other": list(files.other),
            "urls": dict(files.urls),
        }
    )


def _stats(stats: Iterable[Stat]) -> list[dict[str, Any]]:
    return [
        _kept({"label": stat.label, "initial": stat.initial_value, "meaning": stat.meaning})
        for stat in stats
    ]


def _kept(values: Mapping[str, Any]) -> dict[str, Any]:
    """The entries that say something: None, "" and empty lists and tables are left out
    (Lackey's default, or the loader's, applies)."""
    return {key: value for key, value in values.items() if value not in (None, "", [], {})}
