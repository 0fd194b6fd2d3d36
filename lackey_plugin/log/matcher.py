"""One compiled regex for all templates, and the recipe to turn a match into an event.

All templates become alternatives of a single anchored regex, in table order, so the regex
engine (in C) finds the first template that matches. Consecutive templates that start with
``{player} `` share one actor group: known names (longest first), then any name without ':';
after it they are grouped by their first word ("draws ", "performs "), so a line's verb is
compared once, not once per template (lines with different first words cannot both match, so
the grouping keeps the first-match-wins order).

Player names are data, not part of the regex: the parser appends a table of the known names to
each line (:func:`name_table`), and each name placeholder first takes the longest text that
equals an entry of that table (a greedy candidate checked by a lookahead with a back-reference),
then any name. So learning a name compiles nothing, the regex is compiled once per template
table, and known names still win, longest first, exactly as an alternation of them would.
The lookup costs time, and most names do not need it ("Alice Smith" reads the same as any
name): a second regex without it serves every line that holds no ambiguous known name
(:func:`is_ambiguous`).

The same regex reads the line's optional stamp (atomically, so a stamp is never re-read as
text) and refuses, in a lookahead, a line longer than :data:`MAX_LINE` after its stamp: one
regex call per line. Each template's event is then made by a builder generated for it
(:mod:`lackey_plugin.log.builders`), cheaper than the dataclass constructor.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

from lackey_plugin.log import events as ev
from lackey_plugin.log.builders import Builder, builder
from lackey_plugin.log.templates import (
    KNOWN_NAME,
    TYPES,
    Literal,
    Optional,
    Part,
    Placeholder,
    Template,
    Vocabulary,
    placeholder_pattern,
)

STAMP = r"\[((\d{1,2}):([0-5]\d:[0-5]\d))\] ?"
"""A line's ``[H:MM:SS]`` stamp; its groups: the stamp's text, the hours, the ``MM:SS``."""
MAX_LINE = 2000
"""Longest line (after its stamp) a template is tried on: no Lackey line is that long, and the
cap bounds the regex work a crafted line can cause."""
_DAY = 24 * 3600
MAX_KNOWN_NAMES = 256
"""Ambiguous known names (:func:`is_ambiguous`) a line is matched against, the first ones
given or learnt; later ones parse as any name, and the cap bounds the table a line carries."""
_TABLE_MARK = "\x01"


def name_table(names: Iterable[str]) -> str:
    """What the matcher reads after each line: a line break, then each known name between
    ``\x01`` marks (names holding either character cannot be told apart and are left out)."""
    usable = [name for name in names if name and "\n" not in name and _TABLE_MARK not in name]
    return "\n" + _TABLE_MARK + "".join(name + _TABLE_MARK for name in usable[:MAX_KNOWN_NAMES])


class _MinutesSeconds(dict[str, int]):
    """Seconds in the ``MM:SS`` of a stamp: looked up for ASCII digits (one int() call per stamp
    instead of three), computed for the other digits ``\\d`` matches."""

    def __missing__(self, text: str) -> int:
        return int(text[:2]) * 60 + int(text[3:])


_MINUTES_SECONDS = _MinutesSeconds(
    {
        f"{minutes:02d}:{seconds:02d}": minutes * 60 + seconds
        for minutes in range(60)
        for seconds in range(60)
    }
)


class StampClock:
    """Turns a log's stamps, in line order, into seconds since its first day (a stamp earlier
    than the one before means midnight passed)."""

    def __init__(self) -> None:
        self._day = 0
        self._last = -1

    def seconds(self, hours: str, minutes_seconds: str) -> int:
        time = int(hours) * 3600 + _MINUTES_SECONDS[minutes_seconds]
        if time < self._last:
            self._day += 1
        self._last = time
        return self._day * _DAY + time


class Matcher:
    """The compiled form of a template table for one vocabulary of known names and labels."""

    def __init__(
        self, templates: Sequence[Template], vocabulary: Vocabulary, longest: int | None = None
    ) -> None:
        """``longest`` bounds the length of a known name (default: the vocabulary's longest):
        the shorter the bound, the less text the table lookup tries; 0 makes a matcher
        without the lookup (for lines holding no ambiguous known name, see
        :func:`is_ambiguous`)."""
        self.vocabulary = vocabulary
        self.longest = name_bound(vocabulary.names) if longest is None else longest
        self.continuations = name_continuations(templates)
        alternatives: list[str] = []
        run: list[tuple[str, str]] = []
        actor_group: dict[int, str] = {}
        for index, template in enumerate(templates):
            if template.actor_first:
                actor = f"a{len(alternatives)}"
                actor_group[index] = actor
                second = template.parts[1]
                assert isinstance(second, Literal)  # actor_first: "{player} " opens the line
                lead = second.text[1:]
                word = lead[: lead.index(" ") + 1] if " " in lead else ""
                body = self._body(template, index, template.parts[1:], actor, 1 + len(word))
                run.append((word, f"(?P<t{index}>{body})"))
                continue
            self._flush(run, alternatives)
            alternatives.append(f"(?P<t{index}>{self._body(template, index, template.parts)})")
        self._flush(run, alternatives)
        end = r"(?=\n|\Z)"  # the line ends at the table after it, or at the end of the text
        pattern = rf"(?>{STAMP})?()(?=.{{0,{MAX_LINE}}}{end})(?:{'|'.join(alternatives)}){end}"
        self.regex = re.compile(_known_names(pattern, self.continuations, self.longest))
        self.table = name_table(vocabulary.names)
        groups = self.regex.groupindex
        self.plans: dict[int, tuple[Template, Builder]] = {}
        """Template and event builder by the number of the template's own group (a match's
        ``lastindex``: the template's group closes after all groups inside it)."""
        for index, template in enumerate(templates):
            group = actor_group.get(index)
            player = groups[group] if group else groups.get(f"t{index}_player")
            stored = tuple(
                (name, kind, groups[f"t{index}_{name}"])
                for name, kind in _first_fields(template.parts)
                if name != "player"
            )
            self.plans[groups[f"t{index}"]] = (template, builder(template, player, stored))

    def _flush(self, run: list[tuple[str, str]], alternatives: list[str]) -> None:
        if not run:
            return
        by_word: dict[str, list[str]] = {}
        for word, body in run:
            by_word.setdefault(word, []).append(body)
        if "" in by_word:  # a template without a first word: keep plain table order
            branches = [re.escape(word) + body for word, body in run]
        else:
            branches = [
                f"{re.escape(word)}(?:{'|'.join(bodies)})" for word, bodies in by_word.items()
            ]
        names = self.vocabulary.fragment("actor")
        alternatives.append(f"(?P<a{len(alternatives)}>{names}) (?:{'|'.join(branches)})")
        run.clear()

    def _body(
        self,
        template: Template,
        index: int,
        parts: Sequence[Part],
        actor: str | None = None,
        skip: int = 0,
    ) -> str:
        seen: set[str] = set()
        out = []
        for position, part in enumerate(parts):
            if isinstance(part, Optional):
                inner = "".join(self._piece(p, index, seen, actor) for p in part.parts)
                out.append(f"(?:{inner})?")
            elif position == 0 and actor and isinstance(part, Literal):
                out.append(re.escape(part.text[skip:]))
            else:
                out.append(self._piece(part, index, seen, actor))
        return "".join(out)

    def _piece(
        self, part: Literal | Placeholder, index: int, seen: set[str], actor: str | None
    ) -> str:
        if isinstance(part, Literal):
            return re.escape(part.text)
        pattern = placeholder_pattern(part, self.vocabulary)
        if part.field is None:
            return f"(?:{pattern})"
        if part.field == "player" and actor:
            return f"(?P={actor})"
        group = f"t{index}_{part.field}"
        if part.field in seen:
            return f"(?P={group})"
        seen.add(part.field)
        return TYPES[part.type].frame.replace("{}", f"(?P<{group}>{pattern})")

    def event(
        self, line: str, meanings: dict[str, str], number: int = 0, clock: StampClock | None = None
    ) -> tuple[ev.Event | None, Template | None]:
        """The event a stripped ``line`` says, and its template; ``(None, None)`` when nothing
        matches. ``clock`` reads its stamp (a fresh one by default)."""
        match = self.regex.match(line + self.table if self.longest else line)
        if match is None:
            return None, None
        template, build = self.plans[match.lastindex or 0]
        return build(match, number, line, meanings, (clock or StampClock()).seconds), template


def name_continuations(templates: Iterable[Template]) -> tuple[str, ...] | None:
    """The literal text that follows each name placeholder (``" draws "``, ``"'s "``…), or
    None when some name may be followed by anything (another placeholder, an optional part,
    the end of the line, or the name is optional itself): then every name is ambiguous."""
    found: set[str] = set()
    for template in templates:
        parts = template.parts
        for position, part in enumerate(parts):
            if isinstance(part, Optional):
                if any(_is_name(inner) for inner in part.parts):
                    return None
                continue
            if not _is_name(part):
                continue
            after = parts[position + 1] if position + 1 < len(parts) else None
            text = after.text if isinstance(after, Literal) else ""
            if isinstance(part, Placeholder) and part.type == "whose":
                text = "'s" + text  # the pattern itself ends "'s"
            if not text:
                return None
            found.add(text)
    return tuple(sorted(found))


def _is_name(part: Part) -> bool:
    return isinstance(part, Placeholder) and TYPES[part.type].vocab == "name"


def is_ambiguous(name: str, continuations: tuple[str, ...] | None) -> bool:
    """True when the any-name patterns could read ``name`` differently from the name itself:
    it holds a character they refuse (``:``, ``'``), or one of its proper prefixes is followed,
    inside the name, by text that could continue a line after a name ("The Man who" in
    "The Man who plays"). Only lines holding such names need the table lookup; for the others
    the first split the any-name patterns try that can continue is the whole name, the very
    one a known name would give."""
    if ":" in name or "'" in name or continuations is None:
        return True
    return any(
        rest.startswith(text) or text.startswith(rest)
        for cut in range(1, len(name))
        for rest in (name[cut:],)
        for text in continuations
    )


def name_bound(names: Iterable[str]) -> int:
    """A power of two at least as long as every name (at least 16): few distinct regexes."""
    longest = max((len(name) for name in names), default=0)
    return max(16, 1 << (longest - 1).bit_length())


def _known_names(pattern: str, continuations: tuple[str, ...] | None, longest: int) -> str:
    """Each :data:`KNOWN_NAME` mark becomes a lookup of the longest known name here (the
    greedy candidate shrinks until it is followed by what follows a name and equals an entry
    of the table after the line); ``longest`` 0 drops the marks (any-name patterns only)."""
    if not longest:
        return pattern.replace(KNOWN_NAME + "|", "")
    numbers = itertools.count()
    followers = "".join(sorted({re.escape(text[0]) for text in continuations or ()}))

    def lookup(_mark: re.Match[str]) -> str:
        group = f"k{next(numbers)}"
        check = f"(?=[^\\n]*\\n.*?{_TABLE_MARK}(?P={group}){_TABLE_MARK})"
        follow = f"(?=[{followers}])" if continuations else ""
        return f"(?P<{group}>[^\\n]{{1,{longest}}}){follow}{check}"

    return re.sub(re.escape(KNOWN_NAME), lookup, pattern)


def _first_fields(parts: Sequence[Part]) -> list[tuple[str, str]]:
    """(field, type) of each stored placeholder, first use only, in line order."""
    found: dict[str, str] = {}
    for part in parts:
        for inner in part.parts if isinstance(part, Optional) else (part,):
            if isinstance(inner, Placeholder) and inner.field and inner.field not in found:
                found[inner.field] = inner.type
    return list(found.items())
