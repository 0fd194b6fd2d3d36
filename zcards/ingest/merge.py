"""Write the card rows of one import into the database as they are read, then merge in SQL.

Rows stream in a chunk at a time. While no row meets a card already stored (a new database,
a new source), chunks go straight into ``cards`` (the bulk path, :mod:`zcards.ingest.bulk`:
nothing is held in memory, the full-text index is filled once at the end; a new database gets
its (Set, Name) key once its rows are in, and the rows repeating an earlier row's key move to
``pending`` then). From the first chunk that meets a stored (Set, Name) on, rows go to a
temporary ``pending`` table, and :meth:`CardWriter.finish` merges them with set-based SQL:
new cards are inserted, changed ones updated (with the old row kept in the change log), moved
ones only get their new source, and the cards the re-read sources no longer list are removed
(also kept in the change log).

The first row with a key is the card. A later one is an alternate printing (other games'
data has several under one name) or, in Zombie CCG data, a duplicate: a bad row.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from zcards.cards.normalise import Chunk, Problem
from zcards.errors import Location
from zcards.ingest.bulk import DirectRows
from zcards.store.changes import CardChange, diff_rows
from zcards.store.schema import CARD_COLUMNS, CARD_KEY, FTS_DELETE_TRIGGER, FTS_INSERT_TRIGGER

SHOWN_CHANGES = 200
_COLUMNS = tuple(CARD_COLUMNS)
_COMPARED = tuple(column for column in _COLUMNS if column not in ("set_name", "name", "source_id"))
_LIST = ", ".join(_COLUMNS)
_TYPED = ", ".join(f"{c} {'integer' if t is int else 'text'}" for c, t in CARD_COLUMNS.items())
_PENDING = (
    f"insert into temp.pending (doc, line, {_LIST}) values ({', '.join('?' * (len(_COLUMNS) + 2))})"
)
_DIFFERS = " or ".join(f"pending.{column} is not c.{column}" for column in _COMPARED)
_BEFORE = f"json_array({', '.join(f'c.{column}' for column in _COLUMNS)})"


@dataclass
class WrittenDocument:
    """One document being written: where it came from and how strictly it is checked."""

    location: str
    source_id: int
    zombie: bool


@dataclass
class Outcome:
    """Counts of what the merge did, the first changes (for display) and duplicate problems."""

    added: int = 0
    changed: int = 0
    removed: int = 0
    unchanged: int = 0
    variants: int = 0
    shown: list[CardChange] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    duplicates: int = 0

    def show(self, change: CardChange) -> None:
        if len(self.shown) < SHOWN_CHANGES:
            self.shown.append(change)


class CardWriter:
    """Writes one import's rows inside the caller's transaction (see the module doc)."""

    def __init__(self, conn: sqlite3.Connection, run_id: int, scope: Iterable[int]) -> None:
        self.conn = conn
        self.run_id = run_id
        self.scope = sorted(set(scope))
        self.mark = conn.execute("select coalesce(max(rowid), 0) from main.cards").fetchone()[0]
        self.documents: list[WrittenDocument] = []
        self.direct = DirectRows(conn, self.mark)
        self.pending_rows = 0
        self.before = self._stored_counts()
        conn.execute('drop trigger if exists main."cards_ai"')  # the index is filled at the end
        conn.execute("drop table if exists temp.pending")
        conn.execute(
            f"create temp table pending (seq integer primary key, doc integer, line integer, "
            f"{_TYPED}, kind text, old_rowid integer)"  # types as in cards: indexes apply
        )

    def _stored_counts(self) -> dict[int, int]:
        """Cards each source in scope holds now (before this import's changes), 0 included:
        the removal check then need not count them again once the rows are in."""
        rows = self.conn.execute(
            f"select source_id, count(*) from main.cards where source_id in ({_marks(self.scope)})"
            " group by source_id",
            self.scope,
        )
        counts = {int(source_id): int(count) for source_id, count in rows}
        return dict.fromkeys(self.scope, 0) | counts

    def add_document(self, location: str, source_id: int, zombie: bool) -> int:
        self.documents.append(WrittenDocument(location, source_id, zombie))
        return len(self.documents) - 1

    def add(self, doc: int, chunk: Chunk, image_urls: Sequence[str] | None = None) -> None:
        """Write a chunk of a document's rows (``image_urls``: one per row, default "")."""
        count = len(chunk.lines)
        if not count:
            return
        urls: Iterable[str] = image_urls if image_urls is not None else repeat("", count)
        source = self.documents[doc].source_id
        if self.direct.open and self.direct.insert(doc, source, chunk, image_urls):
            return
        columns = (repeat(doc), chunk.lines, *chunk.columns, urls, repeat(source, count))
        self.conn.executemany(_PENDING, zip(*columns, strict=False))
        self.pending_rows += count

    def finish(self, removal_check: Callable[[dict[int, int]], None]) -> Outcome:
        """Merge the pending rows, remove what the scope no longer lists, fill the index.

        ``removal_check`` gets the number of cards each source would lose (``before`` has
        how many it held) and raises to stop the import."""
        outcome = Outcome()
        conn = self.conn
        if not self.direct.keyed:
            self._key()
        if self.pending_rows:
            self._classify()
            self._duplicates(outcome)
        if self.pending_rows:
            conn.execute(
                f"insert into main.cards ({_LIST}) select {_LIST} from temp.pending "
                "where kind = 'new' order by seq"
            )
        self._log_added(outcome)
        if self.pending_rows:
            self._changed(outcome)
        self._removed(removal_check, outcome)
        self._variants(outcome)
        if self.mark:
            conn.execute(
                "insert into main.cards_fts (rowid, name, text) "
                "select rowid, name, text from main.cards where rowid > ?",
                (self.mark,),
            )
        else:  # every card is new: FTS5 reads them itself, 12 % faster than an INSERT SELECT
            conn.execute("insert into main.cards_fts (cards_fts) values ('rebuild')")
        conn.execute(FTS_INSERT_TRIGGER)
        conn.execute("drop table temp.pending")
        return outcome

    def _key(self) -> None:
        """Give a new table, filled without its key, the key. Rows that repeat an earlier
        row's key (another game's alternate printings, Zombie CCG duplicates) move to
        ``pending`` first, with their document and line, to be sorted out there."""
        conn = self.conn
        try:
            conn.execute(CARD_KEY)  # a failed statement leaves the transaction as it was
            return
        except sqlite3.IntegrityError:
            pass
        later = (
            "select rowid from (select rowid, row_number() over (partition by set_name, name "
            "order by rowid) as n from main.cards where rowid > ?) where n > 1"
        )
        rows = conn.execute(
            f"select rowid, {_LIST} from main.cards where rowid in ({later}) order by rowid",
            (self.mark,),
        )
        moved = ((*self.direct.where(rowid), *values) for rowid, *values in rows)
        self.pending_rows += conn.executemany(_PENDING, moved).rowcount
        conn.execute('drop trigger main."cards_ad"')  # they are not in the full-text index yet
        conn.execute(f"delete from main.cards where rowid in ({later})", (self.mark,))
        conn.execute(FTS_DELETE_TRIGGER)
        conn.execute(CARD_KEY)

    def _classify(self) -> None:
        conn = self.conn
        conn.execute("create index temp.pending_key on pending (set_name, name, seq)")
        conn.execute(
            "update temp.pending set kind = 'dup' where seq > (select min(seq) from temp.pending q"
            " where q.set_name = pending.set_name and q.name = pending.name)"
        )
        conn.execute(
            "update temp.pending set kind = 'dup' where kind is null and exists (select 1 from"
            " main.cards c where c.set_name = pending.set_name and c.name = pending.name"
            " and c.rowid > ?)",
            (self.mark,),
        )
        conn.execute(
            "update temp.pending set kind = 'old', old_rowid = c.rowid from main.cards c"
            " where pending.kind is null and c.set_name = pending.set_name"
            " and c.name = pending.name"
        )
        conn.execute("update temp.pending set kind = 'new' where kind is null")
        conn.execute("create index temp.pending_old on pending (old_rowid)")

    def _duplicates(self, outcome: Outcome) -> None:
        """Zombie CCG duplicates are bad rows; other games' are alternate printings."""
        strict = [index for index, doc in enumerate(self.documents) if doc.zombie]
        if not strict:
            return
        rows = self.conn.execute(
            f"select doc, line, set_name, name, seq from temp.pending where kind = 'dup' "
            f"and doc in ({_marks(strict)}) order by seq",
            strict,
        )
        for doc, line, set_name, name, seq in rows.fetchmany(1000) or ():
            where = self._first(set_name, name, seq)
            here = self.documents[doc].location
            first = f"first at line {where.line}" if where.file == here else f"first in {where}"
            message = f"duplicate card {name!r} in set {set_name!r} ({first})"
            outcome.problems.append(Problem(Location(here, line, "Name"), message))
        outcome.duplicates = self.conn.execute(
            f"select count(*) from temp.pending where kind = 'dup' and doc in ({_marks(strict)})",
            strict,
        ).fetchone()[0]
        self.conn.execute(
            f"delete from temp.pending where kind = 'dup' and doc in ({_marks(strict)})", strict
        )

    def _first(self, set_name: str, name: str, seq: int) -> Location:
        """Where the card with this key was first read in this import."""
        row = self.conn.execute(
            "select rowid from main.cards where set_name = ? and name = ? and rowid > ?",
            (set_name, name, self.mark),
        ).fetchone()
        if row is not None:
            doc, line = self.direct.where(int(row[0]))
            return Location(self.documents[doc].location, line)
        doc, line = self.conn.execute(
            "select doc, line from temp.pending where set_name = ? and name = ? and seq < ?"
            " order by seq limit 1",
            (set_name, name, seq),
        ).fetchone()
        return Location(self.documents[doc].location, line)

    def _log_added(self, outcome: Outcome) -> None:
        conn = self.conn
        cursor = conn.execute(
            "insert into main.changes (run_id, set_name, name, action, fields) "
            "select ?, set_name, name, 'added', '{}' from main.cards where rowid > ? "
            "order by rowid",
            (self.run_id, self.mark),
        )
        outcome.added = cursor.rowcount
        shown = conn.execute(
            "select set_name, name from main.cards where rowid > ? order by rowid limit ?",
            (self.mark, SHOWN_CHANGES),
        )
        for set_name, name in shown:
            outcome.show(CardChange("added", set_name, name))

    def _changed(self, outcome: Outcome) -> None:
        """Changed cards: the change log gets each changed field and the whole old row."""
        conn = self.conn
        conn.execute(
            "update temp.pending set kind = 'changed' from main.cards c"
            f" where pending.kind = 'old' and c.rowid = pending.old_rowid and ({_DIFFERS})"
        )
        old = ", ".join(f"c.{column}" for column in _COLUMNS)
        new = ", ".join(f"p.{column}" for column in _COLUMNS)
        rows = conn.execute(
            f"select {old}, {new} from temp.pending p join main.cards c on c.rowid = p.old_rowid"
            " where p.kind = 'changed' order by p.seq"
        )
        width = len(_COLUMNS)
        insert = (
            "insert into main.changes (run_id, set_name, name, action, fields, before) "
            "values (?, ?, ?, 'changed', ?, ?)"
        )
        while batch := rows.fetchmany(1000):
            entries = []
            for row in batch:
                before = dict(zip(_COLUMNS, row[:width], strict=True))
                after = dict(zip(_COLUMNS, row[width:], strict=True))
                fields = diff_rows(before, after)
                change = CardChange("changed", before["set_name"], before["name"], fields)
                outcome.changed += 1
                outcome.show(change)
                entries.append(
                    (self.run_id, change.set_name, change.name, _json(fields), _json(row[:width]))
                )
            conn.executemany(insert, entries)
        # A source that loses cards to another is no longer what its bytes say: read it again.
        conn.execute(
            "update main.sources set sha256 = null where id in (select c.source_id from"
            " temp.pending p join main.cards c on c.rowid = p.old_rowid"
            " where c.source_id is not p.source_id)"
        )
        assignments = ", ".join(f"{column} = p.{column}" for column in _COLUMNS[2:])
        conn.execute(
            f"update main.cards set {assignments} from temp.pending p "
            "where p.kind = 'changed' and p.old_rowid = cards.rowid"
        )
        conn.execute(
            "update main.cards set source_id = p.source_id from temp.pending p "
            "where p.kind = 'old' and p.old_rowid = cards.rowid "
            "and cards.source_id is not p.source_id"
        )
        outcome.unchanged = conn.execute(
            "select count(*) from temp.pending where kind = 'old'"
        ).fetchone()[0]

    def _removed(self, removal_check: Callable[[dict[int, int]], None], outcome: Outcome) -> None:
        """Cards of the re-read sources that no row of this import names any more."""
        if not self.scope:
            return
        conn = self.conn
        gone = f"from main.cards c where c.source_id in ({_marks(self.scope)}) and c.rowid <= ?"
        params: list[Any] = [*self.scope, self.mark]
        if self.pending_rows:
            gone += " and not exists (select 1 from temp.pending p where p.old_rowid = c.rowid)"
        counts = conn.execute(f"select c.source_id, count(*) {gone} group by c.source_id", params)
        removed = {int(source_id): int(count) for source_id, count in counts}
        if not removed:
            return
        removal_check(removed)
        cursor = conn.execute(
            "insert into main.changes (run_id, set_name, name, action, fields, before) "
            f"select ?, c.set_name, c.name, 'removed', '{{}}', {_BEFORE} {gone} "
            "order by c.name, c.set_name",
            [self.run_id, *params],
        )
        outcome.removed = cursor.rowcount
        shown = conn.execute(
            f"select c.set_name, c.name {gone} order by c.name, c.set_name limit ?",
            [*params, SHOWN_CHANGES],
        )
        for set_name, name in shown:
            outcome.show(CardChange("removed", set_name, name))
        conn.execute(f"delete from main.cards where rowid in (select c.rowid {gone})", params)

    def _variants(self, outcome: Outcome) -> None:
        """Alternate printings of the scope: replaced (and the old ones kept) only if changed."""
        conn = self.conn
        columns = f"{_LIST}, line"
        new = f"select {columns} from temp.pending where kind = 'dup'" if self.pending_rows else ""
        old = f"select {columns} from main.card_variants where source_id in ({_marks(self.scope)})"
        outcome.variants = conn.execute(f"select count(*) from ({new})").fetchone()[0] if new else 0
        if not new:
            new = f"select {columns} from main.card_variants where 0"
        differs = conn.execute(
            f"select exists ({old} except {new}) or exists ({new} except {old})", self.scope * 2
        ).fetchone()[0]
        if not differs:
            return
        conn.execute(
            f"insert into main.replaced_variants (replaced_by, id, {columns}, run_id) "
            f"select ?, id, {columns}, run_id from main.card_variants "
            f"where source_id in ({_marks(self.scope)})",
            [self.run_id, *self.scope],
        )
        conn.execute(
            f"delete from main.card_variants where source_id in ({_marks(self.scope)})", self.scope
        )
        if self.pending_rows:
            conn.execute(
                f"insert into main.card_variants ({columns}, run_id) "
                f"select {columns}, ? from temp.pending where kind = 'dup' order by seq",
                (self.run_id,),
            )


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def _json(value: Any) -> str:
    return json.dumps(value if not isinstance(value, tuple) else list(value), ensure_ascii=False)
