"""``updatelist.txt``: Lackey's install/update manifest, read and written
(docs/lackey-formats.md §9.1).

Reading is as lenient as Lackey: LF, CRLF or CR-only, no final newline, tabs after section
headers, UTF-8 or Windows-1252. Writing is canonical: UTF-8, LF, the sections in a fixed order.
An :class:`UpdateList` also answers what an installer asks: which plugin files it lists
(:meth:`UpdateList.plugin_files`) and where a card's image can be downloaded
(:meth:`UpdateList.image_urls`: ``CardImageURLs:`` lines, inline or in ``CardURLFiles:``
files, and ``CardGeneralURLs:`` base URLs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import quote

from lackey_plugin.errors import LackeyError, Location
from lackey_plugin.text import control_characters, decode_bytes, split_lines
from lackey_plugin.urls import is_url

SECTIONS = ("CardImageURLs:", "CardURLFiles:", "CardGeneralURLs:")
_DATE = re.compile(r"^(\d{2})-(\d{2})-(\d{2})$")
_PLUGIN_PATH = re.compile(r"^plugins/[^/]+/+(.+)$")
_SET_IMAGES = "sets/setimages/"


@dataclass
class ImageUrls:
    """Where a card's image can be downloaded, as a plugin's updatelist says.

    Lookup order as in LackeyCCG: ``<Set>/<file>``, then ``general/<file>`` (image files listed
    under ``sets/setimages/`` count too), then the first general base URL.
    """

    explicit: dict[str, str] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def add(self, key: str, url: str) -> None:
        self.explicit.setdefault(key.strip().casefold(), url.strip())

    def add_lines(self, text: str) -> None:
        """``Set/ImageFile.jpg<TAB>URL`` lines (a space separator occurs in the wild too)."""
        for line in split_lines(text):
            parts = line.strip().split("\t") if "\t" in line else line.strip().split(None, 1)
            if len(parts) >= 2 and is_url(parts[-1].strip()):
                self.add(parts[0], parts[-1])

    def url_for_file(self, set_name: str, image_file: str) -> str:
        """The URL of a card's image, from its Set and ImageFile values."""
        front = image_file.split(",")[0].strip()
        if not front:
            return ""
        file_name = front if "." in front.rsplit("/", 1)[-1] else f"{front}.jpg"
        for folder in (set_name, "general"):
            explicit = self.explicit.get(f"{folder}/{file_name}".casefold())
            if explicit:
                return explicit
        if self.general:
            base = self.general[0] if self.general[0].endswith("/") else self.general[0] + "/"
            return base + quote(file_name)
        return ""


@dataclass(frozen=True)
class UpdateEntry:
    """One file line: where Lackey installs it (relative to its root), its URL, its checksum."""

    local_path: str
    url: str
    checksum: int
    line: int = 0


@dataclass
class UpdateList:
    name: str
    date: str
    entries: list[UpdateEntry] = field(default_factory=list)
    card_image_urls: list[tuple[str, str]] = field(default_factory=list)
    card_url_files: list[str] = field(default_factory=list)
    card_general_urls: list[str] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    """Lines that could not be read (line number, message); Lackey would skip them."""

    def plugin_path(self, entry: UpdateEntry) -> str | None:
        """The entry's path inside the plugin folder, or None when it installs elsewhere."""
        prefix = f"plugins/{self.name}/"
        if entry.local_path.startswith(prefix):
            return entry.local_path[len(prefix) :]
        return None

    def plugin_files(self) -> dict[str, tuple[str, str]]:
        """Every listed http(s) file under a plugin folder: its path inside the folder,
        casefolded -> (that path, its URL); the first listing of a path wins."""
        files: dict[str, tuple[str, str]] = {}
        for entry in self.entries:
            match = _PLUGIN_PATH.match(entry.local_path.replace("\\", "/"))
            if match and is_url(entry.url):
                relative = re.sub("/+", "/", match.group(1))
                files.setdefault(relative.casefold(), (relative, entry.url))
        return files

    def image_urls(self) -> ImageUrls:
        """Where card images can be downloaded, as this updatelist says (``CardURLFiles:``
        files are the caller's to fetch and :meth:`ImageUrls.add_lines`)."""
        images = ImageUrls()
        for relative, url in self.plugin_files().values():
            if relative.casefold().startswith(_SET_IMAGES):
                images.add(relative[len(_SET_IMAGES) :], url)
        for path, url in self.card_image_urls:
            images.add_lines(f"{path}\t{url}" if url else path)
        images.general.extend(url for url in self.card_general_urls if is_url(url))
        return images


def format_date(day: date) -> str:
    """Line 1 carries the date as ``MM-DD-YY``, as ``/mkupdate`` writes it."""
    return day.strftime("%m-%d-%y")


def parse_updatelist(data: bytes | str, source: str = "updatelist.txt") -> UpdateList:
    """Parse an updatelist; only a missing plugin name on line 1 is fatal."""
    text = decode_bytes(data) if isinstance(data, bytes) else data
    lines = split_lines(text)  # CR and LF only, as Lackey
    header = lines[0].split("\t") if lines else [""]
    name = header[0].strip()
    if not name:
        raise LackeyError("line 1 must start with the plugin folder name", Location(source, 1))
    result = UpdateList(name=name, date=header[1].strip() if len(header) > 1 else "")
    section: str | None = None
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.rstrip("\t ")
        if not line.strip():
            section = None
            continue
        if line in SECTIONS:
            section = line
            continue
        if section == "CardImageURLs:":
            path, _, url = line.partition("\t")
            result.card_image_urls.append((path, url.strip()))
        elif section == "CardURLFiles:":
            result.card_url_files.append(line.strip())
        elif section == "CardGeneralURLs:":
            result.card_general_urls.append(line.strip())
        else:
            _parse_entry(result, line, number)
    return result


def _parse_entry(result: UpdateList, line: str, number: int) -> None:
    parts = line.split("\t")
    if len(parts) < 3:
        result.problems.append((number, "file line needs: local path, URL, checksum"))
        return
    try:
        checksum = int(parts[2].strip())
    except ValueError:
        result.problems.append((number, f"checksum {parts[2].strip()!r} is not an integer"))
        return
    result.entries.append(UpdateEntry(parts[0].strip(), parts[1].strip(), checksum, number))


def read_updatelist(path: Path) -> UpdateList:
    return parse_updatelist(path.read_bytes(), str(path))


def render_updatelist(updatelist: UpdateList) -> str:
    """The canonical text: file lines, then each non-empty section closed by a blank line.
    A name, path or URL holding a TAB, a line break or another control character would
    split its line, so it is refused."""
    lines = [f"{updatelist.name}\t{updatelist.date}"]
    lines += [f"{e.local_path}\t{e.url}\t{e.checksum}" for e in updatelist.entries]
    sections = (
        ("CardImageURLs:", [f"{path}\t{url}" for path, url in updatelist.card_image_urls]),
        ("CardURLFiles:", updatelist.card_url_files),
        ("CardGeneralURLs:", updatelist.card_general_urls),
    )
    values = [updatelist.name, *updatelist.card_url_files, *updatelist.card_general_urls]
    values += [text for e in updatelist.entries for text in (e.local_path, e.url)]
    values += [text for pair in updatelist.card_image_urls for text in pair]
    for value in values:
        if control_characters(value):
            raise LackeyError(f"updatelist.txt cannot hold {value!r}: {control_characters(value)}")
    for title, body in sections:
        if body:
            lines += [title, *body, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def valid_date(value: str) -> bool:
    match = _DATE.match(value)
    if not match:
        return False
    month, day, year = (int(part) for part in match.groups())
    try:
        date(2000 + year, month, day)
    except ValueError:
        return False
    return True
