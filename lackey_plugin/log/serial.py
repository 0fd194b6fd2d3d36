"""Events as JSON-ready dicts and back (``zcards log parse --format jsonl``).

A log can hold millions of events, so each event class's field names are looked up once
(:func:`_field_names`) and one JSON encoder serves every event (:func:`event_to_json`).
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from lackey_plugin.game import Meaning
from lackey_plugin.log.events import EVENT_BY_KIND, Event

_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _field_names(cls: type[Event]) -> tuple[str, ...]:
    """The event class's own fields, in order (looked up once per class)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(item.name for item in fields(cls) if item.name not in PROVENANCE)
        _FIELD_NAMES[cls] = names
    return names


def _fields_of(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {
        "kind": event.kind,
        "line": event.line,
        "timestamp": event.timestamp,
        "seconds": event.seconds,
    }
    for name in _field_names(type(event)):
        data[name] = getattr(event, name)
    return data


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``kind``, provenance (without ``raw``), then the event's fields."""
    data = _fields_of(event)
    for name, value in data.items():
        if isinstance(value, tuple):
            data[name] = list(value)
    return data


_ENCODER = json.JSONEncoder(ensure_ascii=False)


def event_to_json(event: Event) -> str:
    """:func:`event_to_dict` as one line of compact JSON (tuples are written as arrays)."""
    return _ENCODER.encode(_fields_of(event))


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of :func:`event_to_dict` (``raw`` comes back empty)."""
    cls = EVENT_BY_KIND[data["kind"]]
    values: dict[str, Any] = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in data.items()
        if key not in ("kind", "raw")
    }
    if values.get("meaning") is not None:
        values["meaning"] = Meaning(values["meaning"])
    return cls(**values)


PROVENANCE = frozenset({"line", "raw", "timestamp", "seconds"})
