"""Replay the typed events of a log (``lackey_plugin.log.events``) and check every rule.

The engine is split by rule area into mixins (turns, plays, combat, recoup); this module
holds what they share: findings, the dispatch table, seats and setup, losing (R14) and the
``audit`` entry point. Findings follow R17.1: a *violation* only when no reading of the log
is legal, otherwise *unverifiable* with the reason.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sized
from typing import Any

from lackey_plugin.log import events as ev
from zcards.decks import Deck
from zcards.model import Card
from zcards.rules.cards import CardIndex, Effect
from zcards.rules.checks_combat import AttackLedger, CombatRules
from zcards.rules.checks_play import PlayRules
from zcards.rules.checks_recoup import RecoupRules
from zcards.rules.checks_turn import TurnRules
from zcards.rules.functions import FunctionRules
from zcards.rules.report import AuditReport, Finding, Loss
from zcards.rules.state import PHASES, SETUP, GameState
from zcards.rules.violations import Kind, kind_info

_BID = re.compile(r"^\s*bid\s+(-?\d+)\s*$", re.I)
# Events that are game actions of their actor (R14.2); phase and turn lines are bookkeeping.
_ACTIONS = (
    ev.Draw,
    ev.Move,
    ev.Play,
    ev.TableToZone,
    ev.Perform,
    ev.PerformAll,
    ev.CounterChange,
    ev.Face,
    ev.CardAction,
    ev.StatChange,
    ev.DiceRoll,
    ev.Spawn,
)


class Engine(TurnRules, PlayRules, FunctionRules, CombatRules, RecoupRules):
    """One replay of one log."""

    def __init__(
        self,
        cards: CardIndex,
        *,
        players: Iterable[str] | None = None,
        pov: str | None = None,
        decks: Mapping[str, int] | None = None,
    ) -> None:
        self.cards = cards
        self.decks = dict(decks or {})
        self.state = GameState()
        self.report = AuditReport(pov=pov)
        self.event: ev.Event | None = None
        self._pending: list[tuple[int, str, Finding]] = []  # end-of-phase findings (R3.3)
        self._seen: set[tuple] = set()
        self.opening_cost: Counter[str] = Counter()
        self.attack = AttackLedger()
        self._losses: list[Loss] = []
        self.opened: dict[str, int] = {}  # setup: the line where a player's opening ended (R2.4)
        self.after_opening: dict[str, list[ev.Event]] = {}  # his actions after that line
        self._games = 0
        self._turns_before = 0  # turns of the earlier games in this log
        self._pov_guess: str | None = None
        for name in players or ():
            self.state.player(name).playing = True
        self._reset_turn()
        self._dispatch = {
            ev.Seat: self.on_seat,
            ev.NewGame: self.on_new_game,
            ev.DeckLoad: self.on_deck_load,
            ev.Chat: self.on_chat,
            ev.Unparsed: self.on_unparsed,
            ev.GameControl: self.on_game_control,
            ev.TurnChange: self.on_turn,
            ev.PhaseChange: self.on_phase,
            ev.Draw: self.on_draw,
            ev.Move: self.on_move,
            ev.Play: self.on_play,
            ev.TableToZone: self.on_table_to_zone,
            ev.Perform: self.on_perform,
            ev.PerformAll: self.on_perform_all,
            ev.CounterChange: self.on_counter,
            ev.Face: self.on_face,
            ev.CardAction: self.on_card_action,
            ev.StatChange: self.on_stat,
            ev.DiceRoll: self.on_dice,
            ev.Spawn: self.on_spawn,
            ev.Shuffle: self.on_shuffle,
        }

    # -- findings ------------------------------------------------------------------------

    def _finding(
        self,
        kind: str,
        message: str,
        rule: str | None,
        player: str | None,
        line: int | None,
        text: str | None = None,
    ) -> Finding:
        event = self.event
        if line is None and event is not None:
            line = event.line or None
        if text is None:
            text = event.raw if event is not None and line == (event.line or None) else ""
        return Finding(
            str(kind), rule, line, self.state.turn, self.state.phase, player, message, text
        )

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
    ) -> None:
        doubt = (
            "the log does not show the game from its start (or a saved game was loaded)"
            if not self.state.started
            else f"line {self.unread[0]} of this turn could not be read"
            if self.unread
            else None
        )
        if doubt:
            self.unverifiable(kind, f"{message}; {doubt}", rule=rule, player=player, line=line)
            return
        finding = self._finding(kind, message, rule or kind_info(kind).rule, player, line, text)
        if provisional:
            self._pending.append((self.state.turn, self.state.phase, finding))
        else:
            self.report.violations.append(finding)

    def unverifiable(
        self,
        kind: Kind,
        reason: str,
        *,
        rule: str | None = None,
        player: str | None = None,
        line: int | None = None,
    ) -> None:
        """Once per kind, player, turn and reason: the log cannot decide the rule."""
        key = (kind, player, self.state.turn, reason)
        if key in self._seen:
            return
        self._seen.add(key)
        self.report.unverifiable.append(
            self._finding(kind, reason, rule or kind_info(kind).rule, player, line)
        )

    def warn(
        self, topic: str, message: str, *, rule: str | None = None, player: str | None = None
    ) -> None:
        self.report.warnings.append(self._finding(topic, message, rule, player, None))

    def check_or_doubt(
        self,
        kind: Kind,
        message: str,
        names: Iterable[str],
        effects: Effect | Iterable[Effect],
        **where: Any,
    ) -> None:
        """A violation, unless one of ``names`` has text that could explain it (R16.1)."""
        flagged = self.cards.flagged(names, effects)
        if flagged:
            self.unverifiable(
                kind, f"{message}; card text of {', '.join(flagged)} may allow it", **where
            )
        else:
            self.violation(kind, message, **where)

    def retract_from(self, phase_index: int) -> None:
        """A phase was taken back: its end-of-phase findings (and later ones) are void (R3.3)."""
        turn = self.state.turn
        self._pending = [
            (t, p, f)
            for t, p, f in self._pending
            if not (t == turn and p in PHASES and PHASES.index(p) >= phase_index)
        ]

    def commit_pending(self) -> None:
        self.report.violations.extend(finding for _, _, finding in self._pending)
        self._pending.clear()

    # -- replay --------------------------------------------------------------------------

    def run(self, events: Iterable[ev.Event]) -> AuditReport:
        report = self.report
        for event in events:
            self.event = event
            report.lines = max(report.lines, event.line)
            actor = getattr(event, "player", None)
            if isinstance(event, _ACTIONS) and actor and actor in self.state.players:
                me = self.state.players[actor]
                if me.lost is not None:
                    when = f"on turn {me.lost_turn}" if me.lost_turn else "at setup"
                    self.violation(
                        Kind.ACTION_AFTER_LOSS,
                        f"{actor} lost {when} ({me.lost}) but acts again",
                        player=actor,
                    )
                elif self.state.turn == 0 and actor in self.opened:
                    self.after_opening.setdefault(actor, []).append(event)
            handler = self._dispatch.get(type(event))
            if handler is not None:
                handler(event)
            self.check_losses()
        # The log may stop mid-phase (saved early, or the game is over): nothing more is due.
        self.event = None
        return self.finish()

    def finish(self) -> AuditReport:
        self.setup_losses()
        self.commit_pending()
        report, state = self.report, self.state
        report.players = state.order
        report.games = max(1, self._games)
        report.turns = self._turns_before + state.turn
        report.remaining = [p.name for p in state.in_game()]
        report.losses = list(self._losses)
        for bucket in (report.violations, report.unverifiable, report.warnings):
            bucket.sort(key=lambda f: (f.line or 0, f.kind))
        if report.pov is None:
            report.pov = self._pov_guess
        return report

    # -- seats, setup, losing -------------------------------------------------------------

    def on_unparsed(self, event: ev.Unparsed) -> None:
        """An unread line may be a missing action: this turn's findings become doubts."""
        self.report.unparsed.append(event.line)
        self.unread.append(event.line)

    def on_seat(self, event: ev.Seat) -> None:
        if event.action == "sit":
            me = self.state.player(event.player)
            me.seat, me.playing = event.seat, True

    def on_new_game(self, event: ev.NewGame) -> None:
        """A new game starts from scratch; seats and the players' names carry over."""
        old = self.state
        self.setup_losses()
        self.commit_pending()
        self._games += 1
        self._turns_before += old.turn
        self.state = GameState(started=True)
        self.opening_cost = Counter()
        self.opened, self.after_opening = {}, {}
        for name in old.order:
            me = self.state.player(name)
            me.seat, me.playing = old.players[name].seat, old.players[name].playing
        self._reset_turn()

    def on_game_control(self, event: ev.GameControl) -> None:
        """A loaded saved game replaces the table with one the log does not show."""
        if event.action == "load":
            self.state.started = False
            self.warn(
                "saved-game",
                "a saved game was loaded: the table is unknown from here, "
                "so findings that depend on it are unverifiable",
                player=event.player,
            )

    def on_deck_load(self, event: ev.DeckLoad) -> None:
        me = self.state.player(event.player)
        me.playing = True
        me.deck = self.decks.get(event.player)
        me.hand = 0
        me.hand_names.clear()

    def on_chat(self, event: ev.Chat) -> None:
        match = _BID.match(event.text)
        if match and self.state.phase == SETUP:
            bid = int(match.group(1))
            if not 0 <= bid <= 10:
                self.warn("bid", f"bid {bid} is outside 0..10", rule="R2.1", player=event.player)

    def on_spawn(self, event: ev.Spawn) -> None:
        self.warn(
            "spawn", "a spawned card is outside the rules; it is not tracked", player=event.player
        )

    def lose(self, name: str, reason: str, line: int | None = None) -> None:
        me = self.state.players[name]
        me.lost, me.lost_turn = reason, self.state.turn
        me.lost_line = line or (self.event.line if self.event is not None else None) or None
        self._losses.append(Loss(name, me.lost_turn, me.lost_line, reason))

    def on_shuffle(self, event: ev.Shuffle) -> None:
        """R2.4: a player shuffles his deck after drawing his hand and putting out his opening
        survivors; that shuffle ends his opening."""
        state = self.state
        owner = state.players.get(event.owner or event.player)
        if (
            owner is not None
            and state.started
            and state.turn == 0
            and event.zone == "Deck"
            and owner.hand
        ):
            self.opened[owner.name] = event.line

    def setup_losses(self, *, setup_over: bool = False) -> None:
        """R2.5: a player with no opening survivor has lost at setup (turn 0), at the shuffle
        that ended his opening, and any action of his after it broke R14.2. Decided at the
        turn-1 line (``setup_over``: also for a player who never shuffled) or, for a log or
        game that stops before it (the game was over), at its end."""
        state = self.state
        if not state.started or state.turn != 0:
            return
        for me in state.in_game():
            if not me.playing or me.survivors:
                continue
            if me.name in self.opened:
                line = self.opened[me.name]
                self.lose(me.name, "no survivors", line)
                for late in self.after_opening.get(me.name, ()):
                    self.violation(
                        Kind.ACTION_AFTER_LOSS,
                        f"{me.name} put out no survivor, "
                        f"so he lost at setup (line {line}), but acts again",
                        player=me.name,
                        line=late.line,
                        text=late.raw,
                    )
            elif setup_over:
                self.lose(me.name, "no survivors")

    def check_losses(self) -> None:
        """R14.1: no survivors after setup, or an empty deck."""
        state = self.state
        for me in state.players.values():
            if me.lost is not None:
                continue
            if me.deck == 0:
                self.lose(me.name, "empty deck")
            elif state.started and state.turn >= 1 and me.playing and not me.survivors:
                self.lose(me.name, "no survivors")

    def attribute_pov(self, event: ev.Draw) -> None:
        if self._pov_guess is None and event.count == 1 and event.card and not event.hidden:
            self._pov_guess = event.player


def _deck_size(deck: int | Sized | Deck) -> int:
    if isinstance(deck, int):
        return deck
    return deck.total if isinstance(deck, Deck) else len(deck)


def audit(
    events: Iterable[ev.Event],
    cards: Iterable[Card] | CardIndex,
    *,
    players: Iterable[str] | None = None,
    pov: str | None = None,
    decks: Mapping[str, int | Sized | Deck] | None = None,
) -> AuditReport:
    """Replay ``events`` (a parsed log) and report every rule violation (docs/rules.md).

    ``cards`` is the card data (a list of :class:`~zcards.model.Card`); ``players`` fixes the
    turn order when seats are not logged; ``pov`` names the log's saver; ``decks`` gives each
    player's deck (its size, a list of cards, or a :class:`~zcards.decks.Deck`), which makes
    losing by an empty deck checkable.
    """
    index = cards if isinstance(cards, CardIndex) else CardIndex(cards)
    sizes = {name: _deck_size(deck) for name, deck in (decks or {}).items()}
    return Engine(index, players=players, pov=pov, decks=sizes).run(events)
