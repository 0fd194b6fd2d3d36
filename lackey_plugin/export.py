"""Write a complete, installable LackeyCCG plugin from a :class:`PluginContent`, atomically.

The content is the plugin as data, for any game: its game definition, card data of any
columns, decks, packs, formats and release. :func:`write_plugin` writes every file into a
folder, the updatelist last (each shipped file with its checksum); :func:`publish_plugin`
builds in a temporary folder next to the target, lints it (an error stops it, warnings are
reported), and only then swaps it in (:mod:`lackey_plugin.folder_swap`: a complete plugin
is there at every instant, and whatever a killed run left is cleaned up by the next), so a
failed run leaves the previous plugin untouched. Output is deterministic: files, rows and
updatelist lines come in a fixed order and the only date is the release date.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import quote

from lackey_plugin import folder_swap
from lackey_plugin.carddata import render_card_files
from lackey_plugin.checksum import checksum_file
from lackey_plugin.dek import DeckEntry, write_dek
from lackey_plugin.errors import LackeyError
from lackey_plugin.files import current_umask
from lackey_plugin.game import GameDefinition
from lackey_plugin.lint import ERROR, LintFinding, lint_plugin
from lackey_plugin.packs import (
    Format,
    Pack,
    render_card_file_list,
    render_formats,
    render_packdefinitions,
)
from lackey_plugin.paths import is_safe_component, unsafe_path
from lackey_plugin.plugininfo import render_plugininfo
from lackey_plugin.release import render_chat
from lackey_plugin.uninstall import render_uninstall
from lackey_plugin.updatelist import UpdateEntry, UpdateList, format_date, render_updatelist
from lackey_plugin.version import read_stamp, render_version, valid_stamp, yymmdd


@dataclass(frozen=True)
class CardSet:
    """One card data file's worth of cards (``sets/<name>.txt``, split past 1 MB): the
    columns of its header and one row per card, a mapping of fields or the values in column
    order (a sequence may run past the header: unnamed trailing fields). ``newline``: the
    line ending its file is written with (``"\r\n"`` keeps a Windows source's)."""

    name: str
    columns: Sequence[str]
    rows: Sequence[Mapping[str, str] | Sequence[str]]
    newline: str = "\n"


# Characters a URL path may hold as they are (RFC 3986 sub-delimiters): "&" stays "&".
_URL_SAFE = "/&'()!,;=+$@~"
DATE_VERSION = "date"
"""``PluginContent.plugin_version`` that writes the release date as ``YYYY.M.D``."""


@dataclass(frozen=True)
class PluginDeck:
    """A deck shipped as ``decks/<name>.dek``; its entries name their set and ImageFile."""

    name: str
    entries: Sequence[DeckEntry]


@dataclass(frozen=True)
class PluginContent:
    """Everything a plugin folder holds, as data.

    ``draw`` writes the artwork (card images, card back, pack images…) into the folder before
    the updatelist is made; ``installed_outside`` names files of the folder that Lackey
    installs relative to its own root instead of the plugin's folder (a table background).

    Release extras: ``shipped`` files are copied as they are (folder path -> file: decks,
    pack definitions, sounds, ``saved/start.txt``…); ``chat`` lines become
    ``defaultchat.txt``; ``previous`` (the last release's updatelist) gives ``uninstall.txt``
    (every file it installed that this release does not). Addresses: ``image_urls`` are the
    ``CardGeneralURLs`` (default: ``base_url + sets/setimages/<set>/``, the images shipped
    here; give them to name images that live elsewhere), ``url_files`` the ``CardURLFiles``,
    ``urls`` the download address of a file not published at ``base_url + path``.
    ``plugin_version`` goes into ``<pluginversion>`` (:data:`DATE_VERSION`: the release
    date; None: no tag). ``packs`` and ``formats`` are written when there are some.
    """

    name: str
    game: GameDefinition
    release: date
    base_url: str
    message: str
    card_sets: Sequence[CardSet] = ()
    decks: Sequence[PluginDeck] = ()
    packs: Sequence[Pack] = ()
    formats: Sequence[Format] = ()
    draw: Callable[[Path], None] | None = None
    installed_outside: frozenset[str] = frozenset()
    shipped: Mapping[str, Path] = field(default_factory=dict)
    chat: Sequence[str] = ()
    previous: UpdateList | None = None
    image_urls: Sequence[str] | None = None
    url_files: Sequence[str] = ()
    urls: Mapping[str, str] = field(default_factory=dict)
    plugin_version: str | None = DATE_VERSION

    @property
    def version(self) -> str:
        """The ``version.txt`` stamp Lackey's update check compares (``YYMMDD``)."""
        return yymmdd(self.release)


@dataclass
class Publication:
    """What :func:`publish_plugin` did: the folder, how many files and bytes it ships, and
    whether an identical release was already there (``unchanged``)."""

    plugin_dir: Path
    version: str
    files: int = 0
    bytes: int = 0
    unchanged: bool = False
    warnings: list[LintFinding] = field(default_factory=list)
    """The lint's warnings on the release (they never block it; errors do)."""


def write_plugin(content: PluginContent, root: Path) -> None:
    """Write every file of ``content`` into the folder ``root``, the updatelist last."""
    day = content.release
    plugin_version = content.plugin_version
    if plugin_version == DATE_VERSION:
        plugin_version = f"{day.year}.{day.month}.{day.day}"
    _write(root / "plugininfo.txt", render_plugininfo(content.game, plugin_version))
    file_names = []
    for card_set in content.card_sets:
        files = render_card_files(
            card_set.name, card_set.columns, card_set.rows, newline=card_set.newline
        )
        for file_name, text in files:
            _write(root / "sets" / file_name, text)
            file_names.append(file_name)
    _write(root / "ListOfCardDataFiles.txt", render_card_file_list(file_names))
    if content.formats:
        _write(root / "formats.txt", render_formats(content.formats))
    for deck in content.decks:
        if not is_safe_component(deck.name):
            raise LackeyError(f"deck name {deck.name!r} is not a plain file name")
        _write(root / "decks" / f"{deck.name}.dek", write_dek(deck.entries, content.game))
    if content.packs:
        _write(root / "packs" / "packdefinitions1.xml", render_packdefinitions(content.packs))
    for relative, source in content.shipped.items():
        if unsafe_path(relative):
            raise LackeyError(f"shipped file {relative!r} would leave the plugin folder")
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, root / relative)
    if content.chat:
        _write(root / "defaultchat.txt", render_chat(content.chat))
    if content.draw is not None:
        content.draw(root)
    version = render_version(
        day, _url(content, "version.txt"), _url(content, "updatelist.txt"), content.message
    )
    _write(root / "version.txt", version)
    if content.previous is not None:
        uninstall = render_uninstall(content.previous, _listed(root, content), day)
        if uninstall:
            _write(root / "uninstall.txt", uninstall)
    _write(root / "updatelist.txt", render_updatelist(_updatelist(root, content)))


def _write(path: Path, text: str) -> None:
    """UTF-8 without BOM, LF line ends, whatever the platform (docs/lackey-formats.md §12.1)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _listed(root: Path, content: PluginContent) -> list[str]:
    """Where Lackey installs each file of the folder (relative to its own root)."""
    return [
        _local_path(content, path.relative_to(root).as_posix())
        for path in sorted(p for p in root.rglob("*") if p.is_file())
    ]


def _local_path(content: PluginContent, relative: str) -> str:
    if relative in content.installed_outside:
        return relative
    return f"plugins/{content.name}/{relative}"


def _updatelist(root: Path, content: PluginContent) -> UpdateList:
    """Every file in the folder with its checksum, at its URL under the base URL (or the one
    ``content.urls`` gives it)."""
    base_url = content.base_url
    entries = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        url = _url(content, relative)
        entries.append(UpdateEntry(_local_path(content, relative), url, unambiguous_checksum(path)))
    general = content.image_urls
    if general is None:
        general = [
            base_url + quote(f"sets/setimages/{s.name}/", safe=_URL_SAFE) for s in content.card_sets
        ]
    return UpdateList(
        content.name,
        format_date(content.release),
        entries,
        card_url_files=list(content.url_files),
        card_general_urls=list(general),
    )


def _url(content: PluginContent, relative: str) -> str:
    """Where the file at ``relative`` is published: its own address, else under the base."""
    return content.urls.get(relative) or content.base_url + quote(relative, safe=_URL_SAFE)


def unambiguous_checksum(path: Path) -> int:
    """The file's checksum, never 0 or -1: plugins list those as "skip" / "always download".

    The checksum is a plain byte sum, so about one image in 5,000 really sums to 0 or -1.
    A JPEG (or PNG) ignores bytes after its end marker, so one trailing byte moves it to 1.
    """
    checksum = checksum_file(path)
    if checksum in (0, -1) and path.suffix.lower() in (".jpg", ".png"):
        with path.open("ab") as handle:
            handle.write(b"\x01" if checksum == 0 else b"\x02")
        checksum = checksum_file(path)
    return checksum


def publish_plugin(
    content: PluginContent, out_dir: str | os.PathLike[str], *, lint_ignore: Collection[str] = ()
) -> Publication:
    """Write ``out_dir/<name>/`` from ``content``, replacing what was there only when the new
    folder is complete and its lint finds no error (findings whose code is in ``lint_ignore``
    aside; warnings are reported in :attr:`Publication.warnings`, never blocking).

    A folder holding a later release is refused; one holding the same release is left alone
    when its files are identical and refused when they differ.
    """
    name = content.name
    if not is_safe_component(name) or " " in name:
        raise LackeyError(f"plugin name {name!r} must be a plain folder name without spaces")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    publication = Publication(out / name, content.version)
    target = _through_link(out / name)
    with folder_swap.locked(target.parent):
        folder_swap.recover(target.parent, target.name)
        _publish_into(target, content, publication, lint_ignore)
    return publication


def _through_link(target: Path) -> Path:
    """The folder to replace: ``target`` itself, or the folder a symbolic link at ``target``
    points to (the plugin is updated through the link, which stays in place)."""
    if not target.is_symlink():
        return target
    real = Path(os.path.realpath(target))
    if not real.is_dir():
        raise LackeyError(f"{target} is a symbolic link to {real}, which is not a folder")
    return real


def _publish_into(
    target: Path, content: PluginContent, publication: Publication, lint_ignore: Collection[str]
) -> None:
    """Build next to ``target`` and swap it in (holding its folder's lock)."""
    out = target.parent
    previous = _previous_stamp(target)
    if previous and previous > content.version:
        raise LackeyError(
            f"{target} holds version {previous}, newer than {content.version}; pass a later --date"
        )
    build = Path(tempfile.mkdtemp(prefix=folder_swap.build_prefix(target.name), dir=out))
    build.chmod(_folder_mode())  # mkdtemp makes it private; a plugin folder is served and shared
    try:
        write_plugin(content, build)
        shipped = sorted(p for p in build.rglob("*") if p.is_file())
        publication.files = len(shipped)
        publication.bytes = sum(p.stat().st_size for p in shipped)
        publication.warnings = _self_check(build, content.name, lint_ignore)
        if previous == content.version:
            if _same_tree(build, target):
                publication.unchanged = True
                return
            raise SameDayRelease(target, previous)
        folder_swap.replace_folder(build, target)
    finally:
        shutil.rmtree(build, ignore_errors=True)


class SameDayRelease(LackeyError):
    """The plugin folder already holds this release's version, with other content: Lackey
    would not update players who have it, so the new content needs a later release date."""

    def __init__(self, target: Path, version: str) -> None:
        super().__init__(
            f"{target} already holds version {version} with different content; "
            "a new export needs a later --date"
        )
        self.target = target
        self.version = version


def _previous_stamp(target: Path) -> str | None:
    version = target / "version.txt"
    if not version.is_file():
        return None
    stamp = read_stamp(version.read_text(encoding="utf-8", errors="replace"))
    if not stamp or not valid_stamp(stamp):
        raise LackeyError(f"{version} has no valid lastupdateYYMMDD; move the old plugin away")
    return stamp


def _self_check(build: Path, name: str, ignore: Collection[str]) -> list[LintFinding]:
    """Lint the build: an error (something a user's Lackey would trip on) stops the release;
    warnings are returned for the caller to show (shipped files of a real plugin have some)."""
    findings = [f for f in lint_plugin(build, name=name) if f.code not in ignore]
    errors = [finding for finding in findings if finding.severity == ERROR]
    if errors:
        details = "\n".join(str(finding) for finding in errors[:20])
        raise LackeyError(f"the exported plugin failed its own lint:\n{details}")
    return findings


def _same_tree(left: Path, right: Path) -> bool:
    def files(root: Path) -> list[str]:
        return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    names = files(left)
    if not right.is_dir() or names != files(right):
        return False
    return all(filecmp.cmp(left / n, right / n, shallow=False) for n in names)


def _folder_mode() -> int:
    """The mode a new folder gets under the user's umask (mkdtemp's 0o700 would hide it)."""
    return 0o777 & ~current_umask()
