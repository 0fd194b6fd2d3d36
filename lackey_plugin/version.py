"""``version.txt`` (docs/lackey-formats.md §9.2): the release date Lackey's update check compares.

Written with lxml (URLs and messages are escaped), read leniently with a regex because real
files are not always well-formed (FoW closes its message with ``<message>``).
"""

from __future__ import annotations

import re
from datetime import date

from lxml import etree

from lackey_plugin.errors import LackeyError
from lackey_plugin.text import control_characters

_STAMP = re.compile(r"<lastupdateYYMMDD>\s*([^<]*?)\s*<", re.I)


def yymmdd(day: date) -> str:
    return day.strftime("%y%m%d")


def valid_stamp(value: str) -> bool:
    """``YYMMDD`` naming a real calendar day."""
    if not re.fullmatch(r"\d{6}", value):
        return False
    try:
        date(2000 + int(value[:2]), int(value[2:4]), int(value[4:]))
    except ValueError:
        return False
    return True


def render_version(day: date, version_url: str, update_url: str, message: str) -> str:
    """``version.txt``: ``version_url`` must be where the updatelist lists this very file.
    lxml escapes markup; a control character (which XML cannot hold) is refused."""
    for text in (version_url, update_url, message):
        if control_characters(text):
            raise LackeyError(f"version.txt cannot hold {text!r}: {control_characters(text)}")
    root = etree.Element("version")
    for tag, text in (
        ("lastupdateYYMMDD", yymmdd(day)),
        ("versionurl", version_url),
        ("updateurl", update_url),
        ("message", message),
    ):
        etree.SubElement(root, tag).text = text
    etree.indent(root, space="\t")
    return etree.tostring(root, encoding="unicode") + "\n"


def read_stamp(text: str) -> str | None:
    """The raw ``lastupdateYYMMDD`` value, or None when the file has none."""
    match = _STAMP.search(text)
    return match.group(1) if match else None
