"""Safe file names from untrusted card data: the one rule the plugin export and renderer share.

A Set or ImageFile value becomes a folder or file name, so it is reduced to a single harmless
path component first (:func:`lackey_plugin.paths.safe_component`). Names are
also kept unique ignoring case, as Windows and macOS file systems compare them, and every
ImageFile that had to change is reported. The rule is idempotent on its own output, so a card
whose values are already safe keeps them: the exporter writes the sanitised values into the
card data and the renderer, naming the same cards again, arrives at exactly those names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from lackey_plugin.paths import MAX_LENGTH, safe_component
from zcards.cards.convert import LINE_BREAK
from zcards.cards.model import Card

IMAGE_FALLBACK = "card"
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp")
_FIELD_BREAKS = re.compile(r"[\t\r\n]+")


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


@dataclass(frozen=True)
class SafeCards:
    cards: list[Card]
    messages: list[str]


def sanitize_cards(cards: Iterable[Card]) -> SafeCards:
    """Cards with safe Set and ImageFile values and fields free of TAB/CR/LF, plus what changed."""
    messages: list[str] = []
    set_names = UniqueNames()
    image_names: dict[str, UniqueNames] = {}
    safe: list[Card] = []
    for card in cards:
        set_name = set_names.name(card.set_name, "set")
        if set_name != card.set_name:
            _note(messages, f"set {card.set_name!r} renamed to {set_name!r} (unsafe file name)")
        placed = replace(card, set_name=set_name)
        image = image_names.setdefault(set_name, UniqueNames()).image(placed, messages)
        text = placed.text.strip().replace("\r\n", "\n").replace("\n", LINE_BREAK)
        cleaned = replace(placed, image_file=image, text=text)
        fields = cleaned.to_lackey_fields()
        if any(_FIELD_BREAKS.search(value) for value in fields.values()):
            messages.append(f"{card.name!r} ({set_name}): TAB/line break in a field -> space")
            cleaned = _without_breaks(cleaned)
        safe.append(cleaned)
    return SafeCards(safe, messages)


def _note(messages: list[str], message: str) -> None:
    if message not in messages:
        messages.append(message)


def _without_breaks(card: Card) -> Card:
    def clean(text: str) -> str:
        return _FIELD_BREAKS.sub(" ", text).strip()

    return replace(
        card,
        name=clean(card.name),
        type=clean(card.type),
        faction=clean(card.faction),
        keywords=tuple(clean(k) for k in card.keywords),
        symbols=tuple(clean(s) for s in card.symbols),
        rarity=clean(card.rarity),
        text=clean(card.text),
        extra={clean(k): clean(v) for k, v in card.extra.items()},
    )
