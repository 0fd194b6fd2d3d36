"""Read a published Lackey plugin's ``updatelist.txt``: its card data files and image URLs.

The card data files are the ones ``ListOfCardDataFiles.txt`` or the legacy ``setlist.txt``
names, plus every other ``sets/*.txt`` (LackeyCCG loads those too: tribbles' saved setup uses
cards of a file its setlist omits). Card-image URLs come from ``CardImageURLs:`` lines (inline
or in ``CardURLFiles:`` files) and ``CardGeneralURLs:`` base URLs (lackey-reference §9.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urljoin

from lackey_plugin.text import split_lines
from lackey_plugin.updatelist import parse_updatelist as read_manifest
from zcards.errors import Location, ZcardsError
from zcards.fetch import is_url
from zcards.model import Card
from zcards.normalise import Problem

_PLUGIN_PATH = re.compile(r"^plugins/[^/]+/+(.+)$")
_CARD_FILE = re.compile(r"^sets/[^/]+\.txt$", re.I)


@dataclass
class ImageUrls:
    """Where a card's image can be downloaded, as a plugin's updatelist says.

    Lookup order as in LackeyCCG: ``<Set>/<file>``, then ``general/<file>`` (image files listed
    under ``sets/setimages/`` count too), then the first general base URL.
    """

    explicit: dict[str, str] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)

    def copy(self) -> ImageUrls:
        return ImageUrls(dict(self.explicit), list(self.general))

    def add(self, key: str, url: str) -> None:
        self.explicit.setdefault(key.strip().casefold(), url.strip())

    def add_lines(self, text: str) -> None:
        """``Set/ImageFile.jpg<TAB>URL`` lines (a space separator occurs in the wild too)."""
        for line in split_lines(text):
            parts = line.strip().split("\t") if "\t" in line else line.strip().split(None, 1)
            if len(parts) >= 2 and is_url(parts[-1].strip()):
                self.add(parts[0], parts[-1])

    def url_for(self, card: Card) -> str:
        return self.url_for_file(card.set_name, card.image_file)

    def url_for_file(self, set_name: str, image_file: str) -> str:
        """The URL of a stored card's image (cards of a not-modified file are not parsed)."""
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


@dataclass
class UpdateList:
    plugin: str
    files: dict[str, tuple[str, str]]
    images: ImageUrls
    url_files: list[str]


def parse_updatelist(text: str, origin: str) -> UpdateList:
    """What an importer needs from an updatelist: the plugin's files and its image URLs.

    The format itself is read by :mod:`lackey_plugin.updatelist`, the one parser of it.
    """
    manifest = read_manifest(text, origin)
    files: dict[str, tuple[str, str]] = {}
    images = ImageUrls()
    for entry in manifest.entries:
        match = _PLUGIN_PATH.match(entry.local_path.replace("\\", "/"))
        if not match or not is_url(entry.url):
            continue
        relative = re.sub("/+", "/", match.group(1))
        files.setdefault(relative.casefold(), (relative, entry.url))
        if relative.casefold().startswith("sets/setimages/"):
            images.add(relative[len("sets/setimages/") :], entry.url)
    for path, url in manifest.card_image_urls:
        images.add_lines(f"{path}\t{url}" if url else path)
    images.general.extend(url for url in manifest.card_general_urls if is_url(url))
    return UpdateList(manifest.name, files, images, manifest.card_url_files)


class PluginFiles:
    """Finds a plugin's files: beside a local updatelist first, else at its listed URLs."""

    def __init__(self, updatelist: UpdateList, location: str) -> None:
        self.updatelist = updatelist
        self.location = location
        self.folder = None if is_url(location) else Path(location).parent

    def has(self, relative: str) -> bool:
        return relative.casefold() in self.updatelist.files or self._local(relative) is not None

    def resolve(self, relative: str) -> str:
        """Where a plugin file is: beside a local updatelist (never outside its folder), else
        at its listed URL, else next to the updatelist's URL."""
        local = self._local(relative)
        if local is not None:
            return str(local)
        listed = self.updatelist.files.get(relative.casefold())
        if listed:
            return listed[1]
        if self.folder is not None:
            return str(self._inside(self.folder / relative))
        return urljoin(self.location, relative)

    def _inside(self, path: Path) -> Path:
        """A local plugin's file, refused when it (or a link on the way) leads outside."""
        assert self.folder is not None
        resolved = path.resolve()
        if not resolved.is_relative_to(self.folder.resolve()):
            raise ZcardsError(
                f"refusing {str(path)!r}: a local plugin's files must be inside its folder "
                f"{str(self.folder)!r}",
                Location(self.location),
            )
        return resolved

    def card_files_named(self, text: str, list_name: str) -> list[str]:
        """Card data files named by ``ListOfCardDataFiles.txt`` or ``setlist.txt``."""
        if list_name.casefold() == "listofcarddatafiles.txt":
            names = re.findall(r"<filetoinclude>\s*(.*?)\s*</filetoinclude>", text, re.I | re.S)
        else:
            lines = [line.strip() for line in split_lines(text)]
            count = int(lines[0]) if lines and lines[0].isdigit() else 0
            names = [name for name in lines[1 : 1 + count] if name]
        return [f"sets/{name}" for name in names]

    def card_files(self, listed: list[str]) -> tuple[list[str], list[Problem]]:
        """Locations of every card data file, listed ones first, then other ``sets/*.txt``."""
        relatives = list(dict.fromkeys(listed))
        known = {relative.casefold() for relative in relatives}
        warnings = []
        others = [rel for rel, _ in self.updatelist.files.values() if _CARD_FILE.match(rel)]
        if not others and self.folder is not None:
            others = [f"sets/{path.name}" for path in sorted((self.folder / "sets").glob("*.txt"))]
        for relative in others:
            if relative.casefold() in known:
                continue
            if listed:
                note = f"{relative} is not in the plugin's card file list; imported too"
                warnings.append(Problem(Location(self.location), note))
            relatives.append(relative)
            known.add(relative.casefold())
        return [self.resolve(relative) for relative in relatives], warnings

    def _local(self, relative: str) -> Path | None:
        """The file beside a local updatelist, matching names case-insensitively like Windows."""
        if self.folder is None or ".." in relative.split("/"):
            return None
        current = self.folder
        for part in relative.split("/"):
            exact = current / part
            if exact.exists():
                current = exact
                continue
            if not current.is_dir():
                return None
            matches = [p for p in current.iterdir() if p.name.casefold() == part.casefold()]
            if not matches:
                return None
            current = matches[0]
        return self._inside(current) if current.is_file() else None
