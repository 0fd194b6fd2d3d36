"""The log's lines as the audit reads them: one at a time from a stream, each as what it does
in the game (:func:`~zcards.rules.moves.as_played`: a drag from the deck to the hand is a
draw), with a bounded window of lines ahead (phase lines logged late, the first phase of turn
1, the undo of a misclick, R17), and nothing kept behind. Memory stays flat however long the
log."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from lackey_plugin.log import events as ev
from zcards.game.cards import CardIndex
from zcards.rules.corrections import Corrections
from zcards.rules.moves import as_played

LOOKAHEAD = 4096  # lines the audit reads ahead of the current one, at most


class Window:
    """The current line and the lines ahead of it, read from ``events`` as needed."""

    def __init__(self, events: Iterable[ev.Event], cards: CardIndex | None = None) -> None:
        self._source = iter(events)
        self._lines: list[ev.Event] = []
        self._first = 0  # the index of ``_lines[0]``
        self._done = False
        self.corrections = Corrections(cards)

    def _pull(self) -> bool:
        if self._done:
            return False
        line = next(self._source, None)
        if line is None:
            self._done = True
            return False
        event = as_played(line)
        self.corrections.feed(self._first + len(self._lines), event)
        self._lines.append(event)
        return True

    def get(self, index: int) -> ev.Event | None:
        """The line at ``index`` (None: the log ends before it)."""
        offset = index - self._first
        lines = self._lines
        while offset >= len(lines):
            if not self._pull():
                return None
        return lines[offset]

    def lines(self) -> Iterator[tuple[int, ev.Event, int | None]]:
        """Each line in turn: its index, the line, and the index of the line that undoes it
        at once when there is one (a possible immediate correction, R17.3). The lines
        before the current one are let go."""
        index = 0
        corrections = self.corrections
        while True:
            offset = index - self._first
            if offset >= LOOKAHEAD:
                self.release(index)
                offset = 0
            event = self._lines[offset] if offset < len(self._lines) else self.get(index)
            if event is None:
                return
            undo = None
            if index in corrections.open or index in corrections.waiting:
                undo = self.undo_of(index)
            elif corrections.pairs:
                undo = corrections.pairs.get(index)
            yield index, event, undo
            index += 1

    def after(self, index: int) -> Iterator[ev.Event]:
        """The lines after ``index``, as far as the window reaches."""
        for later in range(index + 1, index + LOOKAHEAD + 1):
            event = self.get(later)
            if event is None:
                return
            yield event

    def undo_of(self, index: int) -> int | None:
        """The index of the line that undoes the action at ``index`` exactly: the next game
        action, or the next action on the same thing in the same phase (a possible
        correction, R17.3)."""
        corrections = self.corrections
        open_, waiting = corrections.open, corrections.waiting
        while (index in open_ or index in waiting) and (
            self._first + len(self._lines) <= index + LOOKAHEAD
        ):
            if not self._pull():
                break
        return corrections.pairs.get(index) if corrections.pairs else None

    def release(self, index: int) -> None:
        """The audit is done with the lines before ``index`` (dropped a block at a time)."""
        done = index - self._first
        if done >= LOOKAHEAD:
            del self._lines[:done]
            self._first = index
            self.corrections.forget(index)
