"""Any game's plugin from the card database and its game definition file.

The cards come back as they were imported: the definition's columns in its order and
spelling, each value as the source wrote it (the text kept in ``extra`` wins over a converted
field), unnamed trailing fields of rows longer than their header, ``ImageFile`` untouched. With
the ``by-source`` layout each imported file becomes the card data file of its name, its cards
in import order and its further printings after them. Packs, decks, formats, sounds, a start
position and image URL lists are the files the definition names, shipped as they are; card
images are drawn (a generic face), copied from a folder, or left where ``CardGeneralURLs``
says they live.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import sqlite_utils

from lackey_plugin.errors import LackeyError
from lackey_plugin.export import CardSet, PluginContent
from lackey_plugin.gamefile import BUILT_IN_ART, GameFile, inside
from lackey_plugin.gamefile_init import source_path
from lackey_plugin.paths import is_safe_component, unsafe_path
from lackey_plugin.release import phase_image_path
from lackey_plugin.version import yymmdd
from zcards.cards.model import Card
from zcards.errors import Location, ZcardsError
from zcards.query.game_fields import card_values
from zcards.store.line_endings import source_newlines


@dataclass(frozen=True)
class SourcedCard:
    card: Card
    location: str
    newline: str = "\n"


def read_cards(db: sqlite_utils.Database) -> Iterator[SourcedCard]:
    """Every card and further printing, by source, in import order, with its source's line
    ending."""
    newlines = source_newlines(db.conn)
    for table, order in (("cards", "c.rowid"), ("card_variants", "c.line, c.id")):
        rows = db.execute(
            f'select c.*, s.location as "_location" from "{table}" c '
            f"left join sources s on s.id = c.source_id order by c.source_id, {order}"
        )
        names = [d[0] for d in rows.description]
        for values in rows:
            row = dict(zip(names, values, strict=True))
            newline = newlines.get(row["source_id"], "\n")
            yield SourcedCard(Card.from_row(row), row["_location"] or "", newline)


def game_plugin(
    db: sqlite_utils.Database,
    game: GameFile,
    name: str,
    base_url: str,
    day: date,
    messages: list[str],
) -> tuple[PluginContent, list[SourcedCard]]:
    """Another game's plugin: its own columns and files, and the cards it holds; ``messages``
    names every file it ships as it is."""
    cards = list(read_cards(db))
    drawn = game.face != "none"
    shipped = shipped_files(game)
    if shipped:
        assert game.files is not None
        messages.append(
            f"{len(shipped)} files shipped as they are, from {game.files.root.resolve()}: "
            + ", ".join(shipped)
        )
    if game.back not in BUILT_IN_ART:
        messages.append(f"cardback.jpg shipped as it is: {game.root / game.back}")
    content = PluginContent(
        name=name,
        game=game.game,
        release=day,
        base_url=base_url,
        message=f"{game.title} plugin {yymmdd(day)}: {len(cards)} cards",
        card_sets=card_sets(cards, game),
        shipped=shipped,
        image_urls=game.image_urls or (None if drawn else ()),
        url_files=game.url_files,
        urls=release_urls(game, base_url, messages),
        draw=functools.partial(draw_game_art, game, cards, messages=messages),
    )
    return content, cards


def card_sets(cards: Sequence[SourcedCard], game: GameFile) -> list[CardSet]:
    """The card data files: one per imported file (``by-source``) or per set, each with the
    line ending of its (first) source."""
    columns = [column.name for column in game.columns]
    groups: dict[str, list[list[str]]] = {}
    newlines: dict[str, str] = {}
    for sourced in cards:
        if game.layout == "by-source" and sourced.location:
            key = source_path(sourced.location)[: -len(".txt")]
        else:
            key = sourced.card.set_name
        if not is_safe_component(key):
            raise ZcardsError(f"card data file name {key!r} is not a plain file name")
        groups.setdefault(key, []).append(card_values(sourced.card, game.columns))
        newlines.setdefault(key, sourced.newline)
    return [CardSet(key, columns, rows, newlines[key]) for key, rows in groups.items()]


def shipped_files(game: GameFile) -> dict[str, Path]:
    """Folder path -> file, for every file the definition ships as it is (each inside its
    ``[files] root``, symbolic links followed)."""
    if game.files is None:
        return {}
    try:
        return game.files.sources()
    except LackeyError as error:
        raise ZcardsError(error.message, Location(game.origin)) from None


def release_urls(game: GameFile, base_url: str, messages: list[str]) -> dict[str, str]:
    """The addresses of the definition's files for a release published at ``base_url``.

    Published where the definition says (its ``base_url``), every address stays. Published
    anywhere else, an address under one of the old ones (the definition's base URL, or the
    folder an address of a file's own path names) moves to the same place under ``base_url``;
    any other is kept, and ``messages`` says so, as it does for card images living elsewhere.
    """
    urls = dict(game.files.urls) if game.files else {}
    published = game.base_url and game.base_url.rstrip("/") + "/"
    if base_url == published:
        return urls
    old = {published} if published else set()
    old |= {url[: -len(path)] for path, url in urls.items() if url.endswith("/" + path)}
    moved = {}
    for path, url in urls.items():
        base = next((b for b in sorted(old, key=len, reverse=True) if url.startswith(b)), None)
        if base is None:
            messages.append(f"{path} stays at {url}: it is not under the old address")
            moved[path] = url
        else:
            moved[path] = base_url + url[len(base) :]
    for url in game.image_urls:
        messages.append(f"card images stay at {url}: the plugin does not ship them")
    return moved


def draw_game_art(
    game: GameFile, cards: Sequence[SourcedCard], root: Path, messages: list[str]
) -> None:
    """Card images (a generic face, or a folder's images), card back and phase images."""
    from zcards.publish.generic_art import render_generic_back

    if game.face not in BUILT_IN_ART:
        _copy_faces(game, cards, root, messages)
    elif game.face == "generic":
        _draw_faces(game, cards, root, messages)
    if game.back == "generic":
        render_generic_back(root / "cardback.jpg", game.title)
        render_generic_back(root / "spawned.jpg", game.title)
    elif game.back not in BUILT_IN_ART:
        _copy(_own_file(game, game.back), root / "cardback.jpg")
    draw_phase_images(game, root)


def _draw_faces(
    game: GameFile, cards: Sequence[SourcedCard], root: Path, messages: list[str]
) -> None:
    """The generic face of each card: its number columns as badges, the rest listed; a face
    its text does not fit, or with characters no font has, is named in ``messages``."""
    from zcards.publish.generic_art import render_generic_face

    cut: list[str] = []
    missing: set[str] = set()
    for sourced in cards:
        path = _face_path(root, sourced.card, messages)
        if path is None or path.exists():
            continue
        values = card_values(sourced.card, game.columns)
        shown = [
            (column, value)
            for column, value in zip(game.columns, values, strict=False)
            if column.field not in ("name", "set_name", "image_file")
        ]
        badges = [(c.name, v) for c, v in shown if c.type == "integer" and v.strip()]
        fields = [(c.name, v) for c, v in shown if c.type != "integer"]
        face = render_generic_face(path, sourced.card.name, fields, badges)
        if not face.fits:
            cut.append(sourced.card.name)
        missing |= face.missing
    if cut:
        named = ", ".join(repr(name) for name in cut[:5]) + (" …" if len(cut) > 5 else "")
        messages.append(f"{len(cut)} card faces cut their text at the smallest size: {named}")
    if missing:
        messages.append(f"no font draws {''.join(sorted(missing))}: drawn as boxes")


def draw_phase_images(game: GameFile, root: Path) -> None:
    from zcards.publish.generic_art import render_phase_image

    if game.phase_images:
        for index, label in enumerate(game.game.phases):
            render_phase_image(root / phase_image_path(index), label)


def _face_path(root: Path, card: Card, messages: list[str]) -> Path | None:
    image = card.image_file.split(",", 1)[0] or card.name
    relative = f"{card.set_name}/{image}.jpg"
    if unsafe_path(relative) or not is_safe_component(card.set_name):
        messages.append(f"no image for {card.name!r}: {relative!r} would leave the folder")
        return None
    return root / "sets" / "setimages" / relative


def _copy_faces(
    game: GameFile, cards: Sequence[SourcedCard], root: Path, messages: list[str]
) -> None:
    """Card images made elsewhere: ``<face folder>/<Set>/<ImageFile>.jpg``, the folder inside
    the definition's own."""
    folder = (game.root / game.face).resolve()
    if not folder.is_relative_to(game.root.resolve()):
        raise ZcardsError(f"face = {game.face!r} leads outside {game.root}", Location(game.origin))
    missing = 0
    for sourced in cards:
        target = _face_path(root, sourced.card, messages)
        if target is None:
            continue
        relative = target.relative_to(root / "sets" / "setimages").as_posix()
        try:
            _copy(inside(folder, relative), target)
        except LackeyError:
            missing += 1
    if missing:
        messages.append(f"{missing} card images are not in {folder}")


def _own_file(game: GameFile, relative: str) -> Path:
    """A file the definition names, inside its own folder."""
    try:
        return inside(game.root, relative)
    except LackeyError as error:
        raise ZcardsError(error.message, Location(game.origin)) from None


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes())


Draw = Callable[[Path], None]


def chain(*steps: Draw | None) -> Draw:
    """One ``draw`` callback running several in turn."""

    def run(root: Path) -> None:
        for step in steps:
            if step is not None:
                step(root)

    return run
