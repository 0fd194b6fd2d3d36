"""The template an unreadable line most resembles: what a person reading the report needs to
see what the line was meant to be (a misspelt verb, a wording of another Lackey version).

The comparison is by words: a template's literal words against the line's, placeholders
standing for any one word, the actor at the line's start replaced by ``{player}`` when it is
a known name. Cheap (a line is compared with each template once) and only run on lines the
parser could not read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import NamedTuple

from lackey_plugin.log.templates import Literal, Placeholder, Template, default_templates

__all__ = ["Resemblance", "actor_of", "nearest_template"]

MIN_SCORE = 0.3  # below it a line resembles no template
COMPARED = 12  # templates compared word by word: those sharing the most words with the line
MAX_WORDS = 40  # words of a line compared (no template has more)
_ANY = "\x00"  # a placeholder's word: equal to nothing, so it only keeps the words in line


class Resemblance(NamedTuple):
    """The nearest template and how close the line comes (0 to 1)."""

    template: Template
    score: float


def actor_of(text: str, players: Iterable[str]) -> str | None:
    """The known player whose name begins the line (longest name first), else None."""
    for name in sorted(players, key=len, reverse=True):
        if name and text.startswith(name + " "):
            return name
    return None


def nearest_template(
    text: str,
    players: Iterable[str] = (),
    templates: Sequence[Template] | None = None,
) -> Resemblance | None:
    """The template ``text`` resembles most (None when no word of it matches any)."""
    actor = actor_of(text, players)
    if actor is not None:
        text = "{player}" + text[len(actor) :]
    return _nearest(text, tuple(templates) if templates is not None else default_templates())


@lru_cache(maxsize=1024)
def _nearest(text: str, templates: tuple[Template, ...]) -> Resemblance | None:
    words = _words(text)[:MAX_WORDS]
    present = set(words)
    # the templates sharing the most words with the line are the only ones compared in full
    verb = words[1] if len(words) > 1 and words[0] == "{player}" else ""
    shapes = [(template, _shape(template)) for template in templates]
    shapes.sort(key=lambda pair: -len(present.intersection(pair[1])))
    # and those whose verb the line's second word may misspell ("discrads")
    alike = [p for p in shapes[COMPARED:] if verb and len(p[1]) > 1 and _close(verb, p[1][1])]
    best: Resemblance | None = None
    for template, shape in shapes[:COMPARED] + alike:
        said = sum(token != _ANY for token in shape)  # the template's own words
        # one word more in the denominator: a template of few words (chat) matches a lot
        score = (said - _distance(words, shape)) / (said + 1)
        if score >= MIN_SCORE and (best is None or score > best.score):
            best = Resemblance(template, score)
    return best


def _distance(words: tuple[str, ...], shape: tuple[str, ...]) -> float:
    """Edit distance in words, a placeholder taking any run of words (none too) for free and
    a misspelt word (most letters the same) costing half a word."""
    row = [float(j) for j in range(len(words) + 1)]  # shape[:0] against words[:j]
    for token in shape:
        if token == _ANY:
            best = row[0]
            new = [best]
            for j in range(1, len(words) + 1):
                best = min(best, row[j])
                new.append(best)
        else:
            new = [row[0] + 1]
            for j, word in enumerate(words, 1):
                cost = 0.0 if word == token else 0.5 if _close(word, token) else 1.0
                new.append(min(row[j - 1] + cost, row[j] + 1, new[j - 1] + 1))
        row = new
    return row[-1]


@lru_cache(maxsize=65536)
def _close(one: str, other: str) -> bool:
    return SequenceMatcher(None, one, other).ratio() >= 0.7


@lru_cache(maxsize=512)
def _shape(template: Template) -> tuple[str, ...]:
    """The template as words: its literal words, a placeholder as one word of its own
    (optional segments left out)."""
    words: list[str] = []
    for part in template.parts:  # an optional segment may be missing: it is left out
        if isinstance(part, Literal):
            words += _words(part.text)
        elif isinstance(part, Placeholder):
            words.append("{player}" if part.field == "player" else _ANY)
    return tuple(words)


def _words(text: str) -> tuple[str, ...]:
    """Lower-case words without their punctuation (punctuation alone is no word)."""
    stripped = (word.strip(".,:;!?()#'\"").lower() for word in text.split())
    return tuple(word for word in stripped if word)
