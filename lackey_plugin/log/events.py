"""Typed events of a LackeyCCG game log: one frozen dataclass per line family.

Every event has provenance fields, excluded from equality (so ``parse(write(events)) ==
events``): ``line`` (1-based source line, 0 for events made in code), ``raw`` (the line as
read), ``timestamp`` (the raw ``H:MM:SS`` stamp or None) and ``seconds`` (since the log's first
day; a stamp going backwards means midnight passed). Conventions shared by all events:

* players are Lackey user names exactly as typed (spaces allowed);
* ``card`` is the card as the log displays it: its name, or a hidden placeholder
  (:data:`HIDDEN_CARDS`); ``event.hidden`` says which;
* ``*_owner`` owns a zone; "his"/"their" resolves to the actor (the writer picks the pronoun);
* ``*_pos``: ``"top"``, ``"bottom"``, an ``int`` N for "position N", None when unsaid;
* ``counts`` is the optional zone-count suffix ``(Hand: 6, Discard: 2)`` as a dict, else None;
* ``meaning`` (function events): what the parser's game definition says the label means
  (:meth:`~lackey_plugin.game.GameDefinition.meanings`), None for a label it does not know;
  derived, not compared. ``of`` constructors take a meaning and the definition, and write the
  definition's label for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from lackey_plugin.game import GameDefinition

HIDDEN_CARDS = frozenset({"a card", "a face down card", "a face-down card", "a spawned card"})
"""How Lackey writes a card the log's saver cannot see."""

Position = str | int | None


def is_hidden(card: str | None) -> bool:
    """True when ``card`` is a hidden-card placeholder rather than a card name."""
    return card in HIDDEN_CARDS


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; see the module docstring for the provenance fields."""

    kind: ClassVar[str] = "event"
    line: int = field(default=0, compare=False, kw_only=True)
    raw: str = field(default="", compare=False, kw_only=True, repr=False)
    timestamp: str | None = field(default=None, compare=False, kw_only=True)
    seconds: int | None = field(default=None, compare=False, kw_only=True)

    @property
    def hidden(self) -> bool:
        """True when the event's card is a hidden placeholder (False without a card)."""
        return is_hidden(getattr(self, "card", None))


@dataclass(frozen=True, slots=True)
class Seat(Event):
    """Seat/join lines; ``action``: ``sit``, ``get_up``, ``leave``, ``spectate``, ``removed``."""

    kind: ClassVar[str] = "seat"
    player: str
    action: str = "sit"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class NewGame(Event):
    """``<P> starts a new game.``: the boundary between games in one log."""

    kind: ClassVar[str] = "new_game"
    player: str


@dataclass(frozen=True, slots=True)
class GameControl(Event):
    """``action``: ``clear`` (the table), ``save`` (as ``file``), ``load`` (from ``file``)."""

    kind: ClassVar[str] = "game_control"
    player: str
    action: str
    file: str | None = None


@dataclass(frozen=True, slots=True)
class DeckLoad(Event):
    """``loads a deck to the <zone> zone and shuffles it.``; ``zone`` None for ``loads a deck.``"""

    kind: ClassVar[str] = "deck_load"
    player: str
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class Draw(Event):
    """``draws <card>.`` (count 1; the card may be ``a card``) or ``draws N cards.`` (card None)."""

    kind: ClassVar[str] = "draw"
    player: str
    count: int = 1
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Move(Event):
    """Zone to zone: ``moves``/``discards`` (``discard``), optionally ``randomly`` (``random``)."""

    kind: ClassVar[str] = "move"
    player: str
    card: str
    src_owner: str
    src_zone: str
    dst_owner: str
    dst_zone: str
    src_pos: Position = None
    dst_pos: Position = None
    discard: bool = False
    random: bool = False
    counts: dict[str, int] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class Play(Event):
    """Zone to table: ``plays <card> from <pos> <whose> <zone>[ at position N].``; a hidden
    card (``a face down card``) is a face-down play (a resource in Zombie CCG)."""

    kind: ClassVar[str] = "play"
    player: str
    card: str
    src_owner: str
    src_zone: str
    src_pos: Position = None
    at_position: int | None = None
    random: bool = False
    counts: dict[str, int] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class TableToZone(Event):
    """Table to zone: ``moves <card> from the table to …``; ``ceases`` when a spawned card or
    token goes ``where it ceases to exist.``"""

    kind: ClassVar[str] = "table_to_zone"
    player: str
    card: str
    dst_owner: str
    dst_zone: str
    dst_pos: Position = None
    at_position: int | None = None
    ceases: bool = False
    counts: dict[str, int] | None = field(default=None, hash=False)


@dataclass(frozen=True, slots=True)
class Shuffle(Event):
    """``shuffles <whose> <zone>``; ``owner`` None for ``shuffles the <zone> zone``;
    ``all_decks`` for ``is shuffling all decks.`` (zone None)."""

    kind: ClassVar[str] = "shuffle"
    player: str
    zone: str | None = None
    owner: str | None = None
    all_decks: bool = False


@dataclass(frozen=True, slots=True)
class Spawn(Event):
    """``spawns a card named X`` (``what`` = ``card``), ``clones a card named X`` (``clone``),
    ``spawns a card.`` (name None), ``spawns N X tokens to the table.`` (``token``)."""

    kind: ClassVar[str] = "spawn"
    player: str
    what: str = "card"
    name: str | None = None
    count: int = 1


@dataclass(frozen=True, slots=True)
class Perform(Event):
    """A card function: ``<P> performs <label> on <card>.`` (performed by the card's controller)."""

    kind: ClassVar[str] = "perform"
    player: str
    label: str
    card: str
    meaning: str | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        player: str,
        meaning: str,
        card: str,
        *,
        game: GameDefinition,
        **provenance: Any,
    ) -> Perform:
        """The event for doing ``meaning`` with the game's own label (the simulator's form)."""
        return cls(player, game.label_for(meaning), card, meaning, **provenance)


@dataclass(frozen=True, slots=True)
class PerformAll(Event):
    """An all-cards function: ``<P> performs <label> on all his cards.``"""

    kind: ClassVar[str] = "perform_all"
    player: str
    label: str
    meaning: str | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls, player: str, meaning: str, *, game: GameDefinition, **provenance: Any
    ) -> PerformAll:
        return cls(player, game.label_for(meaning), meaning, **provenance)


@dataclass(frozen=True, slots=True)
class CounterChange(Event):
    """A counter function: ``<P> performs <label> (<old> to <new>) (+d) on <card>.``;
    ``delta`` defaults to ``new - old``."""

    kind: ClassVar[str] = "counter"
    player: str
    label: str
    card: str
    old: int
    new: int
    delta: int | None = None
    meaning: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.delta is None:
            object.__setattr__(self, "delta", self.new - self.old)

    @classmethod
    def of(
        cls,
        player: str,
        meaning: str,
        card: str,
        old: int,
        new: int,
        *,
        game: GameDefinition,
        **provenance: Any,
    ) -> CounterChange:
        return cls(player, game.label_for(meaning), card, old, new, None, meaning, **provenance)


@dataclass(frozen=True, slots=True)
class Face(Event):
    """``makes <card> face up.`` / ``face down.``"""

    kind: ClassVar[str] = "face"
    player: str
    card: str
    face_up: bool


@dataclass(frozen=True, slots=True)
class CardAction(Event):
    """Built-in card menu actions: ``edit_note`` (with ``text``), ``erase_note``, ``clear``,
    ``take_control``."""

    kind: ClassVar[str] = "card_action"
    player: str
    action: str
    card: str
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Peek(Event):
    """``peeks at a card/N cards on the table.``[`` (The card is X)``, the peeker's log]."""

    kind: ClassVar[str] = "peek"
    player: str
    count: int = 1
    card: str | None = None


@dataclass(frozen=True, slots=True)
class StatChange(Event):
    """``changes <target>'s <stat> to <new>. (from <old> to <new>) (+d)``; ``target`` None for a
    global stat. ``delta`` defaults to ``new - old``."""

    kind: ClassVar[str] = "stat"
    player: str
    stat: str
    old: int
    new: int
    delta: int | None = None
    target: str | None = None

    def __post_init__(self) -> None:
        if self.delta is None:
            object.__setattr__(self, "delta", self.new - self.old)


@dataclass(frozen=True, slots=True)
class PhaseChange(Event):
    """``<action> … phase: <old> -> <new>``; action ``next`` (advances to the next phase),
    ``back`` (takes back a phase), ``set`` (sets the phase), ``change`` (changes the phase)."""

    kind: ClassVar[str] = "phase"
    player: str
    old: str
    new: str
    action: str = "next"


@dataclass(frozen=True, slots=True)
class TurnChange(Event):
    """``advances the turn. Current Turn: #<number>, <active>'s turn.``"""

    kind: ClassVar[str] = "turn"
    player: str
    number: int
    active: str


@dataclass(frozen=True, slots=True)
class DiceRoll(Event):
    """``/roll`` lines and the plugin's die button (``button``). ``modifier`` is the text of the
    ``(+A)`` / ``(+A to each)`` part without parentheses; ``total``/``average`` come from the
    ``(sum:X, avg:Y)`` part of multi-die lines (average kept as written)."""

    kind: ClassVar[str] = "dice"
    player: str
    sides: int
    results: tuple[int, ...]
    count: int = 1
    modifier: str | None = None
    total: int | None = None
    average: str | None = None
    button: bool = False


@dataclass(frozen=True, slots=True)
class CoinFlip(Event):
    """``flips N coin(s). The result(s): HEADS,…``, or the button's form (``button``)."""

    kind: ClassVar[str] = "coin"
    player: str
    results: tuple[str, ...]
    count: int = 1
    button: bool = False


@dataclass(frozen=True, slots=True)
class Reveal(Event):
    """Reveal or conceal a zone, or the top/bottom ``count`` cards of it (``end``).

    ``audience``: ``self`` (himself/themselves), ``owner`` (it's owner), ``everyone``, ``all``
    (all players), ``others`` (everyone but it's owner)."""

    kind: ClassVar[str] = "reveal"
    player: str
    zone: str
    audience: str
    owner: str | None = None
    end: str | None = None
    count: int | None = None
    concealed: bool = False


@dataclass(frozen=True, slots=True)
class PutRevealed(Event):
    """``puts the revealed card(s) on the top/bottom of <whose> <zone>``."""

    kind: ClassVar[str] = "put_revealed"
    player: str
    zone: str
    owner: str | None = None
    pos: str = "top"
    plural: bool = False


@dataclass(frozen=True, slots=True)
class Chat(Event):
    """``<P>: <text>``. Changes nothing in the game (bids aside, see docs/log-protocol.md)."""

    kind: ClassVar[str] = "chat"
    player: str
    text: str


@dataclass(frozen=True, slots=True)
class Whisper(Event):
    """``<P> (to you): <text>`` (``to`` None) or ``<P> (to <to>): <text>``."""

    kind: ClassVar[str] = "whisper"
    player: str
    text: str
    to: str | None = None


@dataclass(frozen=True, slots=True)
class System(Event):
    """A known line that changes nothing: Lackey's own messages (``name`` is the template name,
    e.g. ``log_saved``), hidden-mode notices. ``text`` is the whole line, written back as is."""

    kind: ClassVar[str] = "system"
    name: str
    text: str
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Unparsed(Event):
    """A line no template matches; kept with its line number so it can be reported."""

    kind: ClassVar[str] = "unparsed"
    text: str


# In definition order; slots=True rebuilds each class, so keep the ones this module exports.
EVENT_TYPES: tuple[type[Event], ...] = tuple(
    cls for cls in Event.__subclasses__() if globals().get(cls.__name__) is cls
)
EVENT_BY_NAME: dict[str, type[Event]] = {cls.__name__: cls for cls in EVENT_TYPES}
EVENT_BY_KIND: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_TYPES}
