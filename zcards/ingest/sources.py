"""Resolve import SOURCEs (paths or URLs) into card-data documents, with provenance.

A SOURCE is a Lackey card-data file, a plugin's ``updatelist.txt`` (followed to its card
data files and card-image URLs, see :mod:`zcards.ingest.published`), a plugin folder, or an HTML
page with card tables or links to card-data files. What a document *is* is decided by its
content, so an HTML error page served where card data was expected is an error, never a
card list.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import urljoin, urlsplit

from lackey_plugin.errors import LackeyError
from lackey_plugin.inputs import open_regular
from lackey_plugin.text import decode_text
from lackey_plugin.updatelist import ImageUrls, parse_updatelist
from lackey_plugin.urls import Validators, is_url
from zcards.cards.normalise import CardFile, Problem, looks_like_card_data, normalise_table
from zcards.cards.spreadsheet import spreadsheet_kind
from zcards.errors import Location, ZcardsError
from zcards.ingest.published import PluginFiles

if TYPE_CHECKING:
    from collections.abc import Callable

    import lxml.html

    from lackey_plugin.fetch import Fetcher

_HEAD_BYTES = 64 * 1024
_HASH_BLOCK = 1 << 20

_HTML_START = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)\b", re.I | re.S)
_UPDATELIST_HEAD = re.compile(r"^[^\t\r\n]+\t\s*\d{1,2}-\d{1,2}-\d{2,4}\s*(\r\n|\r|\n|$)")


@dataclass
class SourceRecord:
    """Provenance of one document read during an import (stored in the ``sources`` table)."""

    location: str
    kind: str
    parent: str | None = None
    not_modified: bool = False
    sha256: str | None = None
    validators: Validators = field(default_factory=Validators)
    size: int = 0
    row_count: int | None = None
    fetched_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    newline: str = "\n"  # how card data's lines end (CRLF: a Windows source), kept on export


@dataclass(frozen=True)
class SourceBytes:
    """The bytes of a card-data document, to be read (again) as a stream: a local file is
    never held in memory, a download already is."""

    path: Path | None = None
    data: bytes = b""
    stamp: tuple[int, int] | None = None  # (size, mtime in ns) of a file when it was hashed

    def open(self) -> BinaryIO:
        return self.path.open("rb") if self.path is not None else io.BytesIO(self.data)

    def unchanged_since_hashed(self) -> bool:
        """Whether the bytes just read are those hashed (a file may change in between)."""
        if self.path is None:
            return True
        try:
            return self.stamp == _stamp(self.path)
        except OSError:
            return False


@dataclass
class CardInput:
    """Card data to import: a ``document`` to stream, or a ``table`` already read from an HTML
    page, or neither when the source has not changed (HTTP 304).

    ``image_urls`` is None when no updatelist said where its card images are.
    """

    record: SourceRecord
    document: SourceBytes | None = None
    table: CardFile | None = None
    image_urls: ImageUrls | None = None

    @property
    def not_modified(self) -> bool:
        return self.document is None and self.table is None


@dataclass
class Collection:
    records: list[SourceRecord] = field(default_factory=list)
    inputs: list[CardInput] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    plugins: list[str] = field(default_factory=list)  # plugin folders and updatelist URLs


@dataclass(frozen=True)
class _Loaded:
    """A document's first bytes (enough to tell what it is), and how to read all of it."""

    record: SourceRecord
    head: bytes
    document: SourceBytes
    content_type: str = ""

    def data(self) -> bytes:
        """The whole document (updatelists, file lists and pages are small)."""
        document = self.document
        return document.data if document.path is None else document.path.read_bytes()


class Collector:
    """Reads every SOURCE of one import; downloads through one :class:`Fetcher`, asked of
    ``fetcher`` at the first URL (an import of local files loads no HTTP library)."""

    def __init__(
        self, fetcher: Callable[[], Fetcher], cache: dict[str, Validators] | None = None
    ) -> None:
        self.fetcher = fetcher
        self.cache = cache or {}
        self.result = Collection()
        self.seen: set[str] = set()

    def _first_time(self, location: str) -> bool:
        """A document named twice (two SOURCEs, a list naming a file twice) is read once."""
        key = location if is_url(location) else str(Path(location).resolve())
        if key in self.seen:
            return False
        self.seen.add(key)
        return True

    def collect(self, sources: list[str]) -> Collection:
        for source in sources:
            self._collect_source(source)
        return self.result

    def _collect_source(self, source: str) -> None:
        if not is_url(source) and Path(source).is_dir():
            self._collect_folder(Path(source).resolve())
            return
        if not self._first_time(source):
            return
        loaded = self._load(source, None, conditional=True)
        if loaded is None:
            return
        kind = sniff(loaded.head, loaded.content_type)
        if kind == "html" and _path_of(source).lower().endswith(".txt"):
            kind = "html-instead-of-card-data"
        if kind == "card-data":
            self._add_card_data(loaded)
        elif kind == "updatelist":
            self._note_plugin(source if is_url(source) else Path(source).resolve().parent)
            self._follow_updatelist(loaded)
        elif kind == "html":
            self._read_page(loaded)
        elif kind == "html-instead-of-card-data":
            raise _html_error(loaded.record.location)
        else:
            raise ZcardsError(
                "not card data (the header must start with Name, Set, ImageFile), "
                "not a Lackey updatelist.txt and not an HTML page" + encoding_hint(loaded.head),
                Location(loaded.record.location, 1),
            )

    def _note_plugin(self, location: str | Path) -> None:
        plugin = not isinstance(location, Path) or (location / "plugininfo.txt").is_file()
        if plugin and str(location) not in self.result.plugins:
            self.result.plugins.append(str(location))

    def _collect_folder(self, folder: Path) -> None:
        """A plugin folder: its updatelist if it has one, else every ``sets/*.txt``."""
        self._note_plugin(folder)
        updatelist = folder / "updatelist.txt"
        if updatelist.is_file():
            self._collect_source(str(updatelist))
            return
        files = sorted((folder / "sets").glob("*.txt"))
        if not files:
            raise ZcardsError(
                "no updatelist.txt and no sets/*.txt card data", Location(str(folder))
            )
        for path in files:
            self._collect_card_file(str(path), None)

    def _load(self, location: str, parent: str | None, *, conditional: bool) -> _Loaded | None:
        """A path or URL, with provenance; None when a conditional download was not modified.

        A local file is hashed as a stream and only its head is kept."""
        if parent is not None and is_url(parent) and not is_url(location):
            raise ZcardsError(
                f"refusing {location!r}: a downloaded list may only point to http(s) URLs",
                Location(parent),
            )
        if not is_url(location):
            path = Path(location).resolve()
            try:
                stamp = _stamp(path)
                head, digest, size = _hash_file(path)
            except OSError as error:
                raise ZcardsError(f"cannot read: {error.strerror}", Location(str(path))) from None
            record = SourceRecord(str(path), "", parent, sha256=digest, size=size)
            self.result.records.append(record)
            return _Loaded(record, head, SourceBytes(path=path, stamp=stamp))
        validators = self.cache.get(location) if conditional else None
        download = self.fetcher().get(location, validators)
        record = SourceRecord(location, "", parent, validators=download.validators)
        self.result.records.append(record)
        if download.not_modified:
            record.not_modified = True
            record.kind = "unchanged"
            return None
        record.sha256 = hashlib.sha256(download.content).hexdigest()
        record.size = len(download.content)
        document = SourceBytes(data=download.content)
        return _Loaded(record, download.content[:_HEAD_BYTES], document, download.content_type)

    def _collect_card_file(
        self,
        location: str,
        parent: str | None,
        images: ImageUrls | None = None,
        *,
        optional: bool = False,
    ) -> None:
        """A card-data document we were pointed to. An HTML page is always an error; other
        text is an error too, unless the pointer was only a guess (``optional``: a page's
        link to some ``.txt`` file)."""
        if not self._first_time(location):
            return
        loaded = self._load(location, parent, conditional=True)
        if loaded is None:
            self.result.inputs.append(CardInput(self.result.records[-1], image_urls=images))
            return
        kind = sniff(loaded.head, loaded.content_type)
        if kind == "html":
            raise _html_error(loaded.record.location)
        if kind == "card-data":
            self._add_card_data(loaded, images)
            return
        where = Location(loaded.record.location, 1)
        message = "not card data (header Name, Set, ImageFile, ...)" + encoding_hint(loaded.head)
        if not optional:
            raise ZcardsError(message, where)
        loaded.record.kind = "skipped"
        self.result.warnings.append(Problem(where, f"{message}; skipped"))

    def _add_card_data(self, loaded: _Loaded, images: ImageUrls | None = None) -> None:
        """Card data is read later, as a stream, inside the import's transaction."""
        loaded.record.kind = "card-data"
        first_line = loaded.head.split(b"\n", 1)[0]
        loaded.record.newline = "\r\n" if first_line.endswith(b"\r") else "\n"
        self.result.inputs.append(CardInput(loaded.record, loaded.document, image_urls=images))

    def _text(self, loaded: _Loaded) -> str:
        """A small document's text by the one decoding policy; guesses become warnings."""
        decoded = decode_text(loaded.data())
        location = loaded.record.location
        for note in decoded.notes:
            self.result.warnings.append(Problem(Location(location, note.line), note.message))
        return decoded.text

    def _follow_updatelist(self, loaded: _Loaded) -> None:
        record = loaded.record
        record.kind = "updatelist"
        text = self._text(loaded)
        plugin = PluginFiles(parse_updatelist(text, record.location), record.location)
        images = plugin.updatelist.image_urls()
        for name in plugin.updatelist.card_url_files:
            try:
                url_file = self._load(plugin.resolve(name), record.location, conditional=False)
            except LackeyError as error:  # images are optional: the cards still import
                self.result.warnings.append(Problem(Location(record.location), str(error)))
                continue
            if url_file is not None:
                url_file.record.kind = "image-urls"
                images.add_lines(self._text(url_file))
        listed: list[str] = []
        for list_name in ("ListOfCardDataFiles.txt", "setlist.txt"):
            if plugin.has(list_name):
                listing = self._load(plugin.resolve(list_name), record.location, conditional=False)
                assert listing is not None
                listing.record.kind = "file-list"
                listed = plugin.card_files_named(self._text(listing), list_name)
                break
        files, warnings = plugin.card_files(listed)
        self.result.warnings.extend(warnings)
        if not files:
            raise ZcardsError("the updatelist names no card data files", Location(record.location))
        for location in files:
            self._collect_card_file(location, record.location, images)

    def _read_page(self, loaded: _Loaded) -> None:
        record = loaded.record
        record.kind = "html"
        import lxml.html  # only pages need an HTML parser

        page = lxml.html.fromstring(loaded.data(), base_url=record.location)
        inputs_before = len(self.result.inputs)
        for link in _card_links(page, record.location):
            self._collect_card_file(link, record.location, optional=True)
        tables = [t for t in (_table_cards(table, record) for table in page.iter("table")) if t]
        for parsed in tables:
            self.result.inputs.append(CardInput(record, table=parsed))
        if len(self.result.inputs) == inputs_before:
            raise ZcardsError(
                "the HTML page has no card table (a header row with Name and Set) "
                "and no links to .txt card data files",
                Location(record.location),
            )
        record.row_count = sum(len(parsed.stored) for parsed in tables) or None


def sniff(data: bytes, content_type: str = "") -> str | None:
    """ "html", "updatelist", "card-data" or None, from the content itself; the Content-Type
    decides only when the content does not (hosts label any ``.txt`` file ``text/html``)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    if _HTML_START.match(head):
        return "html"
    text = head.decode("utf-8", errors="replace")
    if looks_like_card_data(text) or spreadsheet_kind(head):
        return "card-data"
    if _UPDATELIST_HEAD.match(text):
        return "updatelist"
    return "html" if "html" in content_type.lower() else None


def encoding_hint(head: bytes) -> str:
    """What to add to "not card data" when the bytes are UTF-16 (a spreadsheet's "Unicode
    text" export): NUL bytes every other byte, or a UTF-16 byte order mark."""
    sample = head[:200]
    utf16 = sample.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        len(sample) >= 8 and sample.count(0) * 3 >= len(sample)
    )
    if not utf16:
        return ""
    return "; it is UTF-16 encoded text: save it as UTF-8 (a spreadsheet's 'CSV UTF-8' or 'Text')"


def _html_error(location: str) -> ZcardsError:
    return ZcardsError(
        "expected Lackey card data but got an HTML page (an error page?)", Location(location, 1)
    )


def _card_links(page: lxml.html.HtmlElement, base: str) -> list[str]:
    """Links to ``.txt`` files, resolved and deduplicated in page order."""
    seen: dict[str, None] = {}
    for anchor in page.iter("a"):
        href = (anchor.get("href") or "").strip()
        if href and _path_of(href).lower().endswith(".txt"):
            target = _join(base, href)
            if target is not None:
                seen.setdefault(target, None)
    return list(seen)


def _table_cards(table: lxml.html.HtmlElement, record: SourceRecord) -> CardFile | None:
    rows = [row for row in table.iter("tr") if row.xpath("./th|./td")]
    if not rows:
        return None
    header = [cell.text_content().strip() for cell in rows[0].xpath("./th|./td")]
    lowered = {cell.casefold() for cell in header}
    if not {"name", "set"} <= lowered:
        return None
    body = [
        (row.sourceline or 0, [cell.text_content() for cell in row.xpath("./th|./td")])
        for row in rows[1:]
    ]
    return normalise_table(header, body, record.location, positional=False)


def _join(base: str, href: str) -> str | None:
    """A link's target; a local page's links never leave the page's folder (None)."""
    if is_url(base) or is_url(href):
        return urljoin(base, href)
    folder = Path(base).parent.resolve()
    target = (folder / href).resolve()
    return str(target) if target.is_relative_to(folder) else None


def _path_of(location: str) -> str:
    return urlsplit(location).path if is_url(location) else location


def _stamp(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns


def _hash_file(path: Path) -> tuple[bytes, str, int]:
    """A file's first bytes, SHA-256 and size, read as a stream."""
    digest = hashlib.sha256()
    size = 0
    with open_regular(path, "card data") as stream:  # a FIFO or device is refused, not read
        head = stream.read(_HEAD_BYTES)
        block = head
        while block:
            digest.update(block)
            size += len(block)
            block = stream.read(_HASH_BLOCK)
    return head, digest.hexdigest(), size
