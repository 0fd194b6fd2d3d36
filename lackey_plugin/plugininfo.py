"""``plugininfo.txt``: rendered from the game definition, and read back leniently for the linter.

Rendering goes through ``templates/plugininfo.txt.j2``. That template is plain text (no
autoescaping, reference §2.1: entities in labels are untested in Lackey), so every label is
checked here first: markup characters are refused, and so are ``:`` and `` -> ``, which would
make log lines ambiguous (§12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lackey_plugin.game import GameDefinition
from zcards.errors import ZcardsError
from zcards.resources import jinja_env

TEMPLATE = "plugininfo.txt.j2"
_FORBIDDEN = ("<", ">", "&", ":", " -> ", "\t", "\n", "\r")

BLOCK_TAGS = (
    "playerstat",
    "globalstat",
    "deckzone",
    "gamezone",
    "phase",
    "generalfunction",
    "cardfunction",
    "definition",
)
SCALAR_TAGS = ("pluginname", "pluginversion")
CHILD_TAGS = (
    "label",
    "initialvalue",
    "gamezonetoloadto",
    "zonetoloadto",
    "shuffle",
    "visibletoowner",
    "visibletoothers",
    "isshared",
    "kind",
    "value",
    "includeasbutton",
    "sourceowner",
    "sourcegamezone",
    "sourceposition",
    "destinationowner",
    "destinationgamezone",
    "destinationposition",
    "color",
    "positionx",
    "positiony",
)
GENERAL_KINDS = frozenset(
    {
        "DRAWCARD",
        "DRAWCARDTOTABLE",
        "TRANSFERCARD",
        "ALLYOURCARDSMAKERIGHT0DEGREES",
        "ALLYOURCARDSMAKERIGHT90DEGREES",
        "ALLYOURCARDSMAKERIGHT180DEGREES",
        "ALLYOURCARDSMAKERIGHT270DEGREES",
        "NEXTPHASE",
        "PREVIOUSPHASE",
        "NEXTTURN",
        "PREVIOUSTURN",
        "FLIPCOIN",
        "SPAWNCARD",
        "SPAWNPLAYERICON",
        *(f"TRANSFERCARD{n}" for n in range(1, 11)),
        *(f"ROLLD{n}" for n in (3, 4, 6, 8, 10, 12, 20, 100)),
    }
)
COLOURS = ("red", "green", "blue", "yellow", "white", "black", "orange", "violet", "indigo")
CARD_KINDS = frozenset(
    {
        "MAKERIGHT0DEGREES",
        "MAKERIGHT90DEGREES",
        "MAKERIGHT180DEGREES",
        "MAKERIGHT270DEGREES",
        "ADDCOUNTER",
        "REMOVECOUNTER",
        "EDITNOTE",
        "TURNOVER",
        "TOGGLETURNALLIMMUNITY",
        "CHANGEOWNER",
        "HOVER",
        "CLONE",
        "CLEARCARD",
        *(
            f"{verb}{colour.upper()}"
            for verb in ("ADDCOUNTER", "REMOVECOUNTER")
            for colour in COLOURS
        ),
    }
)


def check_labels(game: GameDefinition) -> None:
    """Refuse a label Lackey or the log parser could misread, before anything is written."""
    labels = [
        *game.stat_labels,
        *game.phases,
        *game.zone_labels,
        *(zone.label for zone in game.deck_zones),
        *(function.label for function in (*game.card_functions, *game.general_functions)),
    ]
    for label in labels:
        bad = [token for token in _FORBIDDEN if token in label]
        if bad or not label.strip() or label != label.strip():
            raise ZcardsError(f"game label {label!r} is empty, padded or contains {bad}")
    functions = [f.label for f in (*game.card_functions, *game.general_functions)]
    duplicates = sorted({label for label in functions if functions.count(label) > 1})
    if duplicates:
        raise ZcardsError(f"function labels must be unique; repeated: {', '.join(duplicates)}")


def render_plugininfo(game: GameDefinition, version: str) -> str:
    """``plugininfo.txt`` for ``game``; ``version`` goes into ``<pluginversion>``."""
    check_labels(game)
    return jinja_env().get_template(TEMPLATE).render(game=game, version=version)


@dataclass(frozen=True)
class Block:
    """One top-level block; ``children`` keeps repeated child tags in order (lower-case)."""

    tag: str
    line: int
    children: tuple[tuple[str, str], ...]

    def get(self, tag: str, default: str | None = None) -> str | None:
        for name, value in self.children:
            if name == tag:
                return value
        return default


@dataclass
class PluginInfo:
    blocks: list[Block] = field(default_factory=list)
    scalars: dict[str, str] = field(default_factory=dict)
    tags: list[tuple[str, int]] = field(default_factory=list)
    """Every opening tag with its line, for unknown-tag and typo checks."""
    has_root: bool = False

    def of(self, tag: str) -> list[Block]:
        return [block for block in self.blocks if block.tag == tag]

    def labels(self, tag: str) -> list[str]:
        return [block.get("label") or "" for block in self.of(tag)]


_BLOCK = re.compile(r"<(" + "|".join(BLOCK_TAGS + SCALAR_TAGS) + r")\s*>(.*?)</\1\s*>", re.I | re.S)
# A child's text runs to the next '<': tolerates typos such as <label>Main</lab> (FoW).
_CHILD = re.compile(r"<([A-Za-z]+)\s*>([^<]*)")
_OPEN_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9]*)\b[^>]*>")


def parse_plugininfo(text: str) -> PluginInfo:
    """Read the tag form of plugininfo.txt as leniently as Lackey does (reference §2.1)."""
    info = PluginInfo(has_root=bool(re.search(r"<plugin\s*>", text, re.I)))
    for match in _OPEN_TAG.finditer(text):
        info.tags.append((match.group(1), text.count("\n", 0, match.start()) + 1))
    for match in _BLOCK.finditer(text):
        tag = match.group(1).lower()
        if tag in SCALAR_TAGS:
            info.scalars[tag] = match.group(2).strip()
            continue
        children = tuple(
            (child.group(1).lower(), child.group(2).strip())
            for child in _CHILD.finditer(match.group(2))
        )
        line = text.count("\n", 0, match.start()) + 1
        info.blocks.append(Block(tag, line, children))
    return info
