"""Compile the line templates of ``templates.toml`` into one regex and into line writers.

The wording lives in the TOML file; this module knows only the small template language
(``{field:type}``, ``[optional]``) and what each placeholder type matches and writes. Parser
and writer share the compiled :class:`Template` objects, so they cannot drift apart.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from lackey_plugin.game import GameDefinition
from lackey_plugin.log import events as ev

TEMPLATES_FILE = Path(__file__).with_name("templates.toml")

REFLEXIVE = {"his": "himself", "their": "themselves", "her": "herself"}
PRONOUNS = tuple(REFLEXIVE)
# Fallbacks for words the vocabulary does not know. Only the actor may be any text without ':';
# an owner or target name stops at the first apostrophe and a zone holds no apostrophe, so a
# crafted line cannot make the regex try every split (names with apostrophes must be known).
# No pattern crosses a line break: the parser appends its table of known names after one.
_GENERIC = {
    "actor": r"[^:\n]+?",
    "name": r"[^:'\n]+?",
    "zone": r"[^\s.,:()'](?:[^\s.,:()']| (?!to |from |at |where ))*?",
    "label": r"[^()\n]+?",
    "stat": r"[^:()'\n]+?",
    "phase": r".+?",
}
KNOWN_NAME = "(?#known name)"
"""Where a name placeholder tries the known names (longest first) before its fallback: the
matcher turns each mark into a lookup in the table of names after the line, so names are
data, not part of the regex (see :mod:`lackey_plugin.log.matcher`)."""
_AUDIENCE = {
    "everyone but it's owner": "others",
    "everyone but its owner": "others",
    "everyone": "everyone",
    "all players": "all",
    "it's owner": "owner",
    "its owner": "owner",
    "himself": "self",
    "themselves": "self",
    "herself": "self",
}
_AUDIENCE_TEXT = {
    "others": "everyone but it's owner",
    "everyone": "everyone",
    "all": "all players",
    "owner": "it's owner",
}
_COUNT_ITEM = r"[^():,\n]+: -?\d+"

MAX_NUMBER = 10**9
"""Largest magnitude of a number in a log line (a count, stat, die, position, modifier): no
game comes near it, and the bound keeps every consumer's arithmetic small. A line holding a
larger number is not read as an event (see :class:`NumberOutOfRange`)."""


class NumberOutOfRange(ValueError):
    """A number in a log line beyond :data:`MAX_NUMBER`; ``text`` is the number as written."""

    def __init__(self, text: str) -> None:
        super().__init__(f"number {text} is outside -{MAX_NUMBER:,}..{MAX_NUMBER:,}")
        self.text = text


def _number(text: str) -> int:
    """An int within :data:`MAX_NUMBER` (the length check first: no big-number parsing)."""
    digits = text.strip()
    if len(digits) <= 11:
        value = int(digits)
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
    raise NumberOutOfRange(digits)


def _bounded_text(text: str) -> str:
    """A number kept as written (``1.5``, ``+2 to each``) once its whole part is in range."""
    _number(re.split(r"[. ]", text, maxsplit=1)[0])
    return text


def _alternation(texts: Iterable[str]) -> str:
    return "|".join(re.escape(text) for text in sorted(texts, key=len, reverse=True))


def _position(prefix: str, ends: tuple[str, str]) -> tuple[str, Callable, Callable]:
    """``from``/``to`` positions: "from the top of", "at position 3 of", plain "from"…"""
    at = "at position" if prefix == "from" else "to position"
    pattern = rf"{prefix} the top of|{prefix} the bottom of|{at} \d+ of|{prefix}"
    said: dict[str, ev.Position] = {prefix: None, **{f"{prefix} the {end} of": end for end in ends}}

    def parse(text: str) -> ev.Position:
        return said[text] if text in said else _number(text.split()[2])

    def write(value: ev.Position, _context: WriteContext) -> str:
        if value is None:
            return prefix
        if isinstance(value, int):
            return f"{at} {value} of"
        if value not in ends:
            raise ValueError(f"position {value!r} is not 'top', 'bottom', an int or None")
        return f"{prefix} the {value} of"

    return pattern, parse, write


def _parse_counts(text: str) -> dict[str, int]:
    counts = {}
    for item in text.split(", "):
        zone, _, count = item.rpartition(": ")
        counts[zone] = _number(count)
    return counts


def _write_counts(value: dict[str, int] | None, _context: WriteContext) -> str:
    if not value:
        return ""
    return " (" + ", ".join(f"{zone}: {count}" for zone, count in value.items()) + ")"


def _write_whose(owner: str, context: WriteContext) -> str:
    return context.pronoun if owner == context.player else f"{owner}'s"


def _write_audience(value: str, context: WriteContext) -> str:
    return REFLEXIVE[context.pronoun] if value == "self" else _AUDIENCE_TEXT[value]


@dataclass(frozen=True)
class WriteContext:
    """What a placeholder needs besides its value: the actor (for "his") and the pronoun."""

    player: str | None
    pronoun: str = "his"


@dataclass(frozen=True)
class PlaceholderType:
    """How one placeholder type matches (``pattern``), reads and writes its value.

    ``vocab`` names a vocabulary (names, zones…) whose known entries are tried first;
    ``says_none`` when None is a value it can write (plain "from", no count suffix);
    ``frame`` wraps the captured value (``{}``) in text that goes with it."""

    pattern: str
    parse: Callable[[str], Any] | None = None
    write: Callable[[Any, WriteContext], str] = lambda value, _context: str(value)
    vocab: str | None = None
    says_none: bool = False
    frame: str = "{}"


_FROM = _position("from", ("top", "bottom"))
_TO = _position("to", ("top", "bottom"))
_PRON = "|".join(PRONOUNS)

TYPES: dict[str, PlaceholderType] = {
    "name": PlaceholderType("{name}", vocab="name"),
    "whose": PlaceholderType(
        rf"{_PRON}|(?:{{name}})'s",
        lambda text: text[:-2] if text.endswith("'s") else None,
        _write_whose,
        vocab="name",
    ),
    "pron": PlaceholderType(_PRON, write=lambda _value, context: context.pronoun),
    "card": PlaceholderType(r".+?"),
    "text": PlaceholderType(r".*"),
    "int": PlaceholderType(r"-?\d+", _number),
    "delta": PlaceholderType(r"[+-]\d+", _number, lambda value, _context: f"{value:+d}"),
    "ints": PlaceholderType(
        r"-?\d+(?:, ?-?\d+)*",
        lambda text: tuple(map(_number, text.split(","))),
        lambda value, _context: ",".join(str(item) for item in value),
    ),
    "coins": PlaceholderType(
        r"(?:HEADS|TAILS)(?:, ?(?:HEADS|TAILS))*",
        lambda text: tuple(map(str.strip, text.split(","))),
        lambda value, _context: ",".join(value),
    ),
    "num": PlaceholderType(r"-?\d+(?:\.\d+)?", _bounded_text),
    "mod": PlaceholderType(r"[+-]\d+(?: to each)?", _bounded_text),
    "zone": PlaceholderType("{zone}", vocab="zone"),
    "label": PlaceholderType("{label}", vocab="label"),
    "stat": PlaceholderType("{stat}", vocab="stat"),
    "phase": PlaceholderType("{phase}", vocab="phase"),
    "from": PlaceholderType(*_FROM, says_none=True),
    "to": PlaceholderType(*_TO, says_none=True),
    "end": PlaceholderType("top|bottom"),
    "put": PlaceholderType(
        "the top of|the bottom of",
        lambda text: text.split()[1],
        lambda value, _context: f"the {value} of",
    ),
    "audience": PlaceholderType(_alternation(_AUDIENCE), _AUDIENCE.get, _write_audience),
    "counts": PlaceholderType(
        rf"{_COUNT_ITEM}(?:, {_COUNT_ITEM})*",
        _parse_counts,
        _write_counts,
        says_none=True,
        frame=r"(?: \({}\))?",
    ),
}


@dataclass(frozen=True)
class Literal:
    text: str


@dataclass(frozen=True)
class Placeholder:
    field: str | None
    type: str


@dataclass(frozen=True)
class Optional:
    parts: tuple[Literal | Placeholder, ...]


Part = Literal | Placeholder | Optional
_TOKEN = re.compile(r"\{(\w*):(\w+)\}|\{(player)\}|(\[)|(\])|([^{}\[\]]+)")


def _parse_line(line: str, where: str) -> tuple[Part, ...]:
    """Split a template line into literals, placeholders and optional segments."""
    parts: list[Part] = []
    optional: list[Literal | Placeholder] | None = None
    position = 0
    while position < len(line):
        token = _TOKEN.match(line, position)
        if token is None:
            raise ValueError(f"{where}: bad template syntax at {line[position:]!r}")
        position = token.end()
        field_name, type_name, player, opening, closing, text = token.groups()
        if opening or closing:
            if (optional is None) != bool(opening):
                raise ValueError(f"{where}: unbalanced [ ] in {line!r}")
            if closing and optional is not None:
                parts.append(Optional(tuple(optional)))
            optional = [] if opening else None
            continue
        if text is not None:
            part: Literal | Placeholder = Literal(text)
        elif player:
            part = Placeholder("player", "name")
        else:
            if type_name not in TYPES:
                raise ValueError(f"{where}: unknown placeholder type {type_name!r}")
            part = Placeholder(field_name or None, type_name)
        (parts if optional is None else optional).append(part)
    if optional is not None:
        raise ValueError(f"{where}: unclosed [ in {line!r}")
    return tuple(parts)


def _flat(parts: Iterable[Part]) -> Iterable[tuple[Literal | Placeholder, bool]]:
    for part in parts:
        if isinstance(part, Optional):
            yield from ((inner, True) for inner in part.parts)
        else:
            yield part, False


@dataclass(frozen=True)
class Template:
    """One compiled wording: its family, event class, parts, constants and flags (hashable,
    so the matcher can cache what it derives from a template)."""

    name: str
    family: str
    event: type[ev.Event]
    line: str
    parts: tuple[Part, ...]
    constants: dict[str, Any] = field(hash=False)
    learn: bool

    @property
    def actor_first(self) -> bool:
        """True when the line starts ``{player} ``: such templates share one actor group."""
        first = self.parts[0] if self.parts else None
        return (
            isinstance(first, Placeholder)
            and first.field == "player"
            and len(self.parts) > 1
            and isinstance(self.parts[1], Literal)
            and self.parts[1].text.startswith(" ")
        )

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(
            p.field for p, _ in _flat(self.parts) if isinstance(p, Placeholder) and p.field
        )

    @property
    def required(self) -> frozenset[str]:
        return frozenset(
            p.field
            for p, optional in _flat(self.parts)
            if isinstance(p, Placeholder)
            and p.field
            and not optional
            and not TYPES[p.type].says_none
        )


def _check(template: Template) -> None:
    known = {f.name for f in fields(template.event)}
    unknown = (template.fields | set(template.constants)) - known
    if template.event is not ev.System and unknown:
        raise ValueError(
            f"template {template.name}: {sorted(unknown)} not in {template.event.__name__}"
        )
    both = template.fields & set(template.constants)
    if both:
        raise ValueError(f"template {template.name}: {sorted(both)} both matched and set")


def load_templates(path: Path = TEMPLATES_FILE) -> tuple[Template, ...]:
    """Read and check the template table, in file order (the order the parser tries)."""
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    templates = []
    for family, spec in table.items():
        for entry in spec["templates"]:
            event_name = entry.get("event", spec.get("event"))
            template = Template(
                name=entry["name"],
                family=family,
                event=ev.EVENT_BY_NAME[event_name],
                line=entry["line"],
                parts=_parse_line(entry["line"], f"{path}: {entry['name']}"),
                constants=dict(entry.get("set", {})),
                learn=bool(entry.get("learn", False)),
            )
            _check(template)
            templates.append(template)
    return tuple(templates)


@cache
def default_templates() -> tuple[Template, ...]:
    return load_templates()


@dataclass(frozen=True)
class Vocabulary:
    """Known names and labels, tried longest first before any-text fallbacks."""

    names: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    stats: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: GameDefinition, names: Iterable[str] = ()) -> Vocabulary:
        labels = tuple(function.label for function in game.functions)
        return cls(tuple(names), game.zone_labels, labels, game.stat_labels, game.phases)

    def fragment(self, vocab: str) -> str:
        """The pattern of one vocabulary: known entries longest first, then the fallback;
        names are a :data:`KNOWN_NAME` mark (looked up in the parser's table of names)."""
        if vocab in ("actor", "name"):
            return f"{KNOWN_NAME}|{_GENERIC[vocab]}"
        known = {
            "zone": self.zones,
            "label": self.labels,
            "stat": self.stats,
            "phase": self.phases,
        }[vocab]
        return "|".join(filter(None, (_alternation(known), _GENERIC[vocab])))


def placeholder_pattern(placeholder: Placeholder, vocabulary: Vocabulary) -> str:
    kind = TYPES[placeholder.type]
    if kind.vocab is None:
        return kind.pattern
    return kind.pattern.replace("{" + kind.vocab + "}", vocabulary.fragment(kind.vocab))


def default_of(event: type[ev.Event]) -> dict[str, Any]:
    """Compared fields of an event class and their defaults (MISSING when required)."""
    return {f.name: f.default for f in fields(event) if f.compare}
