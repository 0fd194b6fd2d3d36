"""One compiled regex for all templates, and the recipe to turn a match into an event.

All templates become alternatives of a single anchored regex, in table order, so the regex
engine (in C) finds the first template that matches. Consecutive templates that start with
``{player} `` share one actor group: known names (longest first), then any name without ':';
after it they are grouped by their first word ("draws ", "performs "), so a line's verb is
compared once, not once per template (lines with different first words cannot both match, so
the grouping keeps the first-match-wins order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lackey_plugin.game import Meaning
from lackey_plugin.log import events as ev
from lackey_plugin.log.builders import Builder, builder
from lackey_plugin.log.templates import (
    TYPES,
    Literal,
    Optional,
    Part,
    Placeholder,
    Template,
    Vocabulary,
    placeholder_pattern,
)


class Matcher:
    """The compiled form of a template table for one vocabulary of known names and labels."""

    def __init__(self, templates: Sequence[Template], vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        alternatives: list[str] = []
        run: list[tuple[str, str]] = []
        actor_group: dict[int, str] = {}
        for index, template in enumerate(templates):
            if template.actor_first:
                actor = f"a{len(alternatives)}"
                actor_group[index] = actor
                lead = template.parts[1].text[1:]
                word = lead[:lead.index(" ") + 1] if " " in lead else ""
                body = self._body(template, index, template.parts[1:], actor, 1 + len(word))
                run.append((word, f"(?P<t{index}>{body})"))
                continue
            self._flush(run, alternatives)
            alternatives.append(f"(?P<t{index}>{self._body(template, index, template.parts)})")
        self._flush(run, alternatives)
        self.regex = re.compile("^(?:" + "|".join(alternatives) + ")$")
        groups = self.regex.groupindex
        self.plans: dict[int, tuple[Template, Builder]] = {}
        """Template and event builder by the number of the template's own group (a match's
        ``lastindex``: the template's group closes after all groups inside it)."""
        for index, template in enumerate(templates):
            actor = actor_group.get(index)
            player = groups[actor] if actor else groups.get(f"t{index}_player")
            stored = tuple((name, kind, groups[f"t{index}_{name}"])
                           for name, kind in _first_fields(template.parts) if name != "player")
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
            branches = [f"{re.escape(word)}(?:{'|'.join(bodies)})"
                        for word, bodies in by_word.items()]
        names = self.vocabulary.fragment("actor")
        alternatives.append(f"(?P<a{len(alternatives)}>{names}) (?:{'|'.join(branches)})")
        run.clear()

    def _body(self, template: Template, index: int, parts: Sequence[Part],
              actor: str | None = None, skip: int = 0) -> str:
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

    def _piece(self, part: Literal | Placeholder, index: int, seen: set[str],
               actor: str | None) -> str:
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

    def event(self, body: str, meanings: dict[str, Meaning], line: int = 0, raw: str = "",
              timestamp: str | None = None, seconds: int | None = None,
              ) -> tuple[ev.Event | None, Template | None]:
        """The event ``body`` says, and its template; ``(None, None)`` when nothing matches.

        The provenance (line, raw, timestamp, seconds) goes into the event as given."""
        match = self.regex.match(body)
        if match is None:
            return None, None
        template, build = self.plans[match.lastindex]
        return build(match, line, raw, timestamp, seconds, meanings), template


def _first_fields(parts: Sequence[Part]) -> list[tuple[str, str]]:
    """(field, type) of each stored placeholder, first use only, in line order."""
    found: dict[str, str] = {}
    for part in parts:
        for inner in part.parts if isinstance(part, Optional) else (part,):
            if isinstance(inner, Placeholder) and inner.field and inner.field not in found:
                found[inner.field] = inner.type
    return list(found.items())
