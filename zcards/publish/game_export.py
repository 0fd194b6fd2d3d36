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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import sqlite_utils

from lackey_plugin.export import CardSet
from lackey_plugin.gamefile import GameFile
from lackey_plugin.gamefile_init import source_path
from lackey_plugin.paths import is_safe_component, unsafe_path
from lackey_plugin.release import phase_image_path
from zcards.cards.model import Card
from zcards.errors import ZcardsError
from zcards.query.game_fields import card_values


@dataclass(frozen=True)
class SourcedCard:
    card: Card
    location: str


def read_cards(db: sqlite_utils.Database) -> Iterator[SourcedCard]:
    """Every card and further printing, by source, in import order."""
    for table, order in (("cards", "c.rowid"), ("card_variants", "c.line, c.id")):
        rows = db.execute(
            f'select c.*, s.location as "_location" from "{table}" c '
            f"left join sources s on s.id = c.source_id order by c.source_id, {order}"
        )
        names = [d[0] for d in rows.description]
        for values in rows:
            row = dict(zip(names, values, strict=True))
            yield SourcedCard(Card.from_row(row), row["_location"] or "")


def card_sets(cards: Sequence[SourcedCard], game: GameFile) -> list[CardSet]:
    """The card data files: one per imported file (``by-source``) or per set."""
    columns = [column.name for column in game.columns]
    groups: dict[str, list[list[str]]] = {}
    for sourced in cards:
        if game.layout == "by-source" and sourced.location:
            key = source_path(sourced.location)[: -len(".txt")]
        else:
            key = sourced.card.set_name
        if not is_safe_component(key):
            raise ZcardsError(f"card data file name {key!r} is not a plain file name")
        groups.setdefault(key, []).append(card_values(sourced.card, game.columns))
    return [CardSet(key, columns, rows) for key, rows in groups.items()]


def shipped_files(game: GameFile) -> dict[str, Path]:
    """Folder path -> file, for every file the definition ships as it is."""
    if game.files is None:
        return {}
    shipped = {}
    for relative in game.files.paths():
        source = game.files.root / relative
        if unsafe_path(relative) or not source.is_file():
            raise ZcardsError(f"{game.origin}: the file to ship {relative!r} is not in {source}")
        shipped[relative] = source
    return shipped


def draw_game_art(
    game: GameFile, cards: Sequence[SourcedCard], root: Path, messages: list[str]
) -> None:
    """Card images (a generic face, or a folder's images), card back and phase images."""
    from zcards.publish.generic_art import render_generic_back, render_generic_face

    if game.face not in ("none", "generic"):
        _copy_faces(Path(game.face), cards, root, messages)
    elif game.face == "generic":
        for sourced in cards:
            path = _face_path(root, sourced.card, messages)
            if path is not None and not path.exists():
                card = sourced.card
                values = card_values(card, game.columns)
                fields = [
                    (column.name, value)
                    for column, value in zip(game.columns, values, strict=False)
                    if column.field not in ("name", "set_name", "image_file")
                ]
                render_generic_face(path, card.name, fields)
    if game.back == "generic":
        render_generic_back(root / "cardback.jpg", game.title)
        render_generic_back(root / "spawned.jpg", game.title)
    elif game.back not in ("none", "zombie"):
        _copy(Path(game.back), root / "cardback.jpg")
    draw_phase_images(game, root)


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
    folder: Path, cards: Sequence[SourcedCard], root: Path, messages: list[str]
) -> None:
    """Card images made elsewhere: ``<folder>/<Set>/<ImageFile>.jpg``."""
    missing = 0
    for sourced in cards:
        target = _face_path(root, sourced.card, messages)
        if target is None:
            continue
        source = folder / target.relative_to(root / "sets" / "setimages")
        if source.is_file():
            _copy(source, target)
        else:
            missing += 1
    if missing:
        messages.append(f"{missing} card images are not in {folder}")


def _copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise ZcardsError(f"no such image: {source}")
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
