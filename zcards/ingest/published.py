"""Find a published Lackey plugin's card data files, for an import from its updatelist.

The updatelist itself is read by :mod:`lackey_plugin.updatelist` (the one reader of it, which
also says where card images are). The card data files are the ones
``ListOfCardDataFiles.txt`` or the legacy ``setlist.txt`` names, plus every other
``sets/*.txt`` (LackeyCCG loads those too: tribbles' saved setup uses cards of a file its
setlist omits), found beside a local updatelist or at their listed URLs.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

from lackey_plugin.text import split_lines
from lackey_plugin.updatelist import UpdateList
from lackey_plugin.urls import is_url
from zcards.cards.normalise import Problem
from zcards.errors import Location, ZcardsError

_CARD_FILE = re.compile(r"^sets/[^/]+\.txt$", re.I)


class PluginFiles:
    """Finds a plugin's files: beside a local updatelist first, else at its listed URLs."""

    def __init__(self, updatelist: UpdateList, location: str) -> None:
        self.updatelist = updatelist
        self.files = updatelist.plugin_files()
        self.location = location
        self.folder = None if is_url(location) else Path(location).parent

    def has(self, relative: str) -> bool:
        return relative.casefold() in self.files or self._local(relative) is not None

    def resolve(self, relative: str) -> str:
        """Where a plugin file is: beside a local updatelist (never outside its folder), else
        at its listed URL, else next to the updatelist's URL."""
        local = self._local(relative)
        if local is not None:
            return str(local)
        listed = self.files.get(relative.casefold())
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
            from lackey_plugin.packs import read_card_file_list  # XML: lxml, for plugins only

            names = [name for name, _line in read_card_file_list(text)]
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
        others = [rel for rel, _ in self.files.values() if _CARD_FILE.match(rel)]
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
