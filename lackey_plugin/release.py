"""Release extras: ``uninstall.txt``, ``defaultchat.txt``, phase images, sounds, a start
position; written for a release and checked by the linter (docs/lackey-formats.md
§6, §7 and §9.3).

``uninstall.txt`` (which files of an older release an installed Lackey deletes) is
:mod:`lackey_plugin.uninstall`'s. ``defaultchat.txt`` holds the canned chat lines players
get by default, one a line. ``images/Phase<N>.jpg`` shows the N-th phase of ``plugininfo.txt``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lackey_plugin.errors import LackeyError
from lackey_plugin.lint_base import WARNING, Plugin, read_text
from lackey_plugin.plugininfo import parse_plugininfo
from lackey_plugin.text import control_characters
from lackey_plugin.uninstall import check_uninstall

_PHASE_IMAGE = re.compile(r"^images/phase(\d+)\.(jpg|png)$", re.I)
_SOUND_REFERENCE = re.compile(r"^\"([^\"]+\.wav)\"\s*:", re.M)


def render_chat(lines: Sequence[str]) -> str:
    """``defaultchat.txt``: one canned line each (``!Label!/command`` makes a button)."""
    for line in lines:
        if not line.strip() or control_characters(line):
            raise LackeyError(f"chat line {line!r} is empty or holds a control character")
    return "\n".join(lines) + "\n"


def phase_image_path(index: int) -> str:
    """Where the image of the ``index``-th phase (from 0) goes."""
    return f"images/Phase{index + 1}.jpg"


def check_release_files(plugin: Plugin) -> None:
    """Lint ``uninstall.txt``, ``defaultchat.txt``, phase images and sounds."""
    check_uninstall(plugin)
    chat = plugin.root / "defaultchat.txt"
    if chat.is_file():
        for number, line in enumerate(read_text(chat).splitlines(), 1):
            if "\t" in line:
                plugin.add(WARNING, "chat-tab", "a TAB in a chat line", "defaultchat.txt", number)
    _check_phase_images(plugin)
    _check_sounds(plugin)


def _check_phase_images(plugin: Plugin) -> None:
    info = plugin.root / "plugininfo.txt"
    phases = len(parse_plugininfo(read_text(info)).labels("phase")) if info.is_file() else 0
    for name in plugin.files():
        match = _PHASE_IMAGE.match(name)
        if match and int(match.group(1)) > phases:
            message = f"phase image {match.group(1)} but plugininfo.txt has {phases} phases"
            plugin.add(WARNING, "phase-image-extra", message, name)


def _check_sounds(plugin: Plugin) -> None:
    """Sounds named by ``sounds/chatconfig.txt`` and the cards' ``Sound`` column exist."""
    shipped = {name.casefold() for name in plugin.files()}
    config = plugin.root / "sounds" / "chatconfig.txt"
    wanted: list[tuple[str, str]] = []
    if config.is_file():
        wanted += [
            (m, "sounds/chatconfig.txt") for m in _SOUND_REFERENCE.findall(read_text(config))
        ]
    if "Sound" in plugin.columns():
        names = {row.fields.get("Sound", "").strip() for row in plugin.rows}
        wanted += [(f"{name}.wav", "card data") for name in sorted(names) if name]
    missing = sorted({name for name, _ in wanted if f"sounds/{name}".casefold() not in shipped})
    if missing:
        message = f"{len(missing)} sounds named but not shipped, e.g. {', '.join(missing[:5])}"
        plugin.add(WARNING, "sound-missing", message, "sounds")
