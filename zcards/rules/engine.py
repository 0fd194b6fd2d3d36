"""The rules engine: replay the typed events of a log (``lackey_plugin.log.events``) and report
every rule violation (docs/rules.md).

The :class:`Auditor` splits the log into games (R17.7), removes immediate corrections
(R17.3), and drives one :class:`~zcards.rules.reading.Reading` per reading still open: turn 1
without a turn line is replayed once for every player who may have taken it (R17.10), and a
finding is a violation only if every reading that is not worse in every respect breaks the
rule (R17.1); the others' findings are *unverifiable*, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from dataclasses import replace

from lackey_plugin.dek import Deck
from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.game.cards import CardIndex
from zcards.game.table import Table
from zcards.rules.context import ACTIONS
from zcards.rules.findings import names_pattern, tie_causes
from zcards.rules.reading import Reading
from zcards.rules.report import AuditReport, Finding, Loss
from zcards.rules.saved_table import restored
from zcards.rules.turn_lines import expected_instead, misnamed
from zcards.rules.window import LOOKAHEAD, Window

__all__ = ["Auditor", "audit"]


# Lines the auditor itself looks at before a reading does: games, saves, the saver's draws.
_BOUNDARY_TYPES = frozenset({ev.Unparsed, ev.Draw, ev.NewGame, ev.DeckLoad, ev.GameControl})
MAX_MISCLICK_READINGS = 8  # readings of the misclick pairs of one turn-1 reading kept open
MAX_READINGS = 32  # readings kept at once: at it, the misclick readings are settled; past it
# (too many turn-1 readings) a pair is read as corrected and players who may have taken turn 1
# are not followed (nothing found then is a violation)

# Told each line once the audit has read it, with the readings then open (zcards.rules.states).
Watcher = Callable[[ev.Event, list[Reading]], None]


class Auditor:
    """One audit of one log."""

    def __init__(
        self,
        cards: CardIndex,
        *,
        players: Iterable[str] | None = None,
        pov: str | None = None,
        decks: Mapping[str, int] | None = None,
        watch: Watcher | None = None,
        start: Table | None = None,
    ) -> None:
        self.cards = cards
        self.start = start  # the table the log starts from (a saved game), if not the setup
        self._names = names_pattern(info.card.name for info in cards.infos())
        self.watch = watch
        self.decks = dict(decks or {})
        self.players = list(players or ())
        self.report = AuditReport(pov=pov)
        self.window = Window(())
        self.replays: list[Reading] = []  # the readings still open of the current game
        self.games = 0
        self.turns = 0
        self.losses: list[Loss] = []
        self._pov_guess: str | None = None
        self._misnamed = False  # readings forked at the last turn line wait for the next
        # the next line after a table clear that decides whether a game starts, and how far
        # the window was searched for it
        self._after_clear: tuple[int | None, int] = (None, -1)
        self._capped: str | None = None  # why some readings were not followed

    def run(self, events: Iterable[ev.Event]) -> AuditReport:
        """Audit the lines as they come (an iterator is read once, a line at a time)."""
        window = self.window = Window(events, self.cards)
        start = self.start
        self.replays = [
            self._new_replay(None)
            if start is None
            else restored(start, Reading(self.cards, window, decks=self.decks, started=True))
        ]
        last = 0
        watch = self.watch
        lines = window.lines() if watch is None else self._watched(window.lines(), watch)
        for index, event, undo in lines:
            if event.line > last:
                last = event.line
            if type(event) in _BOUNDARY_TYPES and self._boundary(event, index):
                continue
            replays = self.replays
            if undo is None and len(replays) == 1 and type(event) is not ev.TurnChange:
                replay = replays[0]
                ctx = replay.ctx
                if ctx.table.turn and ctx.clock.known:  # the common case: one reading
                    replay.feed(event, index)
                    continue
            self._step(event, index, undo)
        self.report.lines = last
        self._end_game()
        return self._finish()

    def _watched(
        self, lines: Iterator[tuple[int, ev.Event, int | None]], watch: Watcher
    ) -> Iterator[tuple[int, ev.Event, int | None]]:
        """The lines, each shown to ``watch`` once the audit has read it (the next line is
        asked for only then)."""
        for line in lines:
            yield line
            watch(line[1], self.replays)

    # -- games (R17.7) -----------------------------------------------------------------------

    def _boundary(self, event: ev.Event, index: int) -> bool:
        """A line that may start a game, save or load one, or name the log's saver: True
        when it is done with (a save or a load)."""
        if isinstance(event, ev.Unparsed):
            self.report.add_unparsed(event.line, event.text, self.replays[0].table.order)
        elif isinstance(event, ev.Draw):
            self._attribute_pov(event)
        if self._starts_game(event, index):
            old = self.replays[0].table
            self._end_game()
            self.replays = [self._new_replay(old)]
        if isinstance(event, ev.GameControl) and event.action in ("save", "load"):
            self._saved_game(event)
            return True
        return False

    def _new_replay(self, previous: Table | None) -> Reading:
        """A game's replay; seats and names carry over from the game before."""
        replay = Reading(self.cards, self.window, decks=self.decks, started=previous is not None)
        table = replay.table
        for name in self.players:
            table.edit(name).playing = True
        if previous is not None:
            for name in previous.order:
                old, me = previous.players[name], table.edit(name)
                me.seat, me.playing, me.spectator = old.seat, old.playing, old.spectator
        return replay

    def _starts_game(self, event: ev.Event, index: int) -> bool:
        """A new game starts at ``starts a new game.``, at ``clears the table.`` followed by
        deck loads, or at deck loads after turns were played (a rematch)."""
        if isinstance(event, ev.NewGame):
            return True
        if isinstance(event, ev.DeckLoad):
            return self.replays[0].clock.number >= 1
        if isinstance(event, ev.GameControl) and event.action == "clear":
            return self._deck_load_next(index)
        return False

    def _deck_load_next(self, index: int) -> bool:
        """Whether deck loads come after ``index`` before any turn action, phase or turn
        line (within the look-ahead). The line that decides is remembered, and so is how far
        the window was searched, so a run of ``clears the table.`` lines costs one search,
        not one each."""
        decider, scanned = self._after_clear
        if decider is None or decider <= index:
            decider = None
            for later in range(max(index, scanned) + 1, index + LOOKAHEAD + 1):
                event = self.window.get(later)
                if event is None:
                    break
                scanned = later
                if isinstance(event, (ev.DeckLoad, *ACTIONS, ev.PhaseChange, ev.TurnChange)):
                    decider = later
                    break
            self._after_clear = (decider, scanned)
        return decider is not None and isinstance(self.window.get(decider), ev.DeckLoad)

    def _end_game(self) -> None:
        for replay in self.replays:
            replay.finish()
        self._resolve()
        replay = self.replays[0]
        self._flush(replay)
        if replay.touched:
            self.games += 1
            self.turns += replay.clock.number
            self.losses += replay.table.losses

    def _saved_game(self, event: ev.GameControl) -> None:
        """R17.8: a save keeps the state of that moment; a load restores it."""
        self._resolve()
        replay = self.replays[0]
        replay.clock.event = event
        if event.action == "save":
            replay.save(event.file)
        else:
            replay.touched = True
            self.replays = [replay.load(event.file)]

    # -- readings (R17.1) ----------------------------------------------------------------------

    def _step(self, event: ev.Event, index: int, undo: int | None) -> None:
        """A line in every reading still open (``undo``: the line that may undo it at once):
        the game's setup may end here, turn 1 may start without a turn line (a reading per
        player who may have taken it), a misclick pair splits each reading in two."""
        readings: list[Reading] = []
        for replay in self.replays:
            candidates = replay.prepare(event, index)
            if len(candidates) > MAX_READINGS:
                self._capped = (
                    f"{len(candidates)} players may have taken turn 1 and the audit follows "
                    f"at most {MAX_READINGS} readings"
                )
                candidates = candidates[:MAX_READINGS]
            readings += [replay.reading(name) for name in candidates] or [replay]
        if undo is not None:
            corrections = self.window.corrections
            nested = corrections.within(index, undo)
            late = index in corrections.late
            readings = self._settle_misclicks(readings)
            split = len(readings) * 2 <= MAX_READINGS
            if not split:
                self._capped = (
                    f"more than {MAX_READINGS} readings of misclicks and turn 1 were open at "
                    "once; the audit read the rest as corrected"
                )
            forked: list[Reading] = []
            for replay in readings:
                if index in replay.skipped:
                    forked.append(replay)
                elif split:
                    forked += [replay.corrected(nested, late=late), replay.as_logged(index, undo)]
                else:
                    if not late:  # a late fix is only ever a reading beside the log's own
                        replay.skip(nested)
                    forked.append(replay)
            readings = forked
        if isinstance(event, ev.TurnChange):
            self._turn_line(event, index, readings)
            return
        self.replays = readings
        for replay in self.replays:
            replay.feed(event, index)

    def _settle_misclicks(self, readings: list[Reading]) -> list[Reading]:
        """A misclick pair is about to double the readings: when that would pass
        :data:`MAX_MISCLICK_READINGS` (the last three pairs read both ways), the readings
        that assume the same player took turn 1 and the same turn lines were misclicks
        differ only in earlier pairs, so they are settled as a turn line settles readings
        (what they all break stays a violation, the rest is a doubt), and the new pair is
        read both ways again. Readings waiting for different undo lines are not settled
        together: those lines decide between them. The search stays bounded and linear in the
        log."""
        # readings that wait for the undo of a fix (lines not read yet) differ in what those
        # lines will decide: they are never settled together before them
        groups: dict[tuple[str | None, int, frozenset[int]], list[Reading]] = {}
        for replay in readings:
            key = (replay.turn1, replay.misnamed, frozenset(replay.skipped))
            groups.setdefault(key, []).append(replay)
        widest = max(len(group) for group in groups.values())
        if widest * 2 <= MAX_MISCLICK_READINGS and len(readings) * 2 <= MAX_READINGS:
            return readings
        flags = self._misnamed, self._capped
        settled: list[Reading] = []
        for group in groups.values():
            self.replays, self._misnamed = group, False
            self._resolve()
            settled += self.replays
        self._misnamed, self._capped = flags
        return settled

    def _turn_line(self, event: ev.TurnChange, index: int, readings: list[Reading]) -> None:
        """A turn line is evidence, not proof (R17.10): where it names a player the turn
        order does not allow, the name may be the misclick. Both readings stay until the
        next turn line (or the end of the game) and the one that breaks fewer rules stands."""
        if self._misnamed:  # the turn is over: what each reading broke in it is final
            for replay in readings:
                replay.findings.commit_pending()
            self.replays = readings
            self._resolve()
            readings = self.replays
        forked: list[Reading] = []
        for replay in readings:
            expected = expected_instead(replay, event)
            if expected is not None and (len(readings) + len(forked) + 1) <= MAX_READINGS:
                typo = misnamed(replay, event, expected)
                typo.feed(replace(event, active=expected), index)
                forked.append(typo)
            replay.feed(event, index)
        self.replays = readings + forked
        self._misnamed = bool(forked)
        if not forked:
            self._resolve(event)

    def _resolve(self, turn_line: ev.TurnChange | None = None) -> None:
        """Settle the readings as far as the log can (R17.1). Who took turn 1 (R17.10): the
        first turn line with the turn order (R13.2) decides, unless the phase lines of turn 1
        were written by another player (then the turn line may be the typo: every reading
        stays). Then the readings no other reading beats (fewer violations, all shared with
        it) stay open: what they all break is a violation, what only some break is
        unverifiable, with the reason. A misclick pair read either way is settled the same
        way (R17.3)."""
        replays, fewest, capped = self.replays, self._misnamed, self._capped
        self._misnamed, self._capped = False, None
        if len(replays) == 1:
            return
        if turn_line is not None:
            named = [
                r
                for r in replays
                if r.turn1 is None or turn_line.active in r.table.next_in_turn_order(r.turn1)[:1]
            ]
            if named and max(r.active_guess for r in named) >= max(r.active_guess for r in replays):
                replays = named
        keys = [frozenset((f.kind, f.line) for f in r.findings.violations) for r in replays]
        # A misnamed turn line: the reading that breaks fewer rules stands, the misclick
        # counted as one; on a tie the turn line stands.
        scores = [
            (len(k) + r.misnamed, r.misnamed) if fewest else ()
            for k, r in zip(keys, replays, strict=True)
        ]
        least = min(scores)
        best_scored = [i for i, score in enumerate(scores) if score == least]
        # A fix (undone at once, or later in its phase) is a reading only where it makes the
        # log more legal: it must break nothing that the same reading without it does not
        # break, so it never trades a violation for another (a wound put right that a fight
        # needed; a Ready taken back by the Spend a move to combat needed).
        best_scored = [
            i
            for i in best_scored
            if not any(
                replays[j].corrects < replays[i].corrects and not keys[i] <= keys[j]
                for j in best_scored
            )
        ]
        kept = [i for i in best_scored if not any(keys[j] < keys[i] for j in best_scored)]
        # past the cap on readings, a reading not followed might break none of these rules
        common = frozenset() if capped else frozenset.intersection(*(keys[i] for i in kept))
        best = min(
            kept,
            key=lambda i: (
                len(keys[i]),
                replays[i].misnamed,
                -replays[i].misclicks,
                -replays[i].active_guess,
                i,
            ),
        )
        chosen = replays[best]
        chosen.fixes = chosen.late = frozenset()  # settled: no reading beside it any more
        unverifiable: dict[tuple[object, ...], Finding] = {}
        for i in kept:
            findings = replays[i].findings
            for finding in findings.unverifiable:  # once per kind, player, turn and reason
                key = (finding.kind, finding.player, finding.turn, finding.message)
                known = unverifiable.get(key)
                if known is None or (finding.line or 0) < (known.line or 0):
                    unverifiable[key] = finding
            for finding in findings.violations:
                if (finding.kind, finding.line) not in common:
                    why = capped or replays[i].assumes()
                    doubt = replace(finding, message=f"{finding.message}; {why}")
                    unverifiable.setdefault((doubt.kind, doubt.line, doubt.message), doubt)
        findings = chosen.findings
        findings.violations = [f for f in findings.violations if (f.kind, f.line) in common]
        findings.unverifiable = list(unverifiable.values())
        for i in kept:
            if i != best:
                for name, me in replays[i].table.players.items():
                    if name in chosen.table.players:
                        mine = chosen.table.edit(name)
                        mine.zombies = mine.zombies.merged(me.zombies)
        self.replays = [chosen]

    # -- the report ----------------------------------------------------------------------------

    def _flush(self, replay: Reading) -> None:
        findings = replay.findings
        tie_causes((findings.violations, findings.unverifiable), self._names)
        self.report.violations += findings.violations
        self.report.unverifiable += findings.unverifiable
        self.report.warnings += findings.warnings
        findings.violations, findings.unverifiable, findings.warnings = [], [], []

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
    watch: Watcher | None = None,
    start: Table | None = None,
) -> AuditReport:
    """Reading ``events`` (a parsed log) and report every rule violation (docs/rules.md).

    ``cards`` is the card data (a list of :class:`~zcards.cards.model.Card`); ``players`` fixes the
    turn order when seats are not logged; ``pov`` names the log's saver; ``decks`` gives each
    player's deck (its size, a list of cards, or a :class:`~lackey_plugin.dek.Deck`), which makes
    losing by an empty deck checkable; ``watch`` is told each line once it is read, with the
    readings of the game then open (:mod:`zcards.rules.states` turns them into tables);
    ``start`` is the table the log starts from (a saved game,
    :func:`zcards.rules.saved_table.table_of_save`) instead of a game's setup.
    """
    index = cards if isinstance(cards, CardIndex) else CardIndex(cards)
    sizes = {name: _deck_size(deck) for name, deck in (decks or {}).items()}
    auditor = Auditor(index, players=players, pov=pov, decks=sizes, watch=watch, start=start)
    return auditor.run(events)
