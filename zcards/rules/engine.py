"""The rules engine: replay the typed events of a log (``lackey_plugin.log.events``) and report
every rule violation (docs/rules.md).

The :class:`Auditor` splits the log into games (R17.7), removes immediate corrections
(R17.3), and drives one :class:`~zcards.rules.replay.Replay` per reading still open: turn 1
without a turn line is replayed once for every player who may have taken it (R17.10), and a
finding is a violation only if every reading that is not worse in every respect breaks the
rule (R17.1); the others' findings are *unverifiable*, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sized
from dataclasses import replace

from lackey_plugin.log import events as ev
from zcards.decks import Deck
from zcards.model import Card
from zcards.rules.cards import CardIndex
from zcards.rules.context import ACTIONS, Corrected
from zcards.rules.replay import Replay
from zcards.rules.report import AuditReport, Finding, Loss
from zcards.rules.state import TableState
from zcards.rules.stream import Item, corrected

__all__ = ["Auditor", "audit"]


class Auditor:
    """One audit of one log."""

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
        self.players = list(players or ())
        self.report = AuditReport(pov=pov)
        self.items: list[Item] = []
        self.replays: list[Replay] = []
        self.games = 0
        self.turns = 0
        self.losses: list[Loss] = []
        self._pov_guess: str | None = None

    def run(self, events: Iterable[ev.Event]) -> AuditReport:
        self.items = corrected(events)
        self.replays = [self._new_replay(None)]
        for index, item in enumerate(self.items):
            event = item.second if isinstance(item, Corrected) else item
            self.report.lines = max(self.report.lines, event.line)
            if isinstance(item, ev.Unparsed):
                self.report.unparsed.append(item.line)
            elif isinstance(item, ev.Draw):
                self._attribute_pov(item)
            if self._starts_game(item, index):
                old = self.replays[0].table
                self._end_game()
                self.replays = [self._new_replay(old)]
            if isinstance(item, ev.GameControl) and item.action in ("save", "load"):
                self._saved_game(item)
                continue
            self._step(item, index)
        self._end_game()
        return self._finish()

    # -- games (R17.7) -----------------------------------------------------------------------

    def _new_replay(self, previous: TableState | None) -> Replay:
        """A game's replay; seats and names carry over from the game before."""
        replay = Replay(self.cards, self.items, decks=self.decks, started=previous is not None)
        table = replay.table
        for name in self.players:
            table.player(name).playing = True
        for name in previous.order if previous is not None else ():
            old, me = previous.players[name], table.player(name)  # type: ignore[union-attr]
            me.seat, me.playing, me.spectator = old.seat, old.playing, old.spectator
        return replay

    def _starts_game(self, item: Item, index: int) -> bool:
        """A new game starts at ``starts a new game.``, at ``clears the table.`` followed by
        deck loads, or at deck loads after turns were played (a rematch)."""
        if isinstance(item, ev.NewGame):
            return True
        if isinstance(item, ev.DeckLoad):
            return self.replays[0].clock.number >= 1
        if isinstance(item, ev.GameControl) and item.action == "clear":
            for later in self.items[index + 1 :]:
                if isinstance(later, ev.DeckLoad):
                    return True
                if isinstance(later, (*ACTIONS, ev.PhaseChange, ev.TurnChange)):
                    return False
        return False

    def _end_game(self) -> None:
        for replay in self.replays:
            replay.finish()
        if len(self.replays) > 1:
            self._resolve()
        replay = self.replays[0]
        self._flush(replay)
        if replay.touched:
            self.games += 1
            self.turns += replay.clock.number
            self.losses += replay.table.losses

    def _saved_game(self, item: ev.GameControl) -> None:
        """R17.8: a save keeps the state of that moment; a load restores it."""
        if len(self.replays) > 1:
            self._resolve()
        if item.action == "save":
            for replay in self.replays:
                replay.save(item.file)
        else:
            for replay in self.replays:
                replay.clock.event = item
                replay.touched = True
            self.replays = [replay.load(item.file) for replay in self.replays]

    # -- readings of turn 1 (R17.10) ---------------------------------------------------------

    def _step(self, item: Item, index: int) -> None:
        if len(self.replays) == 1:
            replay = self.replays[0]
            candidates = replay.prepare(item, index)
            if candidates:
                self._flush(replay)
                self.replays = [replay.reading(name) for name in candidates]
        for replay in self.replays:
            replay.feed(item, index)
        if len(self.replays) > 1 and isinstance(item, ev.TurnChange):
            self._resolve()

    def _resolve(self) -> None:
        """Who took turn 1 is settled as far as the log can settle it: keep the readings no
        other reading beats (fewer violations, all shared), report what they all break as
        violations and what only some break as unverifiable."""
        replays = self.replays
        keys = [frozenset((f.kind, f.line) for f in r.findings.violations) for r in replays]
        kept = [i for i, k in enumerate(keys) if not any(other < k for other in keys)]
        common = frozenset.intersection(*(keys[i] for i in kept))
        best = min(kept, key=lambda i: (len(keys[i]), -replays[i].active_guess, i))
        chosen = replays[best]
        names = " or ".join(str(replays[i].turn1) for i in kept)
        unverifiable: dict[tuple[object, ...], Finding] = {}
        for i in kept:
            findings = replays[i].findings
            for finding in findings.undecided:
                unverifiable.setdefault((finding.kind, finding.line, finding.message), finding)
            for finding in findings.violations:
                if (finding.kind, finding.line) not in common:
                    doubt = replace(
                        finding,
                        message=f"{finding.message}; only if {replays[i].turn1} took turn 1, "
                        f"and the log does not say whether {names} did",
                    )
                    unverifiable.setdefault((doubt.kind, doubt.line, doubt.message), doubt)
        findings = chosen.findings
        findings.violations = [f for f in findings.violations if (f.kind, f.line) in common]
        findings.undecided = list(unverifiable.values())
        for i in kept:
            if i != best:
                for name, me in replays[i].table.players.items():
                    if name in chosen.table.players:
                        chosen.table.players[name].zombies.merge(me.zombies)
        self.replays = [chosen]

    # -- the report ----------------------------------------------------------------------------

    def _flush(self, replay: Replay) -> None:
        findings = replay.findings
        self.report.violations += findings.violations
        self.report.unverifiable += findings.undecided
        self.report.warnings += findings.warnings
        findings.violations, findings.undecided, findings.warnings = [], [], []

    def _attribute_pov(self, event: ev.Draw) -> None:
        if self._pov_guess is None and event.count == 1 and event.card and not event.hidden:
            self._pov_guess = event.player

    def _finish(self) -> AuditReport:
        report = self.report
        table = self.replays[0].table
        report.players = [n for n in table.order if table.players[n].playing]
        report.games = max(1, self.games)
        report.turns = self.turns
        report.remaining = [p.name for p in table.in_game()]
        report.losses = list(self.losses)
        for bucket in (report.violations, report.unverifiable, report.warnings):
            bucket.sort(key=lambda f: (f.line or 0, f.kind))
        if report.pov is None:
            report.pov = self._pov_guess
        return report


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
    return Auditor(index, players=players, pov=pov, decks=sizes).run(events)
