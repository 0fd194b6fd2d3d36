"""``zcards plugin export``: the card database as a complete, installable LackeyCCG plugin.

This module decides what the Zombie CCG plugin holds: the cards of the database (made safe
first, :func:`zcards.publish.safe_names.sanitize_cards`), the starter decks as ``.dek`` files and
fixed packs, a booster per set drawn by rarity, a format per set, the card faces, card back,
booster image and table background, and the release. :mod:`lackey_plugin.export` writes and
publishes that content as any Lackey plugin: atomically, linted, deterministic. The release
date is an option, or the database's last import, never the clock time of the run.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import sqlite_utils

from lackey_plugin.dek import read_deck
from lackey_plugin.export import CardSet, PluginContent, PluginDeck, publish_plugin
from lackey_plugin.gamefile import GameFile
from lackey_plugin.lint_urls import PLACEHOLDER_URL
from lackey_plugin.packs import Format, Pack, PackChance, PackKind
from lackey_plugin.paths import safe_component
from lackey_plugin.updatelist import UpdateList, read_updatelist
from lackey_plugin.version import yymmdd
from zcards.cards.model import RARITIES, Card, card_data_columns
from zcards.errors import ZcardsError
from zcards.game.definition import ZOMBIE_GAME
from zcards.game.gamefile import zombie_game_file
from zcards.publish.art import render_pack_image, render_table_background
from zcards.publish.facecache import FROM_ENVIRONMENT, CacheChoice
from zcards.publish.game_export import chain, draw_phase_images, game_plugin
from zcards.publish.safe_names import sanitize_cards
from zcards.query.decks import ResolvedEntry, deck_entries, resolve_deck
from zcards.resources import starter_decks
from zcards.store.db import find_db, iter_cards, open_db
from zcards.store.game_trust import exported_game

Progress = Callable[[str, int, int], None]
BOOSTER_IMAGE = "zombiebooster"
PLACEHOLDER_BASE = "https://example.invalid/lackey/{name}/"
ALL_SETS_FORMAT = "All Sets"
# Booster contents: (probability %, {rarity: quantity}); a Special replaces the Rare in 1 of 10.
BOOSTER = ((90, {"R": 1, "U": 3, "C": 10}), (10, {"S": 1, "U": 3, "C": 10}))


@dataclass
class ExportReport:
    plugin_dir: Path
    version: str
    cards: int = 0
    sets: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    unchanged: bool = False
    messages: list[str] = field(default_factory=list)
    art_problems: list[str] = field(default_factory=list)  # art files that could not be used
    faces_rendered: int = 0  # card faces drawn by this export
    faces_reused: int = 0  # card faces copied from the render cache

    def to_dict(self) -> dict:
        return {
            "plugin_dir": str(self.plugin_dir),
            "version": self.version,
            "cards": self.cards,
            "sets": self.sets,
            "files": self.files,
            "bytes": self.bytes,
            "unchanged": self.unchanged,
            "messages": self.messages,
            "art_problems": self.art_problems,
            "faces_rendered": self.faces_rendered,
            "faces_reused": self.faces_reused,
        }


def background_name(name: str) -> str:
    """The table background's path, both inside the published folder and under Lackey's root."""
    return f"images/backgrounds/{name}-table.jpg"


def export_plugin(
    db_path: str | os.PathLike[str] | None,
    out_dir: str | os.PathLike[str],
    *,
    name: str | None = None,
    base_url: str | None = None,
    progress: Progress | None = None,
    release: date | None = None,
    dpi: int = 150,
    decks: Sequence[Path] | None = None,
    game: GameFile | None = None,
    previous: UpdateList | None = None,
    art_dir: str | os.PathLike[str] | None = None,
    cache_dir: CacheChoice = FROM_ENVIRONMENT,
    message: str | None = None,
    trust_game: bool = False,
) -> ExportReport:
    """Write ``out_dir/<name>/`` from the card database and return what was written.

    ``game``: the game definition (default: the one stored in the database, else Zombie
    CCG); ``name`` defaults to its name. ``decks`` are the Zombie starter deck lists to ship
    (default: the bundled starter decks). ``previous``: the last release's updatelist, for
    ``uninstall.txt`` (default: the updatelist of the plugin already in ``out_dir``).
    ``art_dir``: the Zombie card art (:class:`zcards.publish.cardart.ArtFolder`);
    ``cache_dir``: the render cache (default: from the environment; None: no cache).
    ``message``: ``version.txt``'s message (default: the game, release and card count).
    ``trust_game``: let a definition stored in the database by someone else ship files
    (:mod:`zcards.store.game_trust`); its paths then start from the database's folder.
    """
    db = open_db(db_path)
    game = game or exported_game(db.conn, find_db(db_path), trust_game) or zombie_game_file()
    name = name or game.folder_name
    if safe_component(name, "") != name or " " in name:
        raise ZcardsError(f"plugin name {name!r} must be a plain folder name without spaces")
    cards = list(iter_cards(db))
    if not cards:
        raise ZcardsError("the card database has no cards to export")
    day = release or _release_from_db(db) or date.today()
    report = ExportReport(plugin_dir=Path(out_dir) / name, version=yymmdd(day))
    base_url = base_url or game.base_url
    if base_url is None:
        base_url = PLACEHOLDER_BASE.format(name=name)
        report.messages.append(f"no --base-url: updatelist URLs use the placeholder {base_url}")
    base_url = base_url if base_url.endswith("/") else base_url + "/"
    if game.face == "zombie":
        starters = list(decks) if decks is not None else starter_decks()
        _require_distinct_names(starters)
        artwork = _Artwork(dpi, progress or _quiet, art_dir, cache_dir)
        content = zombie_plugin(db, cards, name, base_url, day, starters, artwork, report)
        content = replace(
            content, draw=chain(content.draw, functools.partial(draw_phase_images, game))
        )
    else:
        content, sourced = game_plugin(db, game, name, base_url, day, report.messages)
        report.cards = len(sourced)
        report.sets = sorted({card.card.set_name for card in sourced})
    local = report.plugin_dir / "updatelist.txt"
    if previous is None and local.is_file():
        previous = read_updatelist(local)
    content = replace(
        content,
        game=game.plugininfo_game,
        chat=game.chat,
        previous=previous,
        plugin_version=game.plugin_version,
        message=content.message if message is None else message,
    )
    published = publish_plugin(content, out_dir, lint_ignore={PLACEHOLDER_URL})
    report.files, report.bytes = published.files, published.bytes
    report.unchanged = published.unchanged
    report.messages += [f"lint: {finding}" for finding in published.warnings]
    return report


def _require_distinct_names(decks: Sequence[Path]) -> None:
    """Two deck files that would be one ``decks/<name>.dek`` (names differing only in case
    are one file where Lackey runs, on Windows and macOS) are an error, not an overwrite."""
    seen: dict[str, Path] = {}
    for path in decks:
        name = safe_component(path.stem, "deck")
        if name.casefold() in seen:
            raise ZcardsError(
                f"the deck files {seen[name.casefold()]} and {path} would both be "
                f"decks/{name}.dek in the plugin: give them different names"
            )
        seen[name.casefold()] = path


def _quiet(stage: str, done: int, total: int) -> None:
    """Default progress callback: say nothing."""


def _release_from_db(db: sqlite_utils.Database) -> date | None:
    """The day of the latest import: the data's own date, stable across re-exports."""
    if "import_runs" not in db.table_names():
        return None
    row = db.execute("select max(finished_at) from import_runs").fetchone()
    try:
        return date.fromisoformat(row[0][:10]) if row and row[0] else None
    except ValueError:
        return None


@dataclass(frozen=True)
class _Artwork:
    """How the card faces are drawn: resolution, progress callback, art folder and cache."""

    dpi: int
    progress: Progress
    art_dir: str | os.PathLike[str] | None
    cache_dir: CacheChoice


def zombie_plugin(
    db: sqlite_utils.Database,
    cards: list[Card],
    name: str,
    base_url: str,
    day: date,
    decks: Sequence[Path],
    artwork: _Artwork,
    report: ExportReport,
) -> PluginContent:
    """The Zombie CCG plugin as Lackey plugin content; ``report`` learns what was changed or
    left out."""
    safe = sanitize_cards(cards)
    report.messages += safe.messages
    by_set: dict[str, list[Card]] = {}
    for card in safe.cards:
        by_set.setdefault(card.set_name, []).append(card)
    by_set = dict(sorted(by_set.items(), key=lambda item: (item[0].casefold(), item[0])))
    report.cards, report.sets = len(safe.cards), list(by_set)
    safe_by_key = {card.key: safe_card for card, safe_card in zip(cards, safe.cards, strict=True)}
    deck_files, starters = _starter_decks(db, decks, safe_by_key, report)
    message = f"Zombie CCG plugin {yymmdd(day)}: " + ", ".join(
        f"{set_name} ({len(set_cards)} cards)" for set_name, set_cards in by_set.items()
    )
    sets = tuple(by_set)
    return PluginContent(
        name=name,
        game=ZOMBIE_GAME,
        release=day,
        base_url=base_url if base_url.endswith("/") else base_url + "/",
        message=message,
        card_sets=[
            CardSet(
                set_name, card_data_columns(set_cards), [c.to_lackey_fields() for c in set_cards]
            )
            for set_name, set_cards in by_set.items()
        ],
        decks=deck_files,
        packs=[
            *(_booster(set_name, set_cards) for set_name, set_cards in by_set.items()),
            *starters,
        ],
        formats=[*(Format(s, (s,)) for s in sets), Format(ALL_SETS_FORMAT, sets)],
        draw=functools.partial(_draw, by_set, artwork, name, report),
        installed_outside=frozenset({background_name(name)}),
    )


def _booster(set_name: str, cards: Sequence[Card]) -> Pack:
    """A set's booster: the rarity mix of :data:`BOOSTER`, kept to rarities the set has."""
    present = {card.rarity for card in cards}
    chances: list[tuple[int | None, dict[str, int]]] = []
    for probability, kinds in BOOSTER:
        kept = {rarity: qty for rarity, qty in kinds.items() if rarity in present}
        if kept and kept not in [existing for _, existing in chances]:
            chances.append((probability, kept))
    if len(chances) == 1:
        chances = [(None, chances[0][1])]
    blocks = tuple(
        PackChance(
            probability,
            tuple(
                PackKind(kinds[rarity], (("Rarity", rarity),))
                for rarity in sorted(kinds, key=_rarity_order)
            ),
        )
        for probability, kinds in chances
    )
    return Pack(f"{set_name} Booster", BOOSTER_IMAGE, "Booster", blocks, (("Set", set_name),))


def _rarity_order(rarity: str) -> int:
    return RARITIES.index(rarity) if rarity in RARITIES else len(RARITIES)


def _starter_decks(
    db: sqlite_utils.Database,
    paths: Sequence[Path],
    safe_by_key: dict[tuple[str, str], Card],
    report: ExportReport,
) -> tuple[list[PluginDeck], list[Pack]]:
    """Each starter deck as ``decks/<deck>.dek`` and as a fixed pack of exactly its cards.

    A database without the bundled set's cards (another game's data) cannot build them, so a
    deck naming unknown cards is left out with a message rather than failing the export.
    """
    decks, packs = [], []
    for path in paths:
        resolved = resolve_deck(read_deck(path), db)
        if not resolved.ok:
            report.messages.append(
                f"starter deck {path.name} left out: "
                f"{len(resolved.unknown)} of its cards are not in the database"
            )
            continue
        entries = [
            ResolvedEntry(entry.count, safe_by_key[entry.card.key], entry.section)
            for entry in resolved.entries
        ]
        decks.append(PluginDeck(safe_component(path.stem, "deck"), deck_entries(entries)))
        merged: dict[tuple[str, str], tuple[Card, int]] = {}
        for entry in entries:
            _, count = merged.get(entry.card.key, (entry.card, 0))
            merged[entry.card.key] = (entry.card, count + entry.count)
        title = path.stem.replace("-", " ").replace("_", " ").title()
        kinds = tuple(
            PackKind(count, (("Name", card.name), ("Set", card.set_name)))
            for card, count in merged.values()
        )
        packs.append(Pack(title, BOOSTER_IMAGE, "Starter", (PackChance(None, kinds),)))
    return decks, packs


def _draw(
    by_set: dict[str, list[Card]], artwork: _Artwork, name: str, report: ExportReport, root: Path
) -> None:
    """The booster image, card faces per set, card back, spawned-card image and table;
    ``report`` learns how many faces were drawn and what could not be drawn as asked.

    The cards are already sanitised, and the renderer names images by the same rule
    (:mod:`zcards.publish.safe_names`, idempotent on safe values), so each face lands at the path
    the card data names.
    """
    from zcards.publish.cardface import render_extras, render_faces

    render_pack_image(root / "packs" / f"{BOOSTER_IMAGE}.jpg", "Zombie CCG Booster")
    progress = artwork.progress
    total = sum(len(cards) for cards in by_set.values())
    done = 0

    def advance(faces: int) -> None:
        nonlocal done
        done += faces
        progress("card images", done, total)

    progress("card images", done, total)
    for set_name, cards in by_set.items():
        end = done + len(cards)
        folder = root / "sets" / "setimages" / set_name
        faces = render_faces(
            cards,
            folder,
            dpi=artwork.dpi,
            art_dir=artwork.art_dir,
            progress=advance,
            cache_dir=artwork.cache_dir,
        )
        report.faces_rendered += faces.rendered
        report.faces_reused += faces.reused
        report.art_problems += faces.art_problems
        report.messages += [
            f"the text of {card!r} does not fit on its face, even shrunk" for card in faces.overflow
        ]
        if done < end:  # cards sharing an ImageFile share one face: count cards, not faces
            advance(end - done)
    extras = {"back": root / "cardback.jpg", "spawned": root / "spawned.jpg"}
    render_extras(extras, artwork.dpi, artwork.cache_dir)
    render_table_background(root / background_name(name), artwork.cache_dir)
