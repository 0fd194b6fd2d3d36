"""Events -> the exact Lackey log lines (the simulator writes logs with this).

For each event the writer picks the first template of its class (in ``templates.toml`` order)
that can say it: its constants equal the event's fields, every field it needs is set, and every
field it cannot say still has its default. The parser reads the same templates, so
``parse(write(events)) == events``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import MISSING
from typing import Any, TextIO

from lackey_plugin.files import atomic_text
from lackey_plugin.log import events as ev
from lackey_plugin.log.templates import (
    REFLEXIVE,
    TYPES,
    Literal,
    Optional,
    Placeholder,
    Template,
    WriteContext,
    default_of,
    default_templates,
)

_Piece = tuple[str | None, Any]  # (None, literal text) or (field, its type's writer)


class _Plan:
    """A template prepared for writing: what it fixes, needs and cannot say, and its pieces
    (an optional segment is written when all of its fields are set)."""

    def __init__(self, template: Template) -> None:
        self.template = template
        self.constants = tuple(template.constants.items())
        self.required = tuple(template.required)
        self.unsaid = tuple(
            (name, default)
            for name, default in default_of(template.event).items()
            if name not in template.fields and name not in template.constants
        )
        self.pieces: list[_Piece | tuple[tuple[str, ...], list[_Piece]]] = []
        for part in template.parts:
            if isinstance(part, Optional):
                needs = tuple(p.field for p in part.parts if isinstance(p, Placeholder) and p.field)
                self.pieces.append((needs, [_piece(p) for p in part.parts]))
            else:
                self.pieces.append(_piece(part))

    def fits(self, event: ev.Event) -> bool:
        for name, value in self.constants:
            if getattr(event, name) != value:
                return False
        for name in self.required:
            if getattr(event, name) is None:
                return False
        for name, default in self.unsaid:
            if default is MISSING or getattr(event, name) != default:
                return False
        return True

    def write(self, event: ev.Event, context: WriteContext) -> str:
        out: list[str] = []
        for first, second in self.pieces:
            if isinstance(first, tuple):
                if all(getattr(event, name) is not None for name in first):
                    out.extend(_write(piece, event, context) for piece in second)
            else:
                out.append(_write((first, second), event, context))
        return "".join(out)


def _piece(part: Literal | Placeholder) -> _Piece:
    if isinstance(part, Literal):
        return None, part.text
    return part.field or "", TYPES[part.type].write


def _write(piece: _Piece, event: ev.Event, context: WriteContext) -> str:
    field, value = piece
    if field is None:
        return value
    return value(getattr(event, field) if field else None, context)


class LogWriter:
    """Writes events as Lackey lines with one pronoun (``his`` as in 2014 builds, or ``their``)."""

    def __init__(
        self, *, pronoun: str = "his", templates: Iterable[Template] | None = None
    ) -> None:
        if pronoun not in REFLEXIVE:
            raise ValueError(f"pronoun must be one of {sorted(REFLEXIVE)}, not {pronoun!r}")
        self.pronoun = pronoun
        self._plans: dict[type[ev.Event], list[_Plan]] = {}
        for template in templates if templates is not None else default_templates():
            self._plans.setdefault(template.event, []).append(_Plan(template))

    def line(self, event: ev.Event) -> str:
        """The log line for ``event``, with ``[H:MM:SS] `` first when it has a timestamp.

        Raises ValueError when no template can say the event (e.g. ``Draw(count=2, card=X)``)
        or when a field would break the line (a line break in a card name)."""
        text = event.text if isinstance(event, ev.System | ev.Unparsed) else self._sentence(event)
        if "\n" in text or "\r" in text:
            raise ValueError(f"a line break in {event!r} would split the log line")
        return f"[{event.timestamp}] {text}" if event.timestamp else text

    def _sentence(self, event: ev.Event) -> str:
        context = WriteContext(getattr(event, "player", None), self.pronoun)
        for plan in self._plans.get(type(event), ()):
            if plan.fits(event):
                return plan.write(event, context)
        raise ValueError(f"no log template can write {event!r}")

    def lines(self, events: Iterable[ev.Event]) -> Iterator[str]:
        return (self.line(event) for event in events)


def format_line(event: ev.Event, *, pronoun: str = "his") -> str:
    return LogWriter(pronoun=pronoun).line(event)


def format_log(events: Iterable[ev.Event], *, pronoun: str = "his") -> str:
    """The whole log as text, one line per event, LF line ends."""
    return "".join(line + "\n" for line in LogWriter(pronoun=pronoun).lines(events))


def write_log(
    events: Iterable[ev.Event],
    target: str | os.PathLike | TextIO,
    *,
    pronoun: str = "his",
    encoding: str = "utf-8",
) -> int:
    """Write events to a file (atomically: temp file, then rename) or an open text stream.

    Returns the number of lines written."""
    writer = LogWriter(pronoun=pronoun)
    if not isinstance(target, str | os.PathLike):
        return _write_lines(writer.lines(events), target)
    with atomic_text(target, encoding) as handle:
        return _write_lines(writer.lines(events), handle)


def _write_lines(lines: Iterable[str], stream: TextIO) -> int:
    count = 0
    for line in lines:
        stream.write(line + "\n")
        count += 1
    return count
