"""Where the rule areas put what they find: violations, unverifiable rules and warnings.

A finding is a violation only when every reading of the log breaks the rule (R17.1); the
sink itself turns a violation into an *unverifiable* finding when the log around it cannot
be trusted: an unread line earlier in the turn that could explain it (its writer's own
findings, or any finding another player's line can change, :data:`OWN_KINDS`), or an
unlogged change of the player's food in that turn (R17.4). End-of-phase violations are
*provisional*: taking back the phase voids them (R3.3), and they count once the turn is over.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, NamedTuple

from lackey_plugin.log import events as ev
from lackey_plugin.log.nearest import actor_of, nearest_template
from zcards.game.catalogue import Kind, Topic, kind_info
from zcards.game.definition import PHASES
from zcards.rules.report import Finding

if TYPE_CHECKING:
    from zcards.rules.context import Clock

MAX_WARNINGS = 50  # warnings of one topic listed per turn

# What only the player's own lines decide (his draws, plays, payments, upgrades, bids): an
# unread line of another player cannot explain such a finding. Every other kind can depend
# on another player's line (fights, card text on another's survivor, infection, turns).
OWN_KINDS = frozenset(
    {
        Kind.DRAW_COUNT,
        Kind.RESOURCE_PLAY,
        Kind.CARD_PLAY,
        Kind.OPENING_SURVIVORS,
        Kind.OPENING_HAND,
        Kind.OPENING_SHUFFLE,
        Kind.ZOMBIE_UPGRADE,
        Kind.BID_RANGE,
        Kind.BID_FOOD,
    }
)
# Template families of lines about the whole table (phases, turns, games), and chat, which
# any line resembles: such a line, even with a player's name at its start, may explain
# anyone's finding.
TABLE_FAMILIES = frozenset(
    {"phase", "turn", "new_game", "game_control", "deck_load", "seat", "chat", "whisper"}
)
# How closely an unread line must resemble a template of a player's own action for the rules
# to take it as one (else it may be anything, a phase line too).
CLEAR_LIKENESS = 0.6


class Unread(NamedTuple):
    """A line of this turn the rules could not read (or lines the log left out)."""

    line: int
    actor: str | None  # the known player its text begins with; None: anyone's
    text: str = ""

    def explains(self, kind: Kind, player: str | None) -> bool:
        """Whether this line could explain ``player``'s finding of ``kind``: unless it is
        clearly an action of another player's own (it begins with his name and resembles a
        template of such an action) and ``kind`` is one only a player's own lines decide."""
        if self.actor in (None, player) or player is None or kind not in OWN_KINDS:
            return True
        return not clearly_own(self.text, self.actor)


def unread_of(event: ev.Unparsed, players: Iterable[str]) -> Unread:
    """The unread line and the known player its text begins with."""
    return Unread(event.line, actor_of(event.text, players), event.text)


def clearly_own(text: str, actor: str) -> bool:
    """``text`` clearly resembles a template of an action of ``actor``'s own (not a line
    about the whole table, such as a phase or turn line; not merely a chat line)."""
    like = nearest_template(text, (actor,))
    return (
        like is not None
        and like.score >= CLEAR_LIKENESS
        and like.template.family not in TABLE_FAMILIES
    )


@dataclass
class Findings:
    """The findings of one replay, in the order they were made."""

    clock: Clock
    violations: list[Finding] = field(default_factory=list)
    unverifiable: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    pending: list[Finding] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)  # unparsed lines of this turn
    seen: set[tuple[object, ...]] = field(default_factory=set)
    # (kind, player, turn) -> why the log cannot decide it (an unlogged change, R17.4)
    doubts: dict[tuple[str, str | None, int], str] = field(default_factory=dict)
    warned: Counter[tuple[str, int]] = field(default_factory=Counter)  # by topic and turn

    def fork(self, clock: Clock) -> Findings:
        """A copy for another reading (findings are immutable: the containers are copied)."""
        return Findings(
            clock,
            list(self.violations),
            list(self.unverifiable),
            list(self.warnings),
            list(self.pending),
            list(self.unread),
            set(self.seen),
            dict(self.doubts),
            Counter(self.warned),
        )

    def _finding(
        self,
        kind: str,
        message: str,
        rule: str | None,
        player: str | None,
        line: int | None,
        text: str | None = None,
        *,
        turn: int | None = None,
        phase: str | None = None,
    ) -> Finding:
        event = self.clock.event
        here = (event.line or None) if event is not None else None
        if line is None:
            line = here
        if text is None:
            text = event.raw if event is not None and line == here else ""
        return Finding(
            str(kind),
            rule,
            line,
            self.clock.number if turn is None else turn,
            self.clock.phase if phase is None else phase,
            player,
            message,
            text,
        )

    def _doubt(self, kind: Kind, player: str | None, turn: int) -> str | None:
        for unread in self.unread:
            if unread.explains(kind, player):
                return f"line {unread.line} of this turn could not be read"
        return self.doubts.get((str(kind), player, turn))

    def violation(
        self,
        kind: Kind,
        message: str,
        *,
        rule: str | None = None,
        player: str | None = None,
        line: int | None = None,
        text: str | None = None,
        provisional: bool = False,
        turn: int | None = None,
        phase: str | None = None,
    ) -> None:
        """Every reading breaks the rule: a violation (unless the log around it is in doubt)."""
        doubt = self._doubt(kind, player, self.clock.number if turn is None else turn)
        if doubt:
            self.cannot_decide(kind, f"{message}; {doubt}", rule=rule, player=player, line=line)
            return
        finding = self._finding(
            kind, message, rule or kind_info(kind).rule, player, line, text, turn=turn, phase=phase
        )
        (self.pending if provisional else self.violations).append(finding)

    def cannot_decide(
        self,
        kind: Kind,
        reason: str,
        *,
        rule: str | None = None,
        player: str | None = None,
        line: int | None = None,
    ) -> None:
        """Once per kind, player, turn and reason: the log cannot decide the rule."""
        key = (kind, player, self.clock.number, reason)
        if key in self.seen:
            return
        self.seen.add(key)
        self.unverifiable.append(
            self._finding(kind, reason, rule or kind_info(kind).rule, player, line)
        )

    def warn(
        self,
        topic: Topic,
        message: str,
        *,
        rule: str | None = None,
        player: str | None = None,
        line: int | None = None,
    ) -> None:
        """A warning; past :data:`MAX_WARNINGS` of one topic in a turn, one more says so and
        the rest are counted only (a log of endless misclicks keeps a bounded report)."""
        key = (str(topic), self.clock.number)
        self.warned[key] += 1
        if self.warned[key] <= MAX_WARNINGS:
            self.warnings.append(self._finding(topic, message, rule, player, line))
        elif self.warned[key] == MAX_WARNINGS + 1:
            self.warnings.append(
                self._finding(
                    topic,
                    f"more than {MAX_WARNINGS} such warnings this turn; not listed",
                    None,
                    player,
                    line,
                )
            )

    def doubt(self, kinds: tuple[Kind, ...], player: str, reason: str) -> None:
        """From now on (and back to the start of this turn) the log cannot decide ``kinds``
        for ``player`` in this turn: an unlogged change touched them (R17.4)."""
        turn = self.clock.number
        for kind in kinds:
            self.doubts.setdefault((str(kind), player, turn), reason)
        moved = [
            f
            for f in (*self.violations, *self.pending)
            if f.turn == turn and f.player == player and f.kind in {str(k) for k in kinds}
        ]
        for finding in moved:
            (self.violations if finding in self.violations else self.pending).remove(finding)
            self.unverifiable.append(replace(finding, message=f"{finding.message}; {reason}"))

    def void(self, kinds: tuple[Kind, ...], player: str, phase: str, after: int = 0) -> int:
        """Drop the violations of ``kinds`` of ``player`` in this turn's ``phase`` (after line
        ``after``): its lines net to a legal change, or to one reported as a whole (R17.3).
        How many there were."""
        turn, names = self.clock.number, {str(kind) for kind in kinds}

        def void(f: Finding) -> bool:
            return (
                f.turn == turn
                and f.phase == phase
                and f.player == player
                and f.kind in names
                and (f.line or 0) > after
            )

        if not any(map(void, self.violations)) and not any(map(void, self.pending)):
            return 0
        before = len(self.violations) + len(self.pending)
        self.violations = [f for f in self.violations if not void(f)]
        self.pending = [f for f in self.pending if not void(f)]
        return before - len(self.violations) - len(self.pending)

    def retract_from(self, phase_index: int) -> None:
        """A phase was taken back: its end-of-phase findings (and later ones) are void (R3.3)."""
        turn = self.clock.number
        self.pending = [
            f
            for f in self.pending
            if not (f.turn == turn and f.phase in PHASES and PHASES.index(f.phase) >= phase_index)
        ]

    def commit_pending(self) -> None:
        self.violations.extend(self.pending)
        self.pending.clear()

    def new_turn(self) -> None:
        self.commit_pending()
        self.unread.clear()
        self.warned.clear()


# Kinds whose findings carry a count forward: a wrong food total stays wrong until the log
# shows it right, so a later finding of it for the same player follows from the first.
COUNT_KINDS = frozenset({Kind.FOOD_TOTAL, Kind.FOOD_LOSS, Kind.FOOD_UPKEEP})


def tie_causes(lists: Sequence[list[Finding]], card_names: re.Pattern[str]) -> None:
    """Tie each finding of one game (``lists``: its violations, its unverifiable findings)
    that follows from an earlier one to it, in place: its ``follows`` is the line of the
    first finding of the chain. A finding follows from another when both name the same card
    (a card the log lost track of shows in every finding about it) or both are the same wrong
    count of the same player. ``card_names`` matches the names of the card data."""
    tagged = sorted(
        (
            (f.line is None, f.line or 0, n, i)
            for n, found in enumerate(lists)
            for i, f in enumerate(found)
        )
    )
    root: dict[tuple[str, str | None], int] = {}  # what a finding is about -> first line
    for _, line, n, i in tagged:
        finding = lists[n][i]
        about: list[tuple[str, str | None]] = [
            (name, None) for name in card_names.findall(f"{finding.message} {finding.text}")
        ]
        if finding.kind in COUNT_KINDS:
            about.append((finding.kind, finding.player))
        earlier = [root[key] for key in about if key in root and root[key] < line]
        first = min(earlier) if earlier else line
        for key in about:
            root.setdefault(key, first)
        if earlier and line:
            lists[n][i] = replace(finding, follows=first)


def names_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """A regex of the card names, longest first, each a whole word (matches nothing when
    there are none)."""
    alternatives = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True) if n)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)" if alternatives else r"(?!)")
