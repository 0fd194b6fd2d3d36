"""A game definition written as TOML: what ``zcards plugin init`` saves for a person to edit.

Only what the definition states is written (a flag of None stays out), so loading the file
gives the same definition back (:func:`zcards.game.gamefile.parse_game`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from lackey_plugin.game import GameDefinition, Stat
from zcards.game.gamefile import Column, GameFile, ShippedFiles


def game_toml(game_file: GameFile, *, heading: str = "") -> str:
    """The TOML text of ``game_file`` (``heading``: comment lines put first)."""
    game = game_file.game
    version = "" if game_file.plugin_version is None else game_file.plugin_version
    out: list[str] = [f"# {line}" if line else "#" for line in heading.splitlines()]
    out += ["", "[game]"]
    out += _pairs(
        {
            "name": game.name,
            "title": game_file.title,
            "face": game_file.face,
            "back": game_file.back,
            "layout": game_file.layout,
            # "" says "no <pluginversion>"; a missing key means the release date.
            "plugin_version": version,
            "name_tag": None if game_file.name_tag else False,
            "folder": game_file.folder or None,
        }
    )
    out += _stats("stats", game.player_stats) + _stats("global_stats", game.global_stats)
    if game.phases:
        out += ["", "[phases]", f"labels = {_value(list(game.phases))}"]
    for zone in game.game_zones:
        out += _array(
            "zones",
            {
                "label": zone.label,
                "visible_to_owner": zone.visible_to_owner,
                "visible_to_others": zone.visible_to_others,
                "shared": zone.shared,
            },
        )
    for deck in game.deck_zones:
        out += _array(
            "deck_zones",
            {
                "label": deck.label,
                "load_to": deck.load_to,
                "shuffle": deck.shuffle,
                "legacy_tag": deck.legacy_tag or None,
            },
        )
    out += _game_functions(game)
    out += _columns(game_file.columns)
    images = {"general_urls": list(game_file.image_urls), "url_files": list(game_file.url_files)}
    if any(images.values()):
        out += ["", "[images]", *_pairs({k: v for k, v in images.items() if v})]
    release = {
        "chat": list(game_file.chat),
        "phase_images": game_file.phase_images or None,
        "base_url": game_file.base_url,
    }
    if any(release.values()):
        out += ["", "[release]", *_pairs({k: v for k, v in release.items() if v})]
    if game_file.files is not None:
        out += _files(game_file.files)
    return "\n".join(out).lstrip("\n") + "\n"


def _game_functions(game: GameDefinition) -> list[str]:
    out: list[str] = []
    for counter in game.counters:
        out += _array(
            "counters",
            {
                "colour": counter.colour,
                "x": counter.position_x or None,
                "y": counter.position_y or None,
                "meaning": counter.meaning or None,
            },
        )
    for function in game.card_functions:
        x, y = function.position or (None, None)
        out += _array(
            "card_functions",
            {
                "label": function.label,
                "kind": function.kind,
                "meaning": function.meaning,
                "description": function.description or None,
                "colour": function.colour,
                "button": function.button,
                "x": x,
                "y": y,
            },
        )
    for general in game.general_functions:
        out += _array(
            "general_functions",
            {
                "label": general.label,
                "kind": general.kind,
                "meaning": general.meaning,
                "description": general.description or None,
                "button": general.button,
                "options": dict(general.options) or None,
            },
        )
    for definition in game.definitions:
        out += _array("definitions", {"kind": definition.kind, "value": definition.value})
    return out


def _columns(columns: Iterable[Column]) -> list[str]:
    out: list[str] = []
    for column in columns:
        out += _array(
            "columns",
            {
                "name": column.name,
                "type": column.type,
                "field": column.field,
                "aliases": list(column.aliases) or None,
                "searched": column.searched or None,
            },
        )
    return out


def _files(files: ShippedFiles) -> list[str]:
    entry: dict[str, Any] = {
        "root": files.root.as_posix(),
        "packs": list(files.packs),
        "decks": list(files.decks),
        "formats": files.formats,
        "sounds": list(files.sounds),
        "start": files.start,
        "other": list(files.other),
        "urls": dict(files.urls),
    }
    return ["", "[files]", *_pairs({k: v for k, v in entry.items() if v})]


def _stats(table: str, stats: Iterable[Stat]) -> list[str]:
    out: list[str] = []
    for stat in stats:
        out += _array(
            table, {"label": stat.label, "initial": stat.initial_value, "meaning": stat.meaning}
        )
    return out


def _array(table: str, values: Mapping[str, Any]) -> list[str]:
    return ["", f"[[{table}]]", *_pairs(values)]


def _pairs(values: Mapping[str, Any]) -> list[str]:
    return [
        f"{key} = {_value(value)}"
        for key, value in values.items()
        if value is not None and (value != "" or key == "plugin_version")
    ]


def _value(value: Any) -> str:
    """A TOML value: strings, booleans and numbers as JSON writes them (valid TOML), lists
    and tables inline."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        inner = ", ".join(f"{json.dumps(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list) and len(value) > 4:
        return "[\n" + "".join(f"    {_value(item)},\n" for item in value) + "]"
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)
