"""Lint: check any Lackey plugin folder the way Lackey would load it.

As lenient as Lackey (docs/lackey-formats.md §12.2): **errors** only for what certainly breaks
loading or is unsafe (no plugininfo.txt, a card file without Name/Set/ImageFile, a path leaving
the plugin folder, a listed checksum that does not match a shipped file, an unreadable version
date); **warnings** for what real, working plugins get away with. Assets (images, sounds) are
often not in a repository, so missing ones are warnings, summarised per folder.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from lackey_plugin import lint_files, lint_urls
from lackey_plugin.carddata import MAX_FILE_BYTES, CardDataFile, read_card_data
from lackey_plugin.lint_base import ERROR, WARNING, LintFinding, Plugin, read_text
from lackey_plugin.packs import parse_xml, read_card_file_list
from lackey_plugin.paths import unsafe_path
from lackey_plugin.plugininfo import (
    BLOCK_TAGS,
    CARD_KINDS,
    CHILD_TAGS,
    COLOURS,
    GENERAL_KINDS,
    SCALAR_TAGS,
    parse_plugininfo,
)
from lackey_plugin.release import check_release_files

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".bmp")
_KNOWN_TAGS = {t.lower() for t in ("plugin", *BLOCK_TAGS, *SCALAR_TAGS, *CHILD_TAGS)}


def lint_plugin(folder: str | Path, *, name: str | None = None) -> list[LintFinding]:
    """Every finding for the plugin in ``folder``, sorted by file and line.

    ``name`` is the plugin's install name when the folder is named differently (a build dir).
    """
    root = Path(folder)
    plugin = Plugin(root, name or root.name)
    if not root.is_dir():
        plugin.add(ERROR, "not-a-folder", "not a folder", str(root))
        return plugin.findings
    _check_plugininfo(plugin)
    _check_card_data(plugin)
    _check_images(plugin)
    lint_files.check_decks(plugin)
    lint_files.check_packs(plugin)
    lint_files.check_formats(plugin)
    lint_files.check_distribution(plugin)
    check_release_files(plugin)
    lint_urls.check_placeholder_urls(plugin)
    return sorted(set(plugin.findings))


def _check_plugininfo(plugin: Plugin) -> None:
    path = plugin.root / "plugininfo.txt"
    if not path.is_file():
        plugin.add(
            ERROR,
            "plugininfo-missing",
            "plugininfo.txt is missing; Lackey needs it",
            "plugininfo.txt",
        )
        return
    file = "plugininfo.txt"
    text = read_text(path)
    info = parse_plugininfo(text)
    if not info.has_root:
        plugin.add(
            WARNING, "plugininfo-legacy", "no <plugin> block: the legacy positional format", file
        )
        return
    for tag, line in info.tags:
        if tag.lower() not in _KNOWN_TAGS:
            plugin.add(WARNING, "unknown-tag", f"unknown tag <{tag}>", file, line)
    for closing in sorted({t.lower() for t in re.findall(r"</([A-Za-z]+)\s*>", text)}):
        if closing not in _KNOWN_TAGS:
            plugin.add(WARNING, "tag-typo", f"closing tag </{closing}> matches no known tag", file)
    plugin.deck_zones = info.labels("deckzone")
    game_zones = info.labels("gamezone")
    for block in info.blocks:
        _check_block(plugin, block, game_zones, file)
    for tag in ("generalfunction", "cardfunction", "phase", "gamezone", "deckzone"):
        for label, count in Counter(info.labels(tag)).items():
            if count > 1:
                plugin.add(WARNING, "duplicate-label", f"{tag} label {label!r} repeated", file)


def _check_block(plugin: Plugin, block, game_zones: list[str], file: str) -> None:
    label = block.get("label")
    if block.tag != "definition" and not label:
        plugin.add(WARNING, "no-label", f"<{block.tag}> without a label", file, block.line)
    if label and (":" in label or " -> " in label):
        plugin.add(
            WARNING,
            "ambiguous-label",
            f"label {label!r} has ':' or ' -> ', which log lines use",
            file,
            block.line,
        )
    kind = (block.get("kind") or "").strip()
    if block.tag == "generalfunction" and kind.upper() not in GENERAL_KINDS:
        plugin.add(WARNING, "unknown-kind", f"general function kind {kind!r}", file, block.line)
    if block.tag == "cardfunction" and kind.upper() not in CARD_KINDS:
        plugin.add(WARNING, "unknown-kind", f"card function kind {kind!r}", file, block.line)
    colour = block.get("color")
    if colour is not None and colour.lower() not in COLOURS:
        plugin.add(WARNING, "unknown-colour", f"counter colour {colour!r}", file, block.line)
    for name, value in block.children:
        if name in (
            "shuffle",
            "visibletoowner",
            "visibletoothers",
            "isshared",
            "includeasbutton",
        ) and value.lower() not in ("yes", "no"):
            plugin.add(WARNING, "not-yes-no", f"<{name}> is {value!r}", file, block.line)
    if block.tag == "deckzone":
        if block.get("zonetoloadto") is not None:
            plugin.add(
                WARNING,
                "legacy-zonetoloadto",
                f"deckzone {label!r} uses legacy <zonetoloadto>",
                file,
                block.line,
            )
        target = block.get("gamezonetoloadto") or block.get("zonetoloadto") or label
        if target not in game_zones:
            plugin.add(
                WARNING,
                "deckzone-target",
                f"deckzone {label!r} loads to {target!r}, not a gamezone",
                file,
                block.line,
            )


def card_file_names(plugin: Plugin) -> list[str]:
    """Card data files Lackey loads: the explicit list, and every ``sets/*.txt``
    (docs/lackey-formats.md §3.4)."""
    names: list[str] = []
    listing = plugin.root / "ListOfCardDataFiles.txt"
    if listing.is_file():
        _, problems = parse_xml(listing.read_bytes())
        for problem in problems:
            plugin.add(WARNING, "xml-malformed", problem, "ListOfCardDataFiles.txt")
        for entry, line in read_card_file_list(read_text(listing)):
            if unsafe_path(entry):
                plugin.add(
                    ERROR, "unsafe-path", f"{entry!r} leaves sets/", "ListOfCardDataFiles.txt", line
                )
            elif not (plugin.root / "sets" / entry).is_file():
                plugin.add(
                    ERROR,
                    "carddata-list-missing",
                    f"listed card file sets/{entry} is missing",
                    "ListOfCardDataFiles.txt",
                    line,
                )
            else:
                names.append(f"sets/{entry}")
    if (plugin.root / "setlist.txt").is_file():
        plugin.add(
            WARNING,
            "legacy-setlist",
            "legacy setlist.txt (prefer ListOfCardDataFiles)",
            "setlist.txt",
        )
    for path in sorted((plugin.root / "sets").glob("*.txt")):
        if f"sets/{path.name}" not in names:
            names.append(f"sets/{path.name}")
    return names


def _check_card_data(plugin: Plugin) -> None:
    names = card_file_names(plugin)
    if not names:
        plugin.add(WARNING, "no-card-data", "no card data files (sets/*.txt)", "sets")
    for name in names:
        data = (plugin.root / name).read_bytes()
        card_file = read_card_data(data, name)
        header = [column.removeprefix("\ufeff") for column in card_file.header]
        if [h.lower() for h in header[:3]] != ["name", "set", "imagefile"]:
            plugin.add(
                ERROR,
                "carddata-header",
                f"columns 1-3 are {header[:3]}, not Name, Set, ImageFile",
                name,
                1,
            )
            continue
        plugin.card_files[name] = card_file
        _check_card_file(plugin, name, card_file, header, len(data))


def _check_card_file(
    plugin: Plugin, name: str, card_file: CardDataFile, header: list[str], size: int
) -> None:
    if header[:3] != ["Name", "Set", "ImageFile"]:
        plugin.add(WARNING, "carddata-header-case", f"header spelled {header[:3]}", name, 1)
    if card_file.has_bom:
        plugin.add(WARNING, "bom", "starts with a UTF-8 byte-order mark", name, 1)
    if not card_file.utf8:
        plugin.add(WARNING, "not-utf8", "not UTF-8 (read as Windows-1252)", name)
    if card_file.crlf:
        plugin.add(WARNING, "line-endings", "CR or CRLF line endings (emit LF)", name)
    if size >= MAX_FILE_BYTES:
        plugin.add(WARNING, "carddata-size", f"{size} bytes; keep card files under 1 MB", name)
    extra = [row.line for row in card_file.rows if row.extra_fields]
    if extra:
        plugin.add(
            WARNING,
            "extra-fields",
            f"{len(extra)} rows have more fields than the header",
            name,
            extra[0],
        )
    seen: dict[tuple[str, str], int] = {}
    repeats: list[str] = []
    for row in card_file.rows:
        key = (row.fields.get(card_file.header[0], ""), row.fields.get(card_file.header[1], ""))
        if not key[0].strip():
            plugin.add(WARNING, "empty-name", "card without a Name", name, row.line)
        elif key in seen:
            repeats.append(f"{key[0]!r} (set {key[1]!r}, lines {seen[key]} and {row.line})")
        else:
            seen[key] = row.line
        image = row.fields.get(card_file.header[2], "")
        if unsafe_path(image) or unsafe_path(key[1]):
            plugin.add(
                ERROR,
                "unsafe-path",
                f"Set {key[1]!r} / ImageFile {image!r} would leave the image folder",
                name,
                row.line,
            )
    if repeats:
        plugin.add(
            WARNING,
            "duplicate-card",
            f"{len(repeats)} rows repeat a (Name, Set), e.g. {repeats[0]}",
            name,
        )


def _check_images(plugin: Plugin) -> None:
    """Missing, orphaned and case-only-different card images under ``sets/setimages/``."""
    base = plugin.root / "sets" / "setimages"
    shipped = (
        [
            p.relative_to(base).as_posix()
            for p in base.rglob("*")
            if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        ]
        if base.is_dir()
        else []
    )
    exact = set(shipped)
    folded = {path.casefold(): path for path in shipped}
    used: set[str] = set()
    missing: dict[str, list[str]] = {}
    for file_name, card_file in plugin.card_files.items():
        set_col, image_col = card_file.header[1], card_file.header[2]
        for row in card_file.rows:
            set_name = row.fields.get(set_col, "")
            for image in filter(None, row.fields.get(image_col, "").split(",")):
                if unsafe_path(image) or unsafe_path(set_name):
                    continue
                found = _find_image(set_name, image.strip(), exact, folded)
                if found is None:
                    missing.setdefault(f"{file_name} (set {set_name!r})", []).append(image)
                elif found[1]:
                    plugin.add(
                        WARNING,
                        "image-case",
                        f"{image!r} matches {found[0]} only when ignoring case",
                        file_name,
                        row.line,
                    )
                if found:
                    used.add(found[0])
    if not shipped and missing:
        total = sum(len(images) for images in missing.values())
        plugin.add(
            WARNING,
            "images-missing",
            f"no card images shipped ({total} referenced)",
            "sets/setimages",
        )
        missing = {}
    for where, images in sorted(missing.items()):
        plugin.add(
            WARNING,
            "images-missing",
            f"{len(images)} card images missing for {where}, e.g. {images[0]!r}",
            where.split(" ")[0],
        )
    orphans = [p for p in shipped if p not in used and not p.startswith("general/")]
    if orphans:
        plugin.add(
            WARNING,
            "images-orphaned",
            f"{len(orphans)} images no card uses, e.g. {orphans[0]}",
            "sets/setimages",
        )
    for asset in ("cardback", "spawned"):
        if not any((plugin.root / f"{asset}{ext}").is_file() for ext in (".jpg", ".png")):
            plugin.add(
                WARNING, "asset-missing", f"{asset}.jpg/.png is not in the folder", f"{asset}.jpg"
            )


def _find_image(set_name: str, image: str, exact: set[str], folded: dict[str, str]):
    """(path, case_only) for the first matching image, Lackey's lookup order; None if none."""
    stem = image if image.lower().endswith(IMAGE_SUFFIXES) else f"{image}.jpg"
    for folder in (set_name, "general"):
        candidate = f"{folder}/{stem}"
        if candidate in exact:
            return candidate, False
        if candidate.casefold() in folded:
            return folded[candidate.casefold()], True
    return None
