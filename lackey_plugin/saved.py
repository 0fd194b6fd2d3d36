"""Lackey saved games (``saved/*.txt``, docs/lackey-formats.md §7), read and written for any
game.

A saved game is a tag tree in Lackey's own layout: an element holding elements opens and
closes on lines of its own, a ``<card>`` is one line, a value is ``<tag>value</tag>`` on its
line. The reader keeps what it does not know (any element, in its place), so a file read and
written back is the same bytes; the typed view (:class:`SavedGame`) names what the format
means: seats, stats, zones by index (``zone0`` is the plugin's first gamezone), and cards by
their index in the plugin's card list, with their rotation, face, counters and note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lackey_plugin.errors import LackeyError

__all__ = [
    "Element",
    "SavedCard",
    "SavedGame",
    "SavedPlayer",
    "SavedZone",
    "read_saved_game",
    "write_saved_game",
]

_TAG = re.compile(r"<(/?)([A-Za-z_][\w.-]*)>")
CARD_FIELDS = ("id", "owner", "controller")  # a card's own fields; the rest are its state


@dataclass
class Element:
    """One tag: its text (a value) or its children (elements), never both."""

    tag: str
    text: str | None = None
    children: list[Element] = field(default_factory=list)

    def child(self, tag: str) -> Element | None:
        return next((c for c in self.children if c.tag == tag), None)

    def value(self, tag: str) -> str | None:
        found = self.child(tag)
        return found.text if found is not None else None


def parse_tree(text: str) -> Element:
    """The tag tree of a saved game (text between tags that is only white space is layout)."""
    stack: list[Element] = [Element("")]
    position = 0
    for match in _TAG.finditer(text):
        between = text[position : match.start()]
        position = match.end()
        closing, tag = match.groups()
        top = stack[-1]
        if not closing:
            element = Element(tag)
            top.children.append(element)
            stack.append(element)
            continue
        if len(stack) == 1 or top.tag != tag:
            raise LackeyError(f"saved game: </{tag}> closes no open <{tag}>")
        if not top.children:
            top.text = between
        stack.pop()
    if len(stack) != 1 or len(stack[0].children) != 1:
        raise LackeyError("saved game: not one <save> element")
    return stack[0].children[0]


def tree_text(root: Element) -> str:
    """The tree in Lackey's layout (see the module's docstring)."""
    return "".join(_lines(root)) + "\n"


def _lines(element: Element) -> Iterator[str]:
    if element.tag == "card" or element.text is not None:
        yield _inline(element) + ("" if element.tag == "save" else "\n")
        return
    yield f"<{element.tag}>\n"
    for child in element.children:
        yield from _lines(child)
    yield f"</{element.tag}>" + ("" if element.tag == "save" else "\n")


def _inline(element: Element) -> str:
    inner = element.text if element.text is not None else "".join(map(_inline, element.children))
    return f"<{element.tag}>{inner}</{element.tag}>"


# -- the typed view -----------------------------------------------------------------------------


@dataclass
class SavedCard:
    """A card: its index in the card list, owner, controller, and its state in file order
    (``rotation``, ``isturnedover``, ``x``, ``y``, ``note``, counters by colour …)."""

    id: int
    owner: str | None = None
    controller: str | None = None
    state: list[tuple[str, str]] = field(default_factory=list)

    def get(self, tag: str) -> str | None:
        return next((value for key, value in self.state if key == tag), None)

    def number(self, tag: str) -> int:
        """A numeric state (a counter, the rotation): 0 when the file does not state it."""
        value = self.get(tag)
        try:
            return int(float(value)) if value is not None else 0
        except ValueError:
            return 0


@dataclass
class SavedZone:
    """A player's gamezone (``index``: its position among the plugin's gamezones)."""

    index: int
    visible_to: list[str] = field(default_factory=list)
    cards: list[SavedCard] = field(default_factory=list)


@dataclass
class SavedPlayer:
    name: str
    seat: int | None = None
    stats: dict[str, str] = field(default_factory=dict)
    zones: list[SavedZone] = field(default_factory=list)
    other: list[Element] = field(default_factory=list)  # elements this view does not name

    def zone(self, index: int) -> SavedZone | None:
        return next((z for z in self.zones if z.index == index), None)


@dataclass
class SavedGame:
    """A whole saved game; ``head`` holds the values before the players (``turn``,
    ``phase``: the phase's index, ``numseats``…), ``table`` is None when the file has no
    ``<table>``; ``other`` keeps every element the view does not name, in order."""

    head: dict[str, str] = field(default_factory=dict)
    players: list[SavedPlayer] = field(default_factory=list)
    table: list[SavedCard] | None = None
    tail: list[Element] = field(default_factory=list)  # after the table (``shared``, …)

    def number(self, tag: str) -> int | None:
        value = self.head.get(tag)
        return int(value) if value is not None and value.strip().lstrip("-").isdigit() else None


def read_saved_game(text: str) -> SavedGame:
    """A saved game's text (a file's decoded content) as a :class:`SavedGame`."""
    root = parse_tree(text)
    if root.tag != "save":
        raise LackeyError(f"saved game: the root is <{root.tag}>, not <save>")
    game = SavedGame()
    for child in root.children:
        if child.tag == "player":
            game.players.append(_player(child))
        elif child.tag == "table":
            game.table = [_card(card) for card in child.children]
        elif child.text is not None and not game.players and child.tag not in game.head:
            game.head[child.tag] = child.text
        else:
            game.tail.append(child)
    return game


def write_saved_game(game: SavedGame) -> str:
    """The text of ``game`` in Lackey's layout: what :func:`read_saved_game` read, the same."""
    root = Element("save")
    root.children += [Element(tag, value) for tag, value in game.head.items()]
    root.children += [_player_element(player) for player in game.players]
    if game.table is not None:
        root.children.append(Element("table", None, [_card_element(c) for c in game.table]))
    root.children += game.tail
    return tree_text(root)


def _player(element: Element) -> SavedPlayer:
    player = SavedPlayer(element.value("name") or "")
    for child in element.children:
        zone = re.fullmatch(r"zone(\d+)", child.tag)
        if child.tag == "name":
            continue
        if child.tag == "seat" and child.text is not None and child.text.strip().isdigit():
            player.seat = int(child.text)
        elif child.tag == "playerstats":
            player.stats = {stat.tag: stat.text or "" for stat in child.children}
        elif zone:
            visible = [v.text or "" for v in child.children if v.tag == "visibleto"]
            cards = [_card(c) for c in child.children if c.tag == "card"]
            player.zones.append(SavedZone(int(zone[1]), visible, cards))
        else:
            player.other.append(child)
    return player


def _player_element(player: SavedPlayer) -> Element:
    children = [Element("name", player.name)]
    if player.seat is not None:
        children.append(Element("seat", str(player.seat)))
    if player.stats:
        stats = [Element(label, value) for label, value in player.stats.items()]
        children.append(Element("playerstats", None, stats))
    for zone in player.zones:
        inner = [Element("visibleto", name) for name in zone.visible_to]
        inner += [_card_element(card) for card in zone.cards]
        children.append(Element(f"zone{zone.index}", None if inner else "", inner))
    return Element("player", None, children + player.other)


def _card(element: Element) -> SavedCard:
    values = [(c.tag, c.text or "") for c in element.children]
    own = dict(v for v in values if v[0] in CARD_FIELDS)
    try:
        number = int(own.get("id", ""))
    except ValueError as error:
        raise LackeyError(f"saved game: a card without a numeric <id>: {values}") from error
    state = [v for v in values if v[0] not in CARD_FIELDS]
    return SavedCard(number, own.get("owner"), own.get("controller"), state)


def _card_element(card: SavedCard) -> Element:
    fields = [("id", str(card.id)), ("owner", card.owner), ("controller", card.controller)]
    values = [(tag, value) for tag, value in fields if value is not None] + card.state
    return Element("card", None, [Element(tag, value) for tag, value in values])
