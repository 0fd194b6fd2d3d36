"""Linter checks for the files that refer to cards or ship the plugin: decks, packs, formats,
``updatelist.txt`` and ``version.txt``. Shares :class:`lackey_plugin.lint_base.Plugin`."""

from __future__ import annotations

from lackey_plugin.checksum import checksum_file
from lackey_plugin.dek import read_deck
from lackey_plugin.errors import LackeyError
from lackey_plugin.lint_base import ERROR, RUNTIME_FILES, WARNING, Plugin, read_text
from lackey_plugin.packs import pack_criteria, parse_xml
from lackey_plugin.paths import unsafe_path
from lackey_plugin.updatelist import parse_updatelist, valid_date
from lackey_plugin.version import read_stamp, valid_stamp

MAX_LISTED = 3
UPDATELIST = "updatelist.txt"


def _card_index(plugin: Plugin) -> tuple[set[tuple[str, str]], set[str]]:
    keys, names = set(), set()
    for card_file in plugin.card_files.values():
        name_col, set_col = card_file.header[0], card_file.header[1]
        for row in card_file.rows:
            name = row.fields.get(name_col, "")
            keys.add((name, row.fields.get(set_col, "")))
            names.add(name)
    return keys, names


def check_decks(plugin: Plugin) -> None:
    """Deck cards must exist in the card data; ``.dek`` superzones must be deck zones."""
    decks = plugin.root / "decks"
    if not decks.is_dir():
        return
    keys, names = _card_index(plugin)
    folded_names = {name.casefold() for name in names}
    for path in sorted(p for p in decks.rglob("*") if p.suffix.lower() in (".dek", ".txt")):
        file = path.relative_to(plugin.root).as_posix()
        try:
            deck = read_deck(path)
        except LackeyError as error:
            plugin.add(
                WARNING,
                "deck-unreadable",
                error.message,
                file,
                error.location.line or 0 if error.location else 0,
            )
            continue
        if path.suffix.lower() == ".txt":
            plugin.add(WARNING, "text-deck", "text deck list (Lackey's own form is .dek)", file)
        for section in deck.sections if path.suffix.lower() == ".dek" else ():
            if plugin.deck_zones and section not in plugin.deck_zones:
                plugin.add(WARNING, "deck-superzone", f"superzone {section!r} is no deckzone", file)
        for entry in deck.entries:
            known = (entry.name, entry.set_name) in keys if entry.set_name else entry.name in names
            if known:
                continue
            hint = (
                " (the name exists in another set)"
                if entry.name in names
                else " (differs only in case)"
                if entry.name.casefold() in folded_names
                else ""
            )
            where = f" in set {entry.set_name!r}" if entry.set_name else ""
            plugin.add(
                WARNING,
                "deck-unknown-card",
                f"no card {entry.name!r}{where}{hint}",
                file,
                entry.line or 0,
            )


def check_packs(plugin: Plugin) -> None:
    """Pack criteria must name real columns and values; pack images should ship."""
    folder = plugin.root / "packs"
    if (folder / "packdefinitions.txt").is_file():
        plugin.add(WARNING, "legacy-packs", "legacy packdefinitions.txt", "packs")
    columns = plugin.columns()
    folded_columns = {column.casefold(): column for column in columns}
    for path in sorted(folder.glob("packdefinitions*.xml")) if folder.is_dir() else ():
        file = path.relative_to(plugin.root).as_posix()
        root, problems = parse_xml(path.read_bytes())
        for problem in problems:
            plugin.add(WARNING, "xml-malformed", problem, file)
        if root is None:
            continue
        for image in sorted({(p.findtext("packimage") or "").strip() for p in root.iter("pack")}):
            if image and not any((folder / f"{image}{ext}").is_file() for ext in (".jpg", ".png")):
                plugin.add(WARNING, "asset-missing", f"pack image packs/{image}.jpg missing", file)
        for crit in pack_criteria(root):
            if crit.field not in columns:
                spelled = folded_columns.get(crit.field.casefold())
                hint = f" (the header spells {spelled!r})" if spelled else ""
                plugin.add(
                    WARNING,
                    "pack-unknown-column",
                    f"pack {crit.pack!r}: no column {crit.field!r}{hint}",
                    file,
                    crit.line,
                )
            elif not _value_exists(plugin, crit.field, crit.eval, crit.data):
                plugin.add(
                    WARNING,
                    "pack-unknown-value",
                    f"pack {crit.pack!r}: no card has {crit.field} {crit.eval} {crit.data!r}",
                    file,
                    crit.line,
                )


def _value_exists(plugin: Plugin, column: str, evaluation: str, data: str) -> bool:
    values = (row.fields.get(column, "") for row in plugin.rows)
    if evaluation.upper() == "IS":
        return any(value == data for value in values)
    if evaluation.upper() == "CONTAINS":
        return any(data in value for value in values)
    return True


def check_formats(plugin: Plugin) -> None:
    path = plugin.root / "formats.txt"
    if not path.is_file():
        return
    root, problems = parse_xml(path.read_bytes())
    for problem in problems:
        plugin.add(WARNING, "xml-malformed", problem, "formats.txt")
    sets = {key[1] for key in _card_index(plugin)[0]}
    for element in root.iter("set") if root is not None else ():
        if (element.text or "") not in sets:
            plugin.add(
                WARNING,
                "format-unknown-set",
                f"format set {element.text!r} has no cards",
                "formats.txt",
                element.sourceline or 0,
            )


def check_distribution(plugin: Plugin) -> None:
    """updatelist.txt, version.txt and runtime files that should never ship."""
    for runtime in plugin.files():
        base = runtime.rsplit("/", 1)[-1]
        if runtime.startswith(("saved/AutoSave", "logs/")) or base == "recentdecks.txt":
            plugin.add(
                WARNING, "runtime-file", "written by Lackey at runtime; do not ship", runtime
            )
    version = plugin.root / "version.txt"
    if version.is_file():
        stamp = read_stamp(read_text(version))
        if stamp is None or not valid_stamp(stamp):
            plugin.add(
                ERROR,
                "version-date",
                f"lastupdateYYMMDD {stamp!r} is not a YYMMDD date",
                "version.txt",
            )
    if (plugin.root / "updatelist.txt").is_file():
        _check_updatelist(plugin)


def _check_updatelist(plugin: Plugin) -> None:
    file = UPDATELIST
    try:
        updatelist = parse_updatelist((plugin.root / file).read_bytes(), file)
    except LackeyError as error:
        plugin.add(ERROR, "updatelist-header", error.message, file, 1)
        return
    for line, problem in updatelist.problems:
        plugin.add(ERROR, "updatelist-line", problem, file, line)
    if updatelist.name != plugin.name:
        plugin.add(
            WARNING,
            "updatelist-name",
            f"line 1 names {updatelist.name!r}, the folder is {plugin.name!r}",
            file,
            1,
        )
    if not valid_date(updatelist.date):
        plugin.add(WARNING, "updatelist-date", f"date {updatelist.date!r} is not MM-DD-YY", file, 1)
    absent: list[str] = []
    listed: set[str] = set()
    for entry in updatelist.entries:
        _check_entry(plugin, updatelist, entry, absent, listed)
    if absent:
        plugin.add(
            WARNING,
            "updatelist-file-absent",
            f"{len(absent)} listed files are not in "
            f"the folder, e.g. {', '.join(absent[:MAX_LISTED])}",
            file,
        )
    if updatelist.entries:
        unlisted = [
            f
            for f in plugin.files()
            if f not in listed and f != file and f.rsplit("/", 1)[-1] not in RUNTIME_FILES
        ]
        if unlisted:
            plugin.add(
                WARNING,
                "updatelist-unlisted",
                f"{len(unlisted)} files are not listed, e.g. {', '.join(unlisted[:MAX_LISTED])}",
                file,
            )
    for url in [url for _, url in updatelist.card_image_urls] + updatelist.card_general_urls:
        _check_url(plugin, url, 0)
    for url_file in updatelist.card_url_files:
        if not (plugin.root / url_file).is_file():
            matches = [f for f in plugin.files() if f.casefold() == url_file.casefold()]
            hint = f" (only {matches[0]!r}, differing in case)" if matches else ""
            plugin.add(
                WARNING, "cardurlfile-missing", f"CardURLFiles names {url_file!r}{hint}", file
            )


def _check_url(plugin: Plugin, url: str, line: int) -> None:
    """Lackey downloads over http(s) only; a ``file://`` or other URL works on no user's
    machine, or reads theirs."""
    if not url.lower().startswith(("http://", "https://")):
        plugin.add(ERROR, "updatelist-url", f"{url!r} is not an http(s) URL", UPDATELIST, line)


def _other_plugin(plugin: Plugin, updatelist, local_path: str) -> str | None:
    """The other plugin's folder an entry installs into, if it does (``plugins/<other>/``)."""
    parts = local_path.replace("\\", "/").split("/")
    if len(parts) < 2 or parts[0].casefold() != "plugins":
        return None
    own = {updatelist.name.casefold(), plugin.name.casefold()}
    return None if parts[1].casefold() in own else parts[1]


def _check_entry(plugin: Plugin, updatelist, entry, absent: list[str], listed: set[str]) -> None:
    file = UPDATELIST
    _check_url(plugin, entry.url, entry.line)
    if unsafe_path(entry.local_path):
        plugin.add(
            ERROR, "unsafe-path", f"{entry.local_path!r} leaves Lackey's folder", file, entry.line
        )
        return
    other = _other_plugin(plugin, updatelist, entry.local_path)
    if other is not None:
        plugin.add(
            ERROR,
            "updatelist-other-plugin",
            f"{entry.local_path!r} installs into another plugin ({other!r})",
            file,
            entry.line,
        )
        return
    relative = updatelist.plugin_path(entry)
    if relative is None:
        # Installed outside the plugin (backgrounds, fonts): check the copy we ship, if any.
        relative = entry.local_path if (plugin.root / entry.local_path).is_file() else None
        if relative is None:
            return
    listed.add(relative)
    base = relative.rsplit("/", 1)[-1]
    if relative == "updatelist.txt":
        plugin.add(
            WARNING,
            "updatelist-self",
            "lists itself; its checksum is always stale",
            file,
            entry.line,
        )
        return
    if base in RUNTIME_FILES or relative.startswith(("saved/AutoSave", "logs/")):
        plugin.add(
            WARNING,
            "updatelist-runtime-file",
            f"lists user/runtime file {relative}",
            file,
            entry.line,
        )
        return
    if entry.checksum in (0, -1):
        plugin.add(
            WARNING,
            "placeholder-checksum",
            f"{relative} listed with {entry.checksum}",
            file,
            entry.line,
        )
        return
    path = plugin.root / relative
    if not path.is_file():
        absent.append(relative)
        return
    actual = checksum_file(path)
    if actual != entry.checksum:
        plugin.add(
            ERROR,
            "checksum-mismatch",
            f"{relative}: listed {entry.checksum}, file has {actual}",
            file,
            entry.line,
        )
