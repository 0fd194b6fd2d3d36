"""``plugininfo.txt``: rendered from a game definition, and read back as one.

The file is plain text in tag form, not XML (docs/lackey-formats.md §2.1: entities in labels
are untested in Lackey), so every label is checked before rendering: markup characters are
refused, and so are ``:`` and `` -> ``, which would make log lines ambiguous (§11.2). Reading
is as lenient as Lackey (:func:`parse_plugininfo` keeps every block and tag for the linter), and
:meth:`PluginInfo.game` turns what was read into a :class:`GameDefinition` (without meanings,
which no plugininfo.txt holds), so a log of any plugin's game can be parsed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from lackey_plugin.errors import LackeyError
from lackey_plugin.game import (
    CardFunction,
    Counter,
    DeckZone,
    Definition,
    GameDefinition,
    GameZone,
    GeneralFunction,
    Stat,
)
from lackey_plugin.text import control_characters

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
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
# A TRANSFERCARD function's source and destination.
GENERAL_OPTION_TAGS = (
    "sourceowner",
    "sourcegamezone",
    "sourceposition",
    "destinationowner",
    "destinationgamezone",
    "destinationposition",
)
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
    *GENERAL_OPTION_TAGS,
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
    functions = [function.label for function in game.functions]
    labels = [
        *game.stat_labels,
        *game.phases,
        *game.zone_labels,
        *(zone.label for zone in game.deck_zones),
        *functions,
    ]
    for label in labels:
        bad = [token for token in _FORBIDDEN if token in label]
        if bad or not label.strip() or label != label.strip():
            raise LackeyError(f"game label {label!r} is empty, padded or contains {bad}")
    duplicates = sorted({label for label in functions if functions.count(label) > 1})
    if duplicates:
        raise LackeyError(f"function labels must be unique; repeated: {', '.join(duplicates)}")


def render_plugininfo(game: GameDefinition, version: str | None = None) -> str:
    """``plugininfo.txt`` for ``game``; ``version`` goes into ``<pluginversion>``.

    Only what the definition states is written: a value of None (a flag, a load target, an
    initial value) leaves its tag out, and an empty game name leaves out ``<pluginname>``, so
    a parsed plugininfo re-renders with the tags it had and no others."""
    check_labels(game)
    lines = ["<plugin>"]
    if game.name:
        lines.append(f"<pluginname>{_plain('pluginname', game.name)}</pluginname>")
    if version is not None:
        lines.append(f"<pluginversion>{_plain('pluginversion', version)}</pluginversion>")
    for tag, stats in (("playerstat", game.player_stats), ("globalstat", game.global_stats)):
        for stat in stats:
            initial = None if stat.initial_value is None else str(stat.initial_value)
            lines += _block(tag, {"label": stat.label, "initialvalue": initial})
    for deck_zone in game.deck_zones:
        target = "zonetoloadto" if deck_zone.legacy_tag else "gamezonetoloadto"
        lines += _block(
            "deckzone",
            {
                "label": deck_zone.label,
                target: deck_zone.load_to,
                "shuffle": _yes(deck_zone.shuffle),
            },
        )
    for zone in game.game_zones:
        lines += _block(
            "gamezone",
            {
                "label": zone.label,
                "visibletoowner": _yes(zone.visible_to_owner),
                "visibletoothers": _yes(zone.visible_to_others),
                "isshared": _yes(zone.shared),
            },
        )
    for phase in game.phases:
        lines += _block("phase", {"label": phase})
    for general in game.general_functions:
        lines += _block(
            "generalfunction",
            {
                "label": general.label,
                "kind": general.kind,
                "includeasbutton": _yes(general.button),
                **dict(general.options),
            },
        )
    for function in game.card_functions:
        position = function.position or (None, None)
        lines += _block(
            "cardfunction",
            {
                "label": function.label,
                "kind": function.kind,
                "color": function.colour,
                "includeasbutton": _yes(function.button),
                "PositionX": position[0],
                "PositionY": position[1],
            },
        )
    for definition in game.definitions:
        lines += _block("definition", {"kind": definition.kind, "value": definition.value})
    return "\n".join([*lines, "</plugin>"]) + "\n"


def _block(tag: str, children: Mapping[str, str | None]) -> list[str]:
    """``<tag>``, a tab-indented line per child that has a value, ``</tag>``."""
    inner = [
        f"\t<{_tag(name)}>{_plain(name, value)}</{name}>"
        for name, value in children.items()
        if value is not None
    ]
    return [f"<{tag}>", *inner, f"</{tag}>"]


def _plain(tag: str, value: str) -> str:
    """``value`` as it is, or refused: Lackey reads no entities (lackey-formats.md §2.1), so a
    value holding markup or a control character cannot be written at all."""
    bad = [token for token in "<>&" if token in value] + control_characters(value)
    if bad:
        raise LackeyError(f"the value of <{tag}> {value!r} holds {', '.join(bad)}")
    return value


def _tag(name: str) -> str:
    if not _TAG_NAME.fullmatch(name):
        raise LackeyError(f"{name!r} is not a tag name (letters and digits)")
    return name


def _yes(flag: bool | None) -> str | None:
    return None if flag is None else "yes" if flag else "no"


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

    def game(self) -> GameDefinition:
        """The game this plugininfo.txt defines: every tag it states and none it does not
        (functions without meanings or descriptions, which no plugininfo.txt holds; counters
        from the card functions' colours)."""
        counters: dict[str, Counter] = {}
        card_functions = []
        for block in self.of("cardfunction"):
            colour = block.get("color")
            x, y = block.get("positionx"), block.get("positiony")
            position = (x or "", y or "") if x is not None or y is not None else None
            if colour and (colour not in counters or not counters[colour].position_x):
                counters[colour] = Counter(colour, *(position or ("", "")), meaning="")
            card_functions.append(
                CardFunction(
                    _label(block),
                    _kind(block),
                    colour=colour,
                    button=_flag(block, "includeasbutton"),
                    position=position,
                )
            )
        return GameDefinition(
            name=self.scalars.get("pluginname", ""),
            player_stats=_stats(self.of("playerstat")),
            global_stats=_stats(self.of("globalstat")),
            phases=tuple(self.labels("phase")),
            game_zones=tuple(
                GameZone(
                    _label(b),
                    _flag(b, "visibletoowner"),
                    _flag(b, "visibletoothers"),
                    _flag(b, "isshared"),
                )
                for b in self.of("gamezone")
            ),
            deck_zones=tuple(_deck_zone(b) for b in self.of("deckzone")),
            counters=tuple(counters.values()),
            card_functions=tuple(card_functions),
            general_functions=tuple(
                GeneralFunction(
                    _label(b),
                    _kind(b),
                    button=_flag(b, "includeasbutton"),
                    options=tuple(
                        (tag, value) for tag, value in b.children if tag in GENERAL_OPTION_TAGS
                    ),
                )
                for b in self.of("generalfunction")
            ),
            definitions=tuple(
                Definition(b.get("kind") or "", b.get("value")) for b in self.of("definition")
            ),
        )


def _stats(blocks: list[Block]) -> tuple[Stat, ...]:
    return tuple(Stat(_label(b), _int(b.get("initialvalue"))) for b in blocks)


def _deck_zone(block: Block) -> DeckZone:
    target = block.get("gamezonetoloadto")
    legacy = target is None and block.get("zonetoloadto") is not None
    return DeckZone(
        _label(block),
        block.get("zonetoloadto") if legacy else target,
        _flag(block, "shuffle"),
        legacy_tag=legacy,
    )


def _label(block: Block) -> str:
    return block.get("label") or ""


def _kind(block: Block) -> str:
    return block.get("kind") or ""


def _flag(block: Block, tag: str) -> bool | None:
    value = block.get(tag)
    return None if value is None else value.strip().lower() == "yes"


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return 0


_NAMED = frozenset(tag.lower() for tag in BLOCK_TAGS + SCALAR_TAGS)
# Every tag, opening or closing, in one linear pass: its text stops at the next '<', so an
# unclosed '<' costs nothing more (no lazy '.*?' per tag running on to the end of the file).
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>")
# A child's text runs to the next '<': tolerates typos such as <label>Main</lab> (FoW).
_CHILD = re.compile(r"<([A-Za-z]+)\s*>([^<]*)")


def parse_plugininfo(text: str) -> PluginInfo:
    """Read the tag form of plugininfo.txt as leniently as Lackey does
    (docs/lackey-formats.md §2.1). Linear in the text: one pass over its tags.

    A block is ``<tag>`` (no attributes) up to the next ``</tag>`` of that name; a block
    without its closing tag is no block, and the tags after its opening tag are read on."""
    info = PluginInfo(has_root=bool(re.search(r"<plugin\s*>", text, re.I)))
    opening: list[tuple[int, int, str, int]] = []  # block tags: start, end, name, line
    closing: dict[str, tuple[list[int], list[int]]] = {}  # per block tag: starts, ends
    line, counted = 1, 0
    for token in _TAG.finditer(text):  # no list of match objects: each is let go at once
        start = token.start()
        line += text.count("\n", counted, start)
        counted = start
        slash, tag, rest = token.groups()
        name = tag.lower()
        if not slash:
            info.tags.append((tag, line))
        plain = name in _NAMED and not rest.strip()
        if plain and not slash:
            opening.append((start, token.end(), name, line))
        elif plain:
            starts, ends = closing.setdefault(name, ([], []))
            starts.append(start)
            ends.append(token.end())
    after = 0  # where the last block read ends
    for start, end, name, tag_line in opening:
        starts, ends = closing.get(name, ([], []))
        found = bisect.bisect_left(starts, end)
        if start < after or found == len(starts):
            continue
        _add_block(info, name, text[end : starts[found]], tag_line)
        after = ends[found]
    return info


def _add_block(info: PluginInfo, tag: str, body: str, line: int) -> None:
    if tag in SCALAR_TAGS:
        info.scalars[tag] = body.strip()
        return
    children = tuple(
        (child.group(1).lower(), child.group(2).strip()) for child in _CHILD.finditer(body)
    )
    info.blocks.append(Block(tag, line, children))
