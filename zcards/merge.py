"""Combine the card rows of every document of one import, keyed by (Set, Name).

The first row with a key is the card. A later one is an alternate printing (other games'
data has several under one name) or, in Zombie CCG data, a duplicate: a bad row. A document
whose keys are all new and distinct, the usual case, is merged whole rather than row by row.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from itertools import repeat
from operator import add, itemgetter
from typing import Any

from zcards.errors import Location
from zcards.normalise import Problem
from zcards.sources import CardInput

ProgressFactory = Callable[[Iterable[Any], str, int], AbstractContextManager[Iterable[Any]]]
Key = tuple[str, str]
Row = tuple[Any, ...]  # ``cards`` values in CARD_COLUMNS order, up to image_url (or source_id)
_KEY = itemgetter(1, 0)
_LOCATION = itemgetter(0)


@dataclass
class Merged:
    """``rows`` by key and, in the same order, the (document, line) each one came from."""

    rows: dict[Key, Row] = field(default_factory=dict)
    origins: dict[Key, tuple[str, int]] = field(default_factory=dict)
    variants: list[tuple[Row, int, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def with_source_ids(self, ids: dict[str, int]) -> dict[Key, Row]:
        """Complete ``cards`` rows: each row with the ``sources`` id of its document."""
        id_of = {location: (source_id,) for location, source_id in ids.items()}
        source_ids = map(id_of.__getitem__, map(_LOCATION, self.origins.values()))
        return dict(zip(self.rows, map(add, self.rows.values(), source_ids), strict=True))


def merge_inputs(inputs: list[CardInput], progress: ProgressFactory | None = None) -> Merged:
    merged = Merged()
    documents = [card_input for card_input in inputs if card_input.parsed is not None]
    for card_input in documents:
        merged.problems += card_input.parsed.problems  # type: ignore[union-attr]
    with _progress(progress, documents, "Reading cards") as bar:
        for card_input in bar:
            _add(merged, card_input)
    return merged


def _add(merged: Merged, card_input: CardInput) -> None:
    parsed, location = card_input.parsed, card_input.record.location
    assert parsed is not None
    rows = _with_image_urls(card_input)
    keys = list(map(_KEY, rows))
    if merged.rows.keys().isdisjoint(keys) and len(set(keys)) == len(keys):
        merged.rows.update(zip(keys, rows, strict=True))
        merged.origins.update(zip(keys, zip(repeat(location), parsed.lines), strict=True))
        return
    for key, line, row in zip(keys, parsed.lines, rows, strict=True):
        if key not in merged.rows:
            merged.rows[key] = row
            merged.origins[key] = (location, line)
        elif parsed.zombie:
            message = f"duplicate card {key[1]!r} in set {key[0]!r} "
            message += f"(first in {Location(*merged.origins[key])})"
            merged.problems.append(Problem(Location(location, line, "Name"), message))
        else:
            merged.variants.append((row, line, location))


def _with_image_urls(card_input: CardInput) -> list[Row]:
    """The document's rows with ``image_url`` appended (where the plugin serves the image)."""
    parsed, urls = card_input.parsed, card_input.image_urls
    assert parsed is not None
    if urls is not None and (urls.explicit or urls.general):
        pairs = zip(parsed.stored, parsed.cards, strict=True)
        return [(*row, urls.url_for(card)) for row, card in pairs]
    return list(map(add, parsed.stored, repeat(("",))))  # no URL known: url_for() says ""


@contextlib.contextmanager
def _progress(
    factory: ProgressFactory | None, items: list[Any], label: str
) -> Iterator[Iterable[Any]]:
    if factory is None:
        yield items
        return
    with factory(items, label, len(items)) as bar:
        yield bar
