"""Import card lists into the card database: all or nothing, with provenance and a change log.

Updatelists, file lists and pages are read first; card data is then streamed into the
database inside one transaction (:mod:`zcards.ingest.merge`), so memory does not grow with the
input and any error leaves the database as it was. A new database is built under a
temporary name and put in place only when complete (:mod:`zcards.store.placing`), so a failed
import never removes or truncates a database it did not make, a concurrent import never sees
half of one, and no stale WAL of a removed database applies to it.

Only the cards of the sources that were read again are in scope: a card that disappeared
from such a source is removed, cards of other sources stay. Removing more than
:data:`PRUNE_SHARE` of a source's cards needs ``prune=True`` (a cut download or a truncated
file must not empty a card list). A source whose bytes have the SHA-256 stored last time is
not parsed again. Re-importing the same data changes no card and logs no change.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from lackey_plugin.urls import Validators
from zcards.cards.normalise import CardDataError, CardReader, Chunk, Problem
from zcards.cards.spreadsheet import SpreadsheetReader, spreadsheet_kind
from zcards.cards.table import ProblemLog
from zcards.errors import Location, ZcardsError
from zcards.ingest.merge import SHOWN_CHANGES, CardWriter
from zcards.ingest.provenance import (
    PRUNE_SHARE,
    RemovalCheck,
    count_cards,
    now,
    record_run,
    skip_unchanged,
    stale_children,
    store_sources,
)
from zcards.ingest.report import ImportReport, fill_report
from zcards.ingest.sources import CardInput, Collection, Collector
from zcards.store.changes import CardChange, refresh_image_urls
from zcards.store.effect_rows import store_rows
from zcards.store.game_columns import apply_game, stored_game
from zcards.store.game_trust import key_path, sign_game
from zcards.store.line_endings import store_newlines
from zcards.store.open import connect_readonly, connect_writable, database_errors
from zcards.store.placing import (
    place_database,
    remove_stale_temporaries,
    remove_temporary,
    temporary_path,
)
from zcards.store.printings import clashes
from zcards.store.schema import create_card_indexes, create_schema

if TYPE_CHECKING:
    from lackey_plugin.columns import Column
    from lackey_plugin.fetch import Fetcher
    from lackey_plugin.gamefile import GameFile  # a Zombie import reads no TOML

ProgressFactory = Callable[[Iterable[Any], str, int], AbstractContextManager[Iterable[Any]]]
__all__ = ["PRUNE_SHARE", "ImportReport", "import_sources"]


@contextlib.contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """An import allocates millions of tuples and strings that can form no reference cycle;
    the cycle collector would walk them again and again (measured: 100,000 rows import in
    1.7 s instead of 2.9 s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass(frozen=True)
class _Options:
    skip_bad_rows: bool
    dry_run: bool
    prune: bool
    progress: ProgressFactory | None
    game: GameFile | None = None
    effects: tuple[str, str] | None = None  # a designer's effects file: its name and text


@_without_cycle_collection()
def import_sources(
    db_path: str | os.PathLike[str],
    sources: Sequence[str],
    *,
    skip_bad_rows: bool = False,
    dry_run: bool = False,
    prune: bool = False,
    fetcher: Fetcher | None = None,
    progress: ProgressFactory | None = None,
    game: GameFile | None = None,
    effects: tuple[str, str] | None = None,
) -> ImportReport:
    """Import card data from paths and URLs into ``db_path`` in one transaction.

    ``game``: the game definition the card data follows; it is stored in the database (its
    columns become columns of ``cards``) and later imports read by it. Without one, the game
    stored before, else the Zombie game. ``effects``: a designer's effect rows for his set
    (a file's name and text), stored with the cards (:mod:`zcards.store.effect_rows`)."""
    db_path = Path(db_path)
    started = now()
    kept: GameFile | None = None
    with contextlib.ExitStack() as stack:
        made: list[Fetcher] = [] if fetcher is None else [fetcher]

        def downloads() -> Fetcher:
            """One fetcher for the whole import, made at its first URL."""
            if not made:
                from zcards.ingest.download import zcards_fetcher

                made.append(stack.enter_context(zcards_fetcher()))
            return made[0]

        collection = Collector(downloads, _cached_validators(db_path)).collect(list(sources))
        if game is None and collection.plugins:
            from zcards.ingest.plugin_game import keeps_game, plugin_game

            if keeps_game(db_path):
                game = kept = plugin_game(
                    collection.plugins[0], lambda url: downloads().get(url).content
                )
            else:
                where = Location(collection.plugins[0])
                note = "the database's game is kept, not the plugin's (--game chooses one)"
                collection.warnings.append(Problem(where, note))
    options = _Options(skip_bad_rows, dry_run, prune, progress, game, effects)
    with database_errors(db_path):
        while True:
            report: ImportReport | None
            if db_path.exists():
                conn = connect_writable(db_path)
                try:
                    report = _run(conn, collection, started, options)
                finally:
                    conn.close()
            else:
                report = _import_new(db_path, collection, started, options)
            if report is not None:
                report.game_kept = kept
                return report
            # Another process made the database meanwhile: import into it instead.


def _import_new(
    db_path: Path, collection: Collection, started: str, options: _Options
) -> ImportReport | None:
    """Build a new database under a temporary name and put it in place when complete
    (:func:`~zcards.store.placing.place_database`); None if another process made ``db_path``
    first (nothing is written then)."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(db_path)
    temporary = temporary_path(db_path)
    try:
        conn = sqlite3.connect(temporary, isolation_level=None)
        try:
            # Nobody else sees this file until it is complete: no journal on disk, no syncs.
            conn.execute("pragma journal_mode = memory")
            conn.execute("pragma synchronous = off")
            conn.execute("pragma cache_size = -8192")  # 8 MiB: index builds and FTS merges
            report = _run(conn, collection, started, options, new=True)
            if options.dry_run:
                return report
            conn.execute("pragma journal_mode = wal")
        finally:
            conn.close()
        with temporary.open("rb+") as stream:
            os.fsync(stream.fileno())
        return report if place_database(temporary, db_path, replace=False) else None
    finally:
        remove_temporary(temporary)


def _run(
    conn: sqlite3.Connection,
    collection: Collection,
    started: str,
    options: _Options,
    *,
    new: bool = False,
) -> ImportReport:
    """The whole import in one transaction (rolled back at the end of a dry run)."""
    conn.execute("begin immediate")
    try:
        # An older database is upgraded by its first write; a new one gets its secondary
        # indexes once it is full (faster than keeping them up to date row by row).
        create_schema(conn, card_indexes=not new)
        report = _write(conn, collection, started, options)
        if new:
            create_card_indexes(conn)
    except BaseException:
        conn.rollback()
        raise
    if options.dry_run:
        conn.rollback()
        report.run_id = None
    else:
        conn.commit()
    return report


def _write(
    conn: sqlite3.Connection, collection: Collection, started: str, options: _Options
) -> ImportReport:
    report = ImportReport(options.dry_run, sources=collection.records)
    report.warnings = list(collection.warnings)
    if options.game is not None:
        apply_game(conn, options.game)
        if not sign_game(conn, options.game.source, options.game.root):
            note = f"no signing key at {key_path()}: its files ship only with --trust-game"
            report.warnings.append(Problem(Location(options.game.origin), note))
    if options.effects is not None:
        store_rows(conn, *options.effects)
    game = options.game or stored_game(conn)
    run_id = int(
        conn.execute("insert into import_runs (started_at) values (?)", (started,)).lastrowid or 0
    )
    skip_unchanged(conn, collection)
    ids = store_sources(conn, collection.records)
    inputs = collection.inputs
    reread = {ids[i.record.location] for i in inputs if not i.not_modified}
    stale = stale_children(conn, collection.records, ids)
    writer = CardWriter(conn, run_id, reread | stale)
    columns = game.columns if game is not None else None
    problems = _write_inputs(writer, inputs, ids, report.warnings, options.progress, columns)
    read = [r for r in collection.records if r.kind == "card-data" and r.location in ids]
    store_newlines(conn, [(ids[r.location], r.newline) for r in read])
    for record in collection.records:
        if record.location in ids and record.kind == "card-data":
            conn.execute(
                "update sources set sha256 = ?, bytes = ?, row_count = ? where id = ?",
                (record.sha256, record.size, record.row_count, ids[record.location]),
            )
    if problems.total and not options.skip_bad_rows:
        raise CardDataError(problems, _NOTHING_IMPORTED, problems.total)
    shown: list[CardChange] = []
    not_read = [(ids[i.record.location], i.image_urls) for i in inputs if i.not_modified]
    refreshed = refresh_image_urls(conn, run_id, not_read, shown, SHOWN_CHANGES)
    kept = count_cards(conn, [source_id for source_id, _ in not_read]) - refreshed
    check = RemovalCheck(
        conn, collection.records, ids, writer.before, options.prune, options.dry_run, report
    )
    outcome = writer.finish(check)
    if outcome.problems and not options.skip_bad_rows:
        raise CardDataError(outcome.problems, _NOTHING_IMPORTED, outcome.duplicates)
    problems.extend(outcome.problems)
    fill_report(report, outcome, refreshed, shown, problems)
    report.warnings += _clashes(conn, {ids[r.location]: r.location for r in read})
    report.unchanged += kept
    marks = ",".join("?" * len(stale))
    conn.execute(
        "update sources set kind = 'dropped', sha256 = null, etag = null, last_modified = null,"
        f" row_count = 0 where id in ({marks})",
        sorted(stale),
    )
    report.run_id = run_id
    record_run(conn, report, run_id)
    return report


_NOTHING_IMPORTED = " (nothing imported; --skip-bad-rows imports the rest)"


def _clashes(conn: sqlite3.Connection, sources: dict[int, str]) -> list[Problem]:
    """One warning for the names printed twice in one set with other stats (a lookup by
    name shows the first printing), at the first such source."""
    found = clashes(conn, list(sources))
    if not found:
        return []
    source_id, example = found[0]
    message = (
        f"{len(found)} names are printed twice in one set with other stats or text, e.g. "
        f"{example}: kept as further printings ('zcards card NAME' lists them)"
    )
    return [Problem(Location(sources[source_id]), message)]


def _write_inputs(
    writer: CardWriter,
    inputs: list[CardInput],
    ids: dict[str, int],
    warnings: list[Problem],
    progress: ProgressFactory | None = None,
    game: Sequence[Column] | None = None,
) -> ProblemLog:
    """Stream every input that must be read into ``writer``; returns the bad rows found.

    Each card file's record gets its row count; its SHA-256 (taken when it was collected)
    is dropped if the file changed since, so that it is read again next time."""
    problems = ProblemLog()
    to_read = [card_input for card_input in inputs if not card_input.not_modified]
    with _progress(progress, to_read, "Reading cards") as bar:
        for card_input in bar:
            record, urls = card_input.record, card_input.image_urls
            url_for = (
                urls.url_for_file if urls is not None and (urls.explicit or urls.general) else None
            )
            source_id = ids[record.location]
            if card_input.table is not None:
                table = card_input.table
                problems.extend(table.problems)
                warnings.extend(table.warnings)
                doc = writer.add_document(record.location, source_id, table.zombie)
                if table.stored:
                    columns: list[Sequence[Any]] = [
                        list(c) for c in zip(*table.stored, strict=True)
                    ]
                    _add(writer, doc, Chunk(table.lines, columns), url_for)
                continue
            document = card_input.document
            assert document is not None
            with document.open() as stream:
                reader = _reader(stream, record.location, problems, game)
                doc = writer.add_document(record.location, source_id, reader.zombie)
                for chunk in reader.chunks():
                    _add(writer, doc, chunk, url_for)
            record.row_count = reader.rows_read
            if not document.unchanged_since_hashed():  # changed while we read it
                record.sha256, record.size = None, reader.lines.size
            warnings.extend(reader.warnings)
    return problems


def _reader(
    stream: BinaryIO, origin: str, problems: ProblemLog, game: Sequence[Column] | None
) -> CardReader | SpreadsheetReader:
    """A card data stream's reader: Lackey's TAB-separated form, or a CSV or XLSX
    spreadsheet (both streamed)."""
    kind = spreadsheet_kind(stream.read(4096))
    stream.seek(0)
    reader = CardReader if kind is None else SpreadsheetReader
    return reader(stream, origin, problems=problems, game=game)


def _add(
    writer: CardWriter, doc: int, chunk: Chunk, url_for: Callable[[str, str], str] | None
) -> None:
    urls = list(map(url_for, chunk.columns[1], chunk.columns[2])) if url_for else None
    writer.add(doc, chunk, urls)


@contextlib.contextmanager
def _progress(
    factory: ProgressFactory | None, items: list[Any], label: str
) -> Iterator[Iterable[Any]]:
    if factory is None:
        yield items
        return
    with factory(items, label, len(items)) as bar:
        yield bar


def _cached_validators(db_path: Path) -> dict[str, Validators]:
    """ETag / Last-Modified of earlier downloads, read without creating or locking the db (a
    file that is not a card database has none; the write says what is wrong with it)."""
    if not db_path.exists():
        return {}
    try:
        conn = connect_readonly(db_path)
    except ZcardsError:
        return {}
    try:
        rows = conn.execute(
            "select location, etag, last_modified from sources "
            "where etag is not null or last_modified is not null"
        ).fetchall()
    except sqlite3.DatabaseError:
        return {}
    finally:
        conn.close()
    return {location: Validators(etag, modified) for location, etag, modified in rows}
