"""A turn line is evidence, not proof (R17.10): one that names a player the turn order does
not allow (R13.2) may be the misclick, the play after it says which. The auditor keeps both
readings until the next turn line; these are the reading's two halves."""

from __future__ import annotations

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Topic
from zcards.rules.reading import Reading


def expected_instead(replay: Reading, event: ev.TurnChange) -> str | None:
    """The player ``replay`` expects to take the turn when ``event`` names someone the turn
    order does not allow; None when the turn line fits (or the order is not known)."""
    clock = replay.clock
    if not clock.known or clock.number < 1 or clock.active is None:
        return None
    allowed = replay.table.next_in_turn_order(clock.active)
    return allowed[0] if allowed and event.active not in allowed else None


def misnamed(replay: Reading, event: ev.TurnChange, expected: str) -> Reading:
    """A copy of ``replay`` in which the turn line names the wrong player and ``expected``
    takes the turn (fed the turn line with his name), with a warning that says so."""
    fork = replay.fork()
    fork.misnamed += 1
    fork.clock.event = event
    fork.assumptions.append(f"the turn line {event.line} misnames {expected}")
    fork.findings.warn(
        Topic.TURN_LINE,
        f"the turn line names {event.active}, but the play shows {expected}'s turn: read as "
        "a misclick (R17.10)",
        rule="R17.10",
        player=event.player,
    )
    return fork
