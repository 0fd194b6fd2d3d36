"""The bulk path of an import: chunks of rows straight into ``cards``, no row held in memory.

It lasts while no row meets a (Set, Name) already stored (a new database, a new source): the
first chunk that does is rolled back, and it and every later chunk go to the rows that
:class:`~zcards.ingest.merge.CardWriter` merges in SQL. A new database is filled before it
has its key (sorting the rows once to build it costs half of keeping it up to date row by
row): nothing can meet a key then, and the writer builds the key when the rows are in. Where
each row came from (its document and line) is kept in compact arrays, for the messages about
duplicates.
"""

from __future__ import annotations

import sqlite3
from array import array
from bisect import bisect_right
from collections.abc import Sequence

from zcards.cards.normalise import Chunk
from zcards.store.schema import CARD_COLUMNS, has_card_key

_COLUMNS = tuple(CARD_COLUMNS)
assert _COLUMNS[-2:] == ("image_url", "source_id"), "_INSERT writes them last"
_INSERT = (
    f"insert into main.cards ({', '.join(_COLUMNS)}) "
    f"values ({', '.join('?' * (len(_COLUMNS) - 2))}, {{url}}, {{source}}){{conflict}}"
)
_ON_CONFLICT = " on conflict (set_name, name) do nothing"


class DirectRows:
    """The rows written straight into ``cards`` by one import (their rowids follow ``mark``)."""

    def __init__(self, conn: sqlite3.Connection, mark: int) -> None:
        self.conn = conn
        self.mark = mark
        self.open = True  # until a chunk meets a stored key
        self.keyed = has_card_key(conn)
        self.lines = array("q")
        self.starts: list[int] = []  # each chunk's offset into lines, and its document:
        self.docs: list[int] = []

    def insert(self, doc: int, source_id: int, chunk: Chunk, urls: Sequence[str] | None) -> bool:
        """Insert a chunk of document ``doc``; False (nothing written, and the bulk path
        closed) when a row meets a key already there."""
        # The source id (an integer from the database) and a blank URL are part of the SQL:
        # nothing to bind for them a million times. A zip straight into executemany reuses
        # its row tuple (a list of rows made one each).
        conflict = _ON_CONFLICT if self.keyed else ""
        if urls is None:
            sql = _INSERT.format(url="''", source=int(source_id), conflict=conflict)
            rows = zip(*chunk.columns, strict=True)
        else:
            sql = _INSERT.format(url="?", source=int(source_id), conflict=conflict)
            rows = zip(*chunk.columns, urls, strict=True)
        cursor = self.conn.cursor()
        cursor.execute("savepoint chunk")
        cursor.executemany(sql, rows)
        if cursor.rowcount == len(chunk.lines):
            cursor.execute("release chunk")
            self.starts.append(len(self.lines))
            self.docs.append(doc)
            self.lines.extend(chunk.lines)
            return True
        cursor.execute("rollback to chunk")
        cursor.execute("release chunk")
        self.open = False
        return False

    def where(self, rowid: int) -> tuple[int, int]:
        """(document, line) of the row written as ``rowid``."""
        offset = rowid - self.mark - 1
        return self.docs[bisect_right(self.starts, offset) - 1], self.lines[offset]
