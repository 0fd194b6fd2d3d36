"""A game definition file: one TOML file says what a Lackey game is, for every command.

The file names the game's stats, phases, zones, counters and functions (what
``plugininfo.txt`` holds), its card data columns and their types, the card face and back, and
the files a release ships as they are (packs, decks, formats, sounds, a start position).
docs/game-definition.md describes every key. The Zombie game is one such file,
``zcards/game/zombie.toml``; :func:`load_game` reads any other and checks it against
:data:`zcards.game.schema.SCHEMA`, naming file and line for each mistake.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

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
from zcards.cards.columns import Column
from zcards.errors import Location, ZcardsError
from zcards.game.schema import check_document

ZOMBIE_FILE = Path(__file__).with_name("zombie.toml")


@dataclass(frozen=True)
class ShippedFiles:
    """Files a release ships as they are, relative to ``root``; ``urls`` gives the download
    address of a file that is not published at ``base URL + path``."""

    root: Path
    packs: tuple[str, ...] = ()
    decks: tuple[str, ...] = ()
    formats: str | None = None
    sounds: tuple[str, ...] = ()
    start: str | None = None
    other: tuple[str, ...] = ()
    urls: Mapping[str, str] = field(default_factory=dict)

    def paths(self) -> list[str]:
        """Every shipped path (folder-relative), globs expanded, in a stable order."""
        patterns = [*self.packs, *self.decks, *self.sounds, *self.other]
        patterns += [p for p in (self.formats, self.start) if p]
        found: list[str] = []
        for pattern in patterns:
            matches = (
                sorted(self.root.glob(pattern)) if _is_glob(pattern) else [self.root / pattern]
            )
            for path in matches:
                relative = path.relative_to(self.root).as_posix()
                if relative not in found:
                    found.append(relative)
        return found


@dataclass(frozen=True)
class GameFile:
    """A game definition file, loaded: the Lackey game and everything around it."""

    game: GameDefinition
    title: str
    columns: tuple[Column, ...]
    face: str = "generic"
    back: str = "generic"
    layout: str = "by-set"
    """Card data files: one per set (``by-set``) or one per imported file (``by-source``)."""
    plugin_version: str | None = "date"
    folder: str = ""
    """The plugin's folder (Lackey installs it as ``plugins/<folder>``); default: the name."""
    name_tag: bool = True
    """Whether ``plugininfo.txt`` names the game (``<pluginname>``); older plugins do not."""
    chat: tuple[str, ...] = ()
    phase_images: bool = False
    image_urls: tuple[str, ...] = ()
    """``CardGeneralURLs``: where card images live when the plugin does not ship them."""
    url_files: tuple[str, ...] = ()
    """``CardURLFiles``: shipped lists of one image URL per card."""
    files: ShippedFiles | None = None
    base_url: str | None = None
    """Where the plugin is published, unless the export is told another address."""
    source: str = ""
    """The TOML text itself, as stored in the database."""
    origin: str = ""

    def column(self, name: str) -> Column | None:
        folded = name.casefold()
        return next((c for c in self.columns if c.name.casefold() == folded), None)

    @property
    def own_columns(self) -> tuple[Column, ...]:
        """Columns stored in columns of their own (not in a built-in card field)."""
        return tuple(column for column in self.columns if column.field is None)

    @property
    def folder_name(self) -> str:
        return self.folder or self.game.name

    @property
    def is_zombie(self) -> bool:
        return self.face == "zombie"

    @property
    def plugininfo_game(self) -> GameDefinition:
        """The game as ``plugininfo.txt`` states it (without its name when ``name_tag`` is
        off)."""
        return self.game if self.name_tag else replace(self.game, name="")


def load_game(path: str | Path) -> GameFile:
    """Read and check a game definition file; a mistake is a :class:`ZcardsError` naming
    file, line and column."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ZcardsError(
            f"cannot read the game definition: {error}", Location(str(path))
        ) from None
    return parse_game(text, str(path), path.parent)


def parse_game(text: str, origin: str = "<game>", root: Path | None = None) -> GameFile:
    """A game definition from TOML text; relative paths are relative to ``root``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ZcardsError(f"not valid TOML: {error}", _toml_location(origin, str(error))) from None
    check_document(data, text, origin)
    return _build(data, text, origin, root or Path("."))


def zombie_game_file() -> GameFile:
    """The shipped Zombie CCG game definition."""
    return load_game(ZOMBIE_FILE)


def _toml_location(origin: str, message: str) -> Location:
    import re

    match = re.search(r"line (\d+), column (\d+)", message)
    if not match:
        return Location(origin)
    return Location(origin, int(match.group(1)), int(match.group(2)))


def _build(data: dict[str, Any], text: str, origin: str, root: Path) -> GameFile:
    game = data["game"]
    counters = tuple(
        Counter(c["colour"], c.get("x", ""), c.get("y", ""), c.get("meaning", ""))
        for c in data.get("counters", ())
    )
    definition = GameDefinition(
        name=game["name"],
        player_stats=_stats(data.get("stats", ())),
        global_stats=_stats(data.get("global_stats", ())),
        phases=tuple(data.get("phases", {}).get("labels", ())),
        game_zones=tuple(
            GameZone(
                z["label"],
                z.get("visible_to_owner"),
                z.get("visible_to_others"),
                z.get("shared"),
            )
            for z in data.get("zones", ())
        ),
        deck_zones=tuple(
            DeckZone(d["label"], d.get("load_to"), d.get("shuffle"), d.get("legacy_tag", False))
            for d in data.get("deck_zones", ())
        ),
        counters=counters,
        card_functions=tuple(
            CardFunction(
                f["label"],
                f["kind"],
                f.get("meaning"),
                f.get("description", ""),
                f.get("colour"),
                f.get("button"),
                (f["x"], f["y"]) if "x" in f else None,
            )
            for f in data.get("card_functions", ())
        ),
        general_functions=tuple(
            GeneralFunction(
                f["label"],
                f["kind"],
                f.get("meaning"),
                f.get("description", ""),
                f.get("button"),
                tuple(f.get("options", {}).items()),
            )
            for f in data.get("general_functions", ())
        ),
        definitions=tuple(
            Definition(d["kind"], d.get("value")) for d in data.get("definitions", ())
        ),
    )
    columns = tuple(
        Column(
            c["name"],
            c.get("type", "text"),
            c.get("field"),
            tuple(c.get("aliases", ())),
            c.get("searched", False),
        )
        for c in data["columns"]
    )
    release = data.get("release", {})
    images = data.get("images", {})
    return GameFile(
        game=definition,
        title=game.get("title", game["name"]),
        columns=columns,
        face=game.get("face", "generic"),
        back=game.get("back", "generic"),
        layout=game.get("layout", "by-set"),
        plugin_version=game.get("plugin_version", "date") or None,
        name_tag=game.get("name_tag", True),
        folder=game.get("folder", ""),
        chat=tuple(release.get("chat", ())),
        phase_images=release.get("phase_images", False),
        image_urls=tuple(images.get("general_urls", ())),
        url_files=tuple(images.get("url_files", ())),
        files=_files(data.get("files"), root),
        base_url=release.get("base_url"),
        source=text,
        origin=origin,
    )


def _stats(entries: Sequence[dict[str, Any]]) -> tuple[Stat, ...]:
    return tuple(Stat(s["label"], s.get("initial"), s.get("meaning", "")) for s in entries)


def _files(entry: dict[str, Any] | None, root: Path) -> ShippedFiles | None:
    if entry is None:
        return None
    base = Path(entry.get("root", "."))
    return ShippedFiles(
        root=base if base.is_absolute() else root / base,
        packs=tuple(entry.get("packs", ())),
        decks=tuple(entry.get("decks", ())),
        formats=entry.get("formats"),
        sounds=tuple(entry.get("sounds", ())),
        start=entry.get("start"),
        other=tuple(entry.get("other", ())),
        urls=dict(entry.get("urls", {})),
    )


def _is_glob(pattern: str) -> bool:
    return any(char in pattern for char in "*?[")
