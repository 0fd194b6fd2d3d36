"""Recording styles: the ways real players record a game, written by the simulator.

A style changes how a game is *recorded*, never how it is played: the game's actions stay
the same and every style still records a legal game under the audit contract (see
docs/log-protocol.md, "How the simulator writes games"). A style may drop lines players
often do not produce (``starts a new game.``, the turn-1 line, bid chat), write bids in the
forms people type, add immediate misclick corrections, log a non-active player's draws just
before the phase line (phase-line lag), and add spectators' and players' small talk.

:func:`recording` turns a game's actions into the lines of its log, each line either a game
action (written per point of view by the recorder) or a ready event only the recording adds,
with the index of the action it comes from (None for a line no game action made).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from lackey_plugin.log import events as ev
from zcards.game.definition import DRAW_PHASE, FOOD_STAT, HAND, ZOMBIE_GAME, Meaning
from zcards.sim.actions import Action, ActionKind

PROTOCOL_BIDS, CHAT_BIDS, SILENT_BIDS = "protocol", "chat", "silent"
BID_STYLES = (PROTOCOL_BIDS, CHAT_BIDS, SILENT_BIDS)
BID_FORMS = ("bid {}", "I bid {} food", "{}", "I'll bid {}", "bid: {}", "my bid is {}")
CORRECTION_RATE = 0.08  # chance that a player misclicks at one place that allows it
LAG_RATE = 0.5  # chance that a turn's non-active player draws before the Draw phase line
FACE_DOWN_CARD = "a face-down card"

Line = tuple[Action | ev.Event, int | None]


@dataclass(frozen=True)
class RecordingStyle:
    """How one game is recorded; the default is the strict protocol of docs/log-protocol.md."""

    new_game_line: bool = True  # ``starts a new game.`` (players often just sit down and play)
    turn_one_line: bool = True  # Lackey's counter starts at 1: many logs begin at ``#2``
    bids: str = PROTOCOL_BIDS  # ``bid N``; the forms people type; or no bid chat at all
    timestamps: bool = False  # ``[H:MM:SS]`` before every line
    corrections: bool = False  # misclicks undone at once by their exact inverse
    phase_lag: bool = False  # a non-active player's draws logged before ``Ready -> Draw``
    spectators: bool = False  # a spectator's chat, the players' small talk
    pronoun: str = "his"  # "his" (2014 builds) or "their"


PROTOCOL = RecordingStyle()
STYLES: dict[str, RecordingStyle] = {
    "protocol": PROTOCOL,
    "no-new-game": RecordingStyle(new_game_line=False),
    "no-turn-one": RecordingStyle(turn_one_line=False),
    "chat-bids": RecordingStyle(bids=CHAT_BIDS),
    "silent-bids": RecordingStyle(bids=SILENT_BIDS),
    "timestamps": RecordingStyle(timestamps=True),
    "corrections": RecordingStyle(corrections=True),
    "phase-lag": RecordingStyle(phase_lag=True),
    "spectators": RecordingStyle(spectators=True),
    "their": RecordingStyle(pronoun="their"),
}
MIXED = "mixed"
STYLE_NAMES = (*STYLES, MIXED)


def resolve_style(name: str, seed: int) -> RecordingStyle:
    """The style of one game: a named style, or (``mixed``) each choice drawn from its seed."""
    if name != MIXED:
        return STYLES[name]
    rng = random.Random(f"zcards-sim-mixed/{seed}")
    return RecordingStyle(
        new_game_line=rng.random() < 0.5,
        turn_one_line=rng.random() < 0.5,
        bids=rng.choice(BID_STYLES),
        timestamps=rng.random() < 0.5,
        corrections=rng.random() < 0.5,
        phase_lag=rng.random() < 0.5,
        spectators=rng.random() < 0.5,
        pronoun=rng.choice(("his", "their")),
    )


def recording(actions: Sequence[Action], style: RecordingStyle, seed: int) -> list[Line]:
    """The lines of a game's log in ``style``; the same for every point of view (a table's
    clicks are logged alike for all its players), so decisions depend on the seed only."""
    rng = random.Random(f"zcards-sim-style/{seed}")
    lines: list[Line] = []
    for index in _lagged_order(actions, rng) if style.phase_lag else range(len(actions)):
        action = actions[index]
        if not _recorded(action, style):
            continue
        if style.corrections:
            lines.extend((event, None) for event in _misclick_before(action, actions, index, rng))
        if action.kind is ActionKind.BID and style.bids == CHAT_BIDS:
            lines.append((ev.Chat(action.player, rng.choice(BID_FORMS).format(action.new)), index))
        else:
            lines.append((action, index))
        if style.corrections:
            lines.extend((event, None) for event in _misclick_after(action, actions, index, rng))
    if style.spectators:
        lines = _with_small_talk(lines, actions, rng)
    return lines


def _recorded(action: Action, style: RecordingStyle) -> bool:
    if action.kind is ActionKind.NEW_GAME:
        return style.new_game_line
    if action.kind is ActionKind.NEXT_TURN and action.new == 1:
        return style.turn_one_line
    if action.kind is ActionKind.BID:
        return style.bids != SILENT_BIDS
    return True


# -- phase-line lag ------------------------------------------------------------------------


def _lagged_order(actions: Sequence[Action], rng: random.Random) -> list[int]:
    """Action indices in log order: some non-active players' draws move before the
    ``Ready -> Draw`` line, with no action of the Ready phase after them."""
    moved: dict[int, list[int]] = {}
    for index, action in enumerate(actions):
        if action.kind is ActionKind.NEXT_PHASE and action.new == DRAW_PHASE:
            group = _non_active_draws(actions, index)
            if group and rng.random() < LAG_RATE:
                moved[index] = group
    late = {index for group in moved.values() for index in group}
    order: list[int] = []
    for index in range(len(actions)):
        if index not in late:
            order.extend(moved.get(index, ()))
            order.append(index)
    return order


def _non_active_draws(actions: Sequence[Action], phase_line: int) -> list[int]:
    """The non-active player's draws of this Draw phase, when his discard follows them (a
    player whose deck runs out while drawing loses there and the log may end)."""
    active = actions[phase_line].player
    index = phase_line + 1
    while index < len(actions) and actions[index].kind is not ActionKind.NEXT_PHASE:
        action = actions[index]
        if action.player != active and action.kind in (ActionKind.DRAW, ActionKind.DRAW_MANY):
            end = index + 1
            while end < len(actions) and actions[end].kind is ActionKind.DRAW:
                end += 1
            follows = actions[end] if end < len(actions) else None
            if follows is None or (follows.kind, follows.player) != (
                ActionKind.DISCARD,
                action.player,
            ):
                return []
            return list(range(index, end))
        index += 1
    return []


# -- immediate corrections -----------------------------------------------------------------


def _misclick_before(
    action: Action, actions: Sequence[Action], index: int, rng: random.Random
) -> list[ev.Event]:
    """A misclick undone at once, logged before ``action``: a card spent and readied, a zombie
    sent to combat and back, or a card played face up and moved straight back to the hand."""
    kind, player = action.kind, action.player
    if kind not in (ActionKind.SPEND, ActionKind.PLAY_RESOURCE, ActionKind.DISCARD):
        return []
    if rng.random() >= CORRECTION_RATE:
        return []
    shown = shown_card(action)
    if kind is ActionKind.SPEND:
        following = actions[index + 1] if index + 1 < len(actions) else None
        to_combat = following is not None and following.kind is ActionKind.TO_COMBAT
        if to_combat and rng.random() < 0.5:
            return _oops(
                rng,
                player,
                ev.CounterChange.of(player, Meaning.TO_COMBAT, shown, 0, 1, game=ZOMBIE_GAME),
                ev.CounterChange.of(player, Meaning.LEAVE_COMBAT, shown, 1, 0, game=ZOMBIE_GAME),
            )
        return _oops(
            rng,
            player,
            ev.Perform.of(player, Meaning.SPEND, shown, game=ZOMBIE_GAME),
            ev.Perform.of(player, Meaning.READY, shown, game=ZOMBIE_GAME),
        )
    card = str(action.card)  # played face up by mistake: every log sees its name
    return _oops(
        rng,
        player,
        ev.Play(player, card, player, HAND),
        ev.TableToZone(player, card, player, HAND),
    )


def _misclick_after(
    action: Action, actions: Sequence[Action], index: int, rng: random.Random
) -> list[ev.Event]:
    """A counter or food click repeated and taken back at once, logged after ``action``."""
    following = actions[index + 1] if index + 1 < len(actions) else None
    if following is None or rng.random() >= CORRECTION_RATE:
        return []
    player, old, new = action.player, action.old, action.new
    if not (isinstance(old, int) and isinstance(new, int)):
        return []
    step = new - old
    if action.kind is ActionKind.SET_FOOD and abs(step) == 1 and new + step >= 0:
        target = action.other
        return _oops(
            rng,
            player,
            ev.StatChange(player, FOOD_STAT, new, new + step, target=target),
            ev.StatChange(player, FOOD_STAT, new + step, new, target=target),
        )
    pairs = {
        ActionKind.WOUND: (Meaning.WOUND, Meaning.HEAL),
        ActionKind.HEAL: (Meaning.HEAL, Meaning.WOUND),
        ActionKind.INFECT: (Meaning.INFECT, Meaning.CURE),
    }
    if action.kind not in pairs or new + step < 0 or following.card == action.card:
        return []  # not before the card's death or a Fierce fight's next wound; no heal below 0
    again, back = pairs[action.kind]
    shown = shown_card(action)
    return _oops(
        rng,
        player,
        ev.CounterChange.of(player, again, shown, new, new + step, game=ZOMBIE_GAME),
        ev.CounterChange.of(player, back, shown, new + step, new, game=ZOMBIE_GAME),
    )


def _oops(rng: random.Random, player: str, *pair: ev.Event) -> list[ev.Event]:
    """The misclick and its undoing; now and then the player says so in chat."""
    if rng.random() < 0.3:
        return [*pair, ev.Chat(player, rng.choice(("oops", "misclick", "sorry, wrong card")))]
    return list(pair)


def shown_card(action: Action) -> str:
    """The card as a function line shows it: face-down table cards are hidden in every log."""
    return FACE_DOWN_CARD if action.face_down else str(action.card)


# -- small talk ----------------------------------------------------------------------------

SPECTATOR_NAMES = ("Carol", "Dave", "Eve")
SPECTATOR_TALK = ("gl hf", "nice", "ouch", "lol", "go go go", "bid 3", "7", "that was close")


def _with_small_talk(
    lines: list[Line], actions: Sequence[Action], rng: random.Random
) -> list[Line]:
    """A spectator joins after the seats and chats now and then; the players greet at the
    start and say ``gg`` at the end. Chat never changes the game."""
    players = list(dict.fromkeys(a.player for a in actions if a.kind is ActionKind.SIT))
    spectator = next(name for name in SPECTATOR_NAMES if name not in players)
    seated = len(players)  # the seat lines open every log
    talk: dict[int, list[ev.Event]] = {
        seated: [ev.Seat(spectator, "spectate"), ev.Chat(rng.choice(players), "gl hf")]
    }
    for _ in range(rng.randint(1, 4)):
        position = rng.randint(seated, len(lines))
        talk.setdefault(position, []).append(ev.Chat(spectator, rng.choice(SPECTATOR_TALK)))
    talk.setdefault(len(lines), []).append(ev.Chat(rng.choice(players), "gg"))
    merged: list[Line] = []
    for position in range(len(lines) + 1):
        merged.extend((event, None) for event in talk.get(position, ()))
        if position < len(lines):
            merged.append(lines[position])
    return merged
