"""Events as JSON-ready dicts and back (``zcards log parse --format jsonl``)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from lackey_plugin.game import Meaning
from lackey_plugin.log.events import EVENT_BY_KIND, Event


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-ready dict: ``kind``, provenance (without ``raw``), then the event's fields."""
    data: dict[str, Any] = {
        "kind": event.kind,
        "line": event.line,
        "timestamp": event.timestamp,
        "seconds": event.seconds,
    }
    for item in fields(event):
        if item.name not in PROVENANCE:
            value = getattr(event, item.name)
            data[item.name] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of :func:`event_to_dict` (``raw`` comes back empty)."""
    cls = EVENT_BY_KIND[data["kind"]]
    values = {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in data.items()
        if key not in ("kind", "raw")
    }
    if values.get("meaning") is not None:
        values["meaning"] = Meaning(values["meaning"])
    return cls(**values)


PROVENANCE = frozenset({"line", "raw", "timestamp", "seconds"})
