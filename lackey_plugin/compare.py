"""Two plugin folders compared as Lackey reads them: does a re-export give the plugin back?

``plugininfo.txt`` is compared by meaning (blocks in order, each block's child tags as a set,
tag names in any case; spacing and line ends do not count), card data as the multiset of rows
of every file Lackey loads (row order and file layout aside), ``updatelist.txt`` entry by entry
for the files both folders have (install path, URL, checksum).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from lackey_plugin.carddata import read_card_data
from lackey_plugin.lint_base import Plugin, read_text
from lackey_plugin.plugininfo import parse_plugininfo
from lackey_plugin.updatelist import UpdateList, read_updatelist

Row = tuple[str, ...]


@dataclass
class Comparison:
    """What differs between two plugin folders (``left`` the original, ``right`` the copy)."""

    plugininfo: list[str] = field(default_factory=list)
    rows_same: int = 0
    rows_only_left: list[Row] = field(default_factory=list)
    rows_only_right: list[Row] = field(default_factory=list)
    entries_same: int = 0
    entries_different: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not (
            self.plugininfo or self.rows_only_left or self.rows_only_right or self.entries_different
        )


def compare_plugins(left: Path, right: Path) -> Comparison:
    result = Comparison()
    result.plugininfo = plugininfo_differences(
        read_text(left / "plugininfo.txt"), read_text(right / "plugininfo.txt")
    )
    rows_left, rows_right = card_rows(left), card_rows(right)
    result.rows_same = sum((rows_left & rows_right).values())
    result.rows_only_left = sorted((rows_left - rows_right).elements())
    result.rows_only_right = sorted((rows_right - rows_left).elements())
    if (left / "updatelist.txt").is_file() and (right / "updatelist.txt").is_file():
        same, different = entry_differences(
            read_updatelist(left / "updatelist.txt"), read_updatelist(right / "updatelist.txt")
        )
        result.entries_same, result.entries_different = same, different
    return result


def plugininfo_differences(left: str, right: str) -> list[str]:
    """Each way two ``plugininfo.txt`` texts mean different games (empty: the same)."""
    one, other = parse_plugininfo(left), parse_plugininfo(right)
    differences = [
        f"<{tag}>: {one.scalars.get(tag)!r} != {other.scalars.get(tag)!r}"
        for tag in sorted(set(one.scalars) | set(other.scalars))
        if one.scalars.get(tag) != other.scalars.get(tag)
    ]
    blocks_one = [(b.tag, frozenset(b.children)) for b in one.blocks]
    blocks_other = [(b.tag, frozenset(b.children)) for b in other.blocks]
    for tag in sorted({tag for tag, _ in blocks_one + blocks_other}):
        mine = [children for t, children in blocks_one if t == tag]
        theirs = [children for t, children in blocks_other if t == tag]
        for index in range(max(len(mine), len(theirs))):
            a = mine[index] if index < len(mine) else None
            b = theirs[index] if index < len(theirs) else None
            if a != b:
                differences.append(f"<{tag}> number {index + 1}: {_show(a)} != {_show(b)}")
    return differences


def _show(children: frozenset[tuple[str, str]] | None) -> str:
    return "nothing" if children is None else repr(dict(sorted(children)))


def card_rows(folder: Path) -> Counter[Row]:
    """Every row of every card data file Lackey loads from ``folder``, as its values (fields
    past the header that are empty left out, as Lackey ignores them)."""
    from lackey_plugin.lint import card_file_names

    rows: Counter[Row] = Counter()
    for name in card_file_names(Plugin(folder, folder.name)):
        parsed = read_card_data((folder / name).read_bytes(), name)
        width = len(parsed.header)
        for row in parsed.rows:
            values = list(row.values)
            while len(values) > width and not values[-1]:
                values.pop()
            rows[tuple(values)] += 1
    return rows


def entry_differences(left: UpdateList, right: UpdateList) -> tuple[int, list[str]]:
    """How many files both updatelists list the same way (path inside the plugin, URL,
    checksum), and a line for each listed by both in another way."""
    theirs = {right.plugin_path(entry) or entry.local_path: entry for entry in right.entries}
    same, different = 0, []
    for entry in left.entries:
        path = left.plugin_path(entry) or entry.local_path
        other = theirs.get(path)
        if other is None:
            continue
        if (other.url, other.checksum) == (entry.url, entry.checksum):
            same += 1
        else:
            different.append(
                f"{path}: {entry.url} {entry.checksum} != {other.url} {other.checksum}"
            )
    return same, different
