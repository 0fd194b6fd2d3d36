"""Anchored name regexes as index ranges: ``name:/^Rusty Crow/`` reads the name index.

A ``/regex/`` is tested by Python's ``re`` on every row: at a million cards that is a scan
with a million calls. When the regex starts with ``^`` and plain text, every match starts
with that text, and ``LIKE 'text%'`` finds those names through the case-blind name index
(SQLite's LIKE optimisation turns it into a range of ``idx_cards_name_nocase``).

The ranges must hold every name the regex matches. ``re.IGNORECASE`` matches a few
non-ASCII letters with ASCII ones (``ſ`` with ``s``, the Kelvin sign with ``k``, ``İ`` and
``ı`` with ``i``) while LIKE folds ASCII case only, so each such letter adds a range; the text
is cut where the ranges would grow past :data:`MAX_RANGES` or at its first other non-ASCII
character. When the regex is nothing but the text, the ranges are the whole test; otherwise the
regex still checks the names the ranges found.
"""

from __future__ import annotations

MAX_RANGES = 8
"""Most LIKE ranges one anchored regex becomes (each is a search of the name index)."""
CASE_TWINS = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}
"""ASCII letter -> the non-ASCII characters ``re.IGNORECASE`` also matches with it."""
_SPECIAL = set(".^$*+?{}[]\\|()")
_QUANTIFIERS = set("*+?{")
_ESCAPED_LITERAL = {chr(code) for code in range(32, 127) if not chr(code).isalnum()}
"""Characters a backslash makes literal (``re`` gives an escaped letter or digit a meaning)."""


def literal_prefix(pattern: str) -> tuple[str, bool]:
    """The plain text every match of ``pattern`` starts with (``""``: none known), and
    whether the pattern is that text and nothing else (``^text``)."""
    if not pattern.startswith("^") or _has_alternation(pattern):
        return "", False
    chars: list[str] = []
    position = 1
    while position < len(pattern):
        char = pattern[position]
        if char == "\\" and pattern[position + 1 : position + 2] in _ESCAPED_LITERAL:
            literal, after = pattern[position + 1], position + 2
        elif char in _SPECIAL:
            break
        else:
            literal, after = char, position + 1
        if pattern[after : after + 1] in _QUANTIFIERS:
            break  # a repeated or optional character need not be there once
        chars.append(literal)
        position = after
    return "".join(chars), position == len(pattern)


def _has_alternation(pattern: str) -> bool:
    """Whether ``pattern`` has a ``|`` outside groups and character classes (then ``^``
    anchors only the first branch)."""
    position, in_class, depth = 0, False, 0
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            position += 1
        elif char == "[" and not in_class:
            in_class = True
            position += pattern.startswith("^", position + 1)
            position += pattern.startswith("]", position + 1)  # a first "]" is a member
        elif char == "]":
            in_class = False
        elif not in_class and char in "()":
            depth += 1 if char == "(" else -1
        elif char == "|" and not in_class and depth == 0:
            return True
        position += 1
    return False


def like_ranges(prefix: str) -> tuple[list[str], bool]:
    """LIKE patterns (``\\`` escapes) whose matches together hold every string that
    starts with ``prefix`` ignoring case as ``re`` does, and whether all of ``prefix`` is in
    them ([] when not even its first character can be)."""
    if not prefix:
        return [], False
    variants = [""]
    for count, char in enumerate(prefix):
        options = char + CASE_TWINS.get(char.lower(), "")
        if not char.isascii() or len(variants) * len(options) > MAX_RANGES:
            return ([variant + "%" for variant in variants] if count else []), False
        variants = [variant + _escape(option) for variant in variants for option in options]
    return [variant + "%" for variant in variants], True


def _escape(char: str) -> str:
    return "\\" + char if char in "\\%_" else char
