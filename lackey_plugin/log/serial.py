"""Events as JSON-ready dicts and back (what a ``--format jsonl`` log dump writes).

A log can hold millions of events, so each event class's fields are read by one
``attrgetter`` made once per class (:func:`_reader`), and every event is written by the same
C encoder (:data:`encode_compact`), not a new encoder per call as ``json.dumps`` makes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from lackey_plugin.compact_json import encode_compact
from lackey_plugin.game import GameDefinition
from lackey_plugin.log.events import EVENT_BY_KIND, Event

_READERS: dict[type[Event], tuple[tuple[str, ...], Callable[[Event], tuple[Any, ...]]]] = {}


def _reader(cls: type[Event]) -> tuple[tuple[str, ...], Callable[[Event], tuple[Any, ...]]]:
    """The output keys of an event class and a getter of its values in that order."""
    reader = _READERS.get(cls)
    if reader is None:
        names = ("line", "timestamp", "seconds") + tuple(
            item.name for item in fields(cls) if item.name not in PROVENANCE
        )
        reader = (("kind", *names), attrgetter("kind", *names))
        _READERS[cls] = reader
    return reader


def _fields_of(event: Event) -> dict[str, Any]:
    keys, values = _reader(type(event))
    return dict(zip(keys, values(event)))  # noqa: B905 - same length by construction


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``kind``, provenance (without ``raw``), then the event's fields."""
    data = _fields_of(event)
    for name, value in data.items():
        if isinstance(value, tuple):
            data[name] = list(value)
    return data


def event_to_json(event: Event) -> str:
    """:func:`event_to_dict` as one line of compact JSON (tuples are written as arrays)."""
    return encode_compact(_fields_of(event))


def event_from_dict(data: dict[str, Any], game: GameDefinition | None = None) -> Event:
    """The inverse of :func:`event_to_dict` (``raw`` comes back empty). Given ``game``, a
    function event's ``meaning`` is the one that definition assigns to its label (as the
    parser sets it); else it stays as written."""
    cls = EVENT_BY_KIND[data["kind"]]
    values: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in data.items()
        if key not in ("kind", "raw")
    }
    if game is not None and "label" in values and "meaning" in values:
        values["meaning"] = game.meanings().get(values["label"])
    return cls(**values)


PROVENANCE = frozenset({"line", "raw", "timestamp", "seconds"})
