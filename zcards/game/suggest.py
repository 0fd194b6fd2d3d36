"""Rows proposed for sentences no row reads (``zcards rules suggest``).

A designer's sentence is often a common phrasing with a qualifier or in another order: "Once
per turn, during your Recoup phase, you may spend {self} to add 1 food." is "Recoup - Spend
{self}: add 1 food." with "Once per turn" before it. Each rewrite below turns such a sentence
towards a phrasing the grammar reads (:mod:`zcards.game.grammar`); the rows it gives are
proposed with the whole sentence as their clause (so they would cover it in full) and with
what the rewrite left out, for the designer to check: a proposal is a draft, never read
without him.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from zcards.game.cards import CardInfo
from zcards.game.effects import Row, row_fields
from zcards.game.grammar import read_sentence

_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), into)
    for pattern, into in (
        (r"^(?:once per (?:turn|game|phase)|each turn|if [^,]*),\s*", ""),
        (r"^whenever\b", "When"),
        (
            r"^during your (\w+) phase,?\s*spend \{self\} (?:to|and)\s+(.*)$",
            r"\1 - Spend {self}: \2",
        ),
        (r"^(\w+)\s*[-:]\s*spend \{self\} (?:to|and)\s+(.*)$", r"\1 - Spend {self}: \2"),
        (r"\bgains? (\d+) food\b", r"add \1 food"),
        (r"\ban extra\b", "a"),
    )
)


@dataclass(frozen=True)
class Proposal:
    """Rows for one unread sentence of a card, and what the rewrite left out of it."""

    card: str
    sentence: str
    rows: tuple[Row, ...]
    dropped: tuple[str, ...]


def propose(infos: Iterable[CardInfo]) -> list[Proposal]:
    """A proposal for each unread sentence a rewrite brings to a phrasing the grammar reads."""
    found = []
    for info in infos:
        for unread in info.text.unread:
            proposal = _proposal(info.name, unread.sentence)
            if proposal is not None:
                found.append(proposal)
    return found


def _proposal(name: str, sentence: str) -> Proposal | None:
    clause = sentence.replace(name, "{self}")
    optional = re.search(r"\byou may\b", clause, re.I) is not None
    text, dropped = re.sub(r"\byou may\s+", "", clause, flags=re.I), []
    for pattern, into in _REWRITES:
        changed = pattern.sub(into, text)
        if changed != text:
            gone = pattern.search(text)
            if gone is not None and not into:
                dropped.append(gone.group().strip(" ,"))
            text = changed[:1].upper() + changed[1:]
        rows = read_sentence(text, "")
        if rows:
            made = tuple(replace(r, clause=clause, optional=r.optional or optional) for r in rows)
            return Proposal(name, sentence, made, tuple(dropped))
    return None


def as_toml(proposals: Iterable[Proposal]) -> str:
    """The proposals as an effects file (the row format of ``zcards/game/effects.toml``)."""
    blocks = []
    for proposal in proposals:
        note = f"# {proposal.card}: proposed for {json.dumps(proposal.sentence)}"
        if proposal.dropped:
            note += "\n# check: the rows leave out " + "; ".join(
                json.dumps(d) for d in proposal.dropped
            )
        for row in proposal.rows:
            fields = "\n".join(f"{k} = {_value(v)}" for k, v in row_fields(row).items())
            blocks.append(f"{note}\n[[row]]\n{fields}\n")
            note = f"# {proposal.card}: the same ability"
    return "\n".join(blocks)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)
