"""A game definition written from an existing plugin (``zcards plugin init``).

The plugin's ``plugininfo.txt`` gives the game (stats, zones, phases, functions), its card data
gives the columns (header names as spelled, types found from the values), its updatelist
gives where card images live and where files are published, and a local folder's packs,
decks, formats, sounds, start position and image URL lists are named to be shipped as they
are. The result re-exports as the same plugin (tests/test_round_trip.py) and is meant to be
edited: docs/game-definition.md describes every key.
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from lackey_plugin.carddata import read_card_data
from lackey_plugin.columns import LACKEY_FIELDS, CardFields, Column
from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.gamefile import GameFile, ShippedFiles
from lackey_plugin.plugininfo import parse_plugininfo
from lackey_plugin.text import decode_bytes
from lackey_plugin.updatelist import UpdateList, parse_updatelist
from lackey_plugin.urls import is_url

# A column is indexed when its values repeat (a category people filter on).
_SEARCHED_SHARE = 0.05
_SEARCHED_MIN = 64
# Files the export writes itself; everything else the folder ships is named to be copied
# (the card back, pluginpreferences.txt's canned chat lines, the source's uninstall.txt…).
_GENERATED = {
    "plugininfo.txt",
    "updatelist.txt",
    "version.txt",
    "listofcarddatafiles.txt",
    "defaultchat.txt",
}
_GENERATED_NAMES = ("plugininfo.txt", "updatelist.txt", "version.txt")
_RUNTIME = re.compile(r"^saved/(autosave\d*|savedgame)\.txt$", re.I)

Fetch = Callable[[str], bytes]


@dataclass(frozen=True)
class _Plugin:
    """What init reads of a plugin, wherever it lives."""

    plugininfo: bytes
    card_files: list[tuple[str, bytes]]
    updatelist: UpdateList | None
    chat: bytes | None
    folder: Path | None


def init_game(
    source: str, fetch: Fetch | None = None, fields: CardFields = LACKEY_FIELDS
) -> GameFile:
    """The game definition of the plugin at ``source``: a folder, or the URL of its
    ``updatelist.txt`` (``fetch`` downloads a URL's bytes). A column whose header names one
    of the application's ``fields`` is stored in it; other columns (a Lorcana "Strength", a
    VTES "Capacity") keep columns of their own."""
    if is_url(source):
        if fetch is None:
            raise LackeyError("a URL needs a downloader", Location(source))
        plugin = _remote(source, fetch)
    else:
        plugin = _local(Path(source))
    return _game_file(plugin, fields)


def _local(folder: Path) -> _Plugin:
    info = folder / "plugininfo.txt"
    if not info.is_file():
        raise LackeyError("no plugininfo.txt in this folder", Location(str(folder)))
    from lackey_plugin.lint import Plugin, card_file_names

    names = card_file_names(Plugin(folder, folder.name))
    updatelist = folder / "updatelist.txt"
    chat = folder / "defaultchat.txt"
    return _Plugin(
        info.read_bytes(),
        [(name, (folder / name).read_bytes()) for name in names],
        parse_updatelist(updatelist.read_bytes()) if updatelist.is_file() else None,
        chat.read_bytes() if chat.is_file() else None,
        folder.resolve(),
    )


def _remote(url: str, fetch: Fetch) -> _Plugin:
    updatelist = parse_updatelist(fetch(url), url)
    files = {relative.casefold(): link for relative, link in updatelist.plugin_files().values()}
    if "plugininfo.txt" not in files:
        raise LackeyError("the updatelist lists no plugininfo.txt", Location(url))
    cards = [
        (relative, fetch(link))
        for relative, link in updatelist.plugin_files().values()
        if re.fullmatch(r"sets/[^/]+\.txt", relative, re.I)
    ]
    chat = files.get("defaultchat.txt")
    return _Plugin(
        fetch(files["plugininfo.txt"]),
        cards,
        updatelist,
        fetch(chat) if chat else None,
        None,
    )


def _game_file(plugin: _Plugin, fields: CardFields) -> GameFile:
    info = parse_plugininfo(decode_bytes(plugin.plugininfo))
    game = info.game()
    updatelist = plugin.updatelist
    name = game.name or (updatelist.name if updatelist else "")
    name = name or (plugin.folder.name if plugin.folder else "game")
    card_files = [name for name, _ in plugin.card_files]
    return GameFile(
        game=replace(game, name=name),
        title=name,
        name_tag=bool(game.name),
        folder=updatelist.name if updatelist and updatelist.name != name else "",
        columns=infer_columns([data for _, data in plugin.card_files], fields),
        face="none",
        back="none",
        layout="by-source",
        plugin_version=info.scalars.get("pluginversion"),
        chat=_chat_lines(plugin.chat),
        image_urls=tuple(updatelist.card_general_urls) if updatelist else (),
        url_files=tuple(updatelist.card_url_files) if updatelist else (),
        files=_shipped(plugin.folder, updatelist, card_files) if plugin.folder else None,
        base_url=base_url(updatelist) if updatelist else None,
    )


def infer_columns(
    card_files: Sequence[bytes], fields: CardFields = LACKEY_FIELDS
) -> tuple[Column, ...]:
    """The columns of card data files (in first-seen order across files), typed from their
    values: a column is an integer when every value is a whole number written plainly."""
    names: list[str] = []
    values: dict[str, list[str]] = {}
    rows = 0
    for data in card_files:
        parsed = read_card_data(data)
        header = [cell.strip().lstrip("\ufeff") for cell in parsed.header]
        for name in header:
            if name and name.casefold() not in (n.casefold() for n in names):
                names.append(name)
        for row in parsed.rows:
            rows += 1
            for name, value in zip(header, row.values, strict=False):
                values.setdefault(name.casefold(), []).append(value.strip())
    if names[:3] != ["Name", "Set", "ImageFile"]:
        raise LackeyError(f"card data must start with Name, Set, ImageFile; got {names[:3]}")
    return tuple(_column(name, values.get(name.casefold(), []), rows, fields) for name in names)


def _column(name: str, values: list[str], rows: int, fields: CardFields) -> Column:
    filled = [value for value in values if value]
    integer = bool(filled) and all(re.fullmatch(r"-?(0|[1-9][0-9]{0,8})", v) for v in filled)
    key = re.sub(r"[\s_\-.]", "", name).casefold()
    field = fields.text_headers.get(key) or (fields.number_headers.get(key) if integer else None)
    distinct = len(set(filled))
    searched = 0 < distinct <= max(_SEARCHED_MIN, rows * _SEARCHED_SHARE) and not integer
    return Column(name, "integer" if integer else "text", field, (), searched)


def _chat_lines(data: bytes | None) -> tuple[str, ...]:
    if data is None:
        return ()
    return tuple(line for line in decode_bytes(data).splitlines() if line.strip())


def _shipped(folder: Path, updatelist: UpdateList | None, card_files: list[str]) -> ShippedFiles:
    """Every file of the folder the export does not write itself (a symbolic link only when
    it leads to a file inside the folder), sorted into kinds, and the published address of
    each file that is not at ``base URL + path``."""
    generated = {name.casefold() for name in card_files} | _GENERATED
    relatives = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.resolve().is_relative_to(folder)  # no link leads out
    )
    kept = [r for r in relatives if r.casefold() not in generated and not _RUNTIME.match(r)]

    def kind(prefix: str, suffixes: tuple[str, ...] = ()) -> tuple[str, ...]:
        return tuple(
            r
            for r in kept
            if r.casefold().startswith(prefix) and (not suffixes or r.casefold().endswith(suffixes))
        )

    packs, decks, sounds = kind("packs/", (".xml",)), kind("decks/"), kind("sounds/")
    start = "saved/start.txt" if "saved/start.txt" in kept else None
    formats = "formats.txt" if "formats.txt" in kept else None
    named = {*packs, *decks, *sounds, start, formats}
    other = tuple(r for r in kept if r not in named)
    everything = [*_GENERATED_NAMES, *card_files, *kept]
    urls = _url_overrides(updatelist, everything) if updatelist else {}
    return ShippedFiles(folder, packs, decks, formats, sounds, start, other, urls)


def base_url(updatelist: UpdateList) -> str | None:
    """The address most files are published under (``URL = base + path``), if any."""
    bases: Tally[str] = Tally()
    for relative, url in updatelist.plugin_files().values():
        if url.endswith("/" + relative):
            bases[url[: -len(relative)]] += 1
    return bases.most_common(1)[0][0] if bases else None


def _url_overrides(updatelist: UpdateList, relatives: list[str]) -> dict[str, str]:
    base = base_url(updatelist)
    listed = updatelist.plugin_files()
    overrides = {}
    for relative in relatives:
        entry = listed.get(relative.casefold())
        if entry and (base is None or entry[1] != base + relative):
            overrides[relative] = entry[1]
    return overrides


def source_path(location: str) -> str:
    """The file name a card data source is shipped under (``by-source`` layout)."""
    name = PurePosixPath(location.split("?", 1)[0].rstrip("/")).name or "cards"
    return name if name.casefold().endswith(".txt") else PurePosixPath(name).stem + ".txt"
