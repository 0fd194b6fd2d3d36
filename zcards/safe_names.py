"""Safe file names from untrusted card data: the one rule the plugin export and renderer share.

A Set or ImageFile value becomes a folder or file name, so it is reduced to a single harmless
path component first (``../../x``, ``C:\\x`` and ``a/b`` all become plain names). Names are
also kept unique ignoring case, as Windows and macOS file systems compare them, and every
ImageFile that had to change is reported. The rule is idempotent on its own output, so a card
whose values are already safe keeps them: the exporter writes the sanitised values into the
card data and the renderer, naming the same cards again, arrives at exactly those names.
"""

from __future__ import annotations

import re

from zcards.model import Card

MAX_LENGTH = 100
IMAGE_FALLBACK = "card"
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp")
_UNSAFE = re.compile(r"[^A-Za-z0-9 _.-]+")
_DOT_RUNS = re.compile(r"\.{2,}")
_RESERVED = re.compile(r"^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$", re.I)


def safe_component(value: str, fallback: str) -> str:
    """One harmless path component: no separators, drive letters, dot runs or reserved names."""
    name = _DOT_RUNS.sub(".", _UNSAFE.sub("_", value)).strip(" .")
    name = name[:MAX_LENGTH].strip(" .")
    if not name:
        return fallback
    return f"_{name}" if _RESERVED.match(name) else name


def image_component(value: str) -> str:
    """A safe image file name *without* extension: ``foo.jpg`` and ``foo.PNG`` become ``foo``.

    Lackey appends ``.jpg`` to ImageFile, and the renderer writes ``<stem>.jpg``; an ImageFile
    that kept its extension would become ``foo.jpg.jpg``, a file no card data points to.
    """
    name = safe_component(value, IMAGE_FALLBACK)
    while True:
        stem, dot, suffix = name.rpartition(".")
        stem = stem.rstrip(" .")
        if not dot or f".{suffix.lower()}" not in IMAGE_EXTENSIONS or not stem:
            return name
        name = stem


def image_stem(card: Card) -> str:
    """The card's image file name without ``.jpg``: its ImageFile, else its name, made safe."""
    return image_component(_image_value(card))


def _image_value(card: Card) -> str:
    """Lackey's ``front,back`` form names the back after a comma; the face is the front."""
    return card.image_file.split(",")[0].strip() or card.name


class UniqueNames:
    """Hands out safe names, unique ignoring case; the same original always gets the same name.

    A later original whose safe name is taken gets ``-2``, ``-3``… (still within MAX_LENGTH).
    """

    def __init__(self) -> None:
        self._taken: dict[str, str] = {}

    def name(self, original: str, fallback: str) -> str:
        return self._unique(original, safe_component(original, fallback))

    def _unique(self, original: str, base: str) -> str:
        candidate, number = base, 1
        while self._taken.get(candidate.casefold(), original) != original:
            number += 1
            suffix = f"-{number}"
            candidate = base[: MAX_LENGTH - len(suffix)] + suffix
        self._taken[candidate.casefold()] = original
        return candidate

    def image(self, card: Card, messages: list[str]) -> str:
        """The card's unique image stem; a changed ImageFile is noted in ``messages``."""
        value = _image_value(card)
        stem = self._unique(value, image_component(value))
        if card.image_file and stem != card.image_file:
            messages.append(
                f"{card.name!r} ({card.set_name}): ImageFile {card.image_file!r} renamed to "
                f"{stem!r}"
            )
        return stem
