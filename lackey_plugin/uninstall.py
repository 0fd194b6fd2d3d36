"""``uninstall.txt``: which files of an older release an installed Lackey deletes
(docs/lackey-formats.md §6).

Its paths come from the previous release's updatelist, which anyone may have written, and
Lackey deletes what they name inside the player's plugin folder, where the player's saved
games and decks live. So a path is kept only when, normalised, it names a file strictly
inside that folder: never the folder itself (``./``, an empty path), a folder (``x/``; the lint
allows one strictly inside, as published plugins remove old image folders), a
path leaving it, the player's ``saved/`` or the ``decks/`` folder, or text holding markup or
control characters. The file is written with an XML library, and the lint reads it with an
XML parser (entities, CDATA and comments decoded as any XML reader would), not a regex.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from xml.parsers import expat

from lackey_plugin.lint_base import ERROR, Plugin, read_text
from lackey_plugin.paths import unsafe_path
from lackey_plugin.updatelist import UpdateList
from lackey_plugin.version import valid_stamp, yymmdd

# The player's own folders inside the plugin folder: never removed, nothing in saved/ either.
PLAYER_FOLDERS = ("saved", "decks")
_NOT_PLAIN = re.compile(r"[<>&\"'\x00-\x1f\x7f-\x9f]")


def removable_path(path: str, *, folders: bool = False) -> str | None:
    """``path`` normalised (``\\`` as ``/``, no ``.`` or repeated ``/``), or None when it does
    not name a file strictly inside the plugin folder (see the module's docstring).
    ``folders``: a folder strictly inside (``sets/setimages/old/``, as published plugins
    remove) is removable too, and keeps its final ``/``."""
    folder = path.endswith(("/", "\\"))
    if _NOT_PLAIN.search(path) or (folder and not folders):
        return None
    normal = posixpath.normpath(path.replace("\\", "/"))
    first = normal.split("/")[0].casefold()
    if (
        normal in (".", "")
        or unsafe_path(normal)
        or first == "saved"
        or normal.casefold() in (PLAYER_FOLDERS)
    ):
        return None
    return f"{normal}/" if folder else normal


def render_uninstall(previous: UpdateList, listed: Iterable[str], day: date) -> str:
    """``uninstall.txt`` removing what ``previous`` installed in the plugin folder and
    ``listed`` (this release's install paths) does not have; "" when nothing goes."""
    now = {path.casefold() for path in listed}
    gone: dict[str, str] = {}
    for entry in previous.entries:
        relative = previous.plugin_path(entry)
        removable = removable_path(relative) if relative is not None else None
        if removable is None or entry.local_path.casefold() in now:
            continue
        if removable.casefold() != "uninstall.txt":
            gone.setdefault(removable.casefold(), removable)
    if not gone:
        return ""
    root = ET.Element("uninstall")
    root.text = "\n"
    children = [("dateYYMMDD", yymmdd(day))] + [("removepath", p) for p in sorted(gone.values())]
    for tag, text in children:
        ET.SubElement(root, tag).text = text
        root[-1].tail = "\n"
    return ET.tostring(root, encoding="unicode") + "\n"


@dataclass
class _Read:
    """What the parser found: each ``<removepath>``'s decoded text and line, the date."""

    paths: list[tuple[str, int, bool]]  # text, line, whether markup (a comment) was inside
    stamp: str | None = None


def check_uninstall(plugin: Plugin) -> None:
    """Lint ``uninstall.txt``: well-formed XML without entity declarations, a valid date,
    and every ``<removepath>`` a removable file this release does not ship."""
    path = plugin.root / "uninstall.txt"
    if not path.is_file():
        return
    file = "uninstall.txt"
    try:
        found = _parse(read_text(path))
    except (expat.ExpatError, ValueError) as error:
        plugin.add(ERROR, "uninstall-xml", f"not well-formed XML: {error}", file)
        return
    if found.stamp is None or not valid_stamp(found.stamp.strip()):
        plugin.add(ERROR, "uninstall-date", "no valid <dateYYMMDD>; Lackey may ignore it", file)
    shipped = {name.casefold() for name in plugin.files()}
    for text, line, markup in found.paths:
        removed = text.strip()
        normal = None if markup else removable_path(removed, folders=True)
        if normal is None:
            message = f"{removed!r} is not a file or folder strictly inside the plugin folder"
            plugin.add(ERROR, "unsafe-path", message, file, line)
        elif normal.casefold() in shipped or (
            normal.endswith("/") and any(name.startswith(normal.casefold()) for name in shipped)
        ):
            message = f"removes {removed!r}, which this release ships"
            plugin.add(ERROR, "uninstall-shipped", message, file, line)


def _parse(text: str) -> _Read:
    """One pass of expat over ``text``; a DOCTYPE (entity declarations) is a ValueError."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found = _Read([])
    current: list[str] | None = None
    start, markup, tag = 0, False, ""

    def opened(name: str, _: dict[str, str]) -> None:
        nonlocal current, start, markup, tag
        tag, current, start, markup = name, [], parser.CurrentLineNumber, False

    def closed(name: str) -> None:
        nonlocal current
        if current is not None and name == "removepath":
            found.paths.append(("".join(current), start, markup))
        elif current is not None and name == "dateYYMMDD":
            found.stamp = "".join(current)
        current = None

    def data(chunk: str) -> None:
        if current is not None:
            current.append(chunk)

    def comment(_: str) -> None:
        nonlocal markup
        markup = markup or current is not None

    def doctype(*_: object) -> None:
        raise ValueError("it declares a DOCTYPE (entities are not part of the format)")

    parser.StartElementHandler = opened
    parser.EndElementHandler = closed
    parser.CharacterDataHandler = data
    parser.CommentHandler = comment
    parser.StartDoctypeDeclHandler = doctype
    parser.Parse(text, True)
    return found
