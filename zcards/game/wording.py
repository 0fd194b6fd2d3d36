"""How card text is worded: sentences, keywords restated, flavour, and what an unread
sentence speaks of.

Card text comes from many designers. Reading it must not depend on typography (curly quotes,
dashes, odd spacing, a literal ``\\n`` for a line break), on how a keyword's ability is
restated, nor on a list of words a flavour sentence must avoid. A sentence *acts* when a verb
of the effect vocabulary acts on a game object ("draw a card", "gets +1 power"); one that
does not is flavour ("A steady hand with a shotgun."), whatever nouns it uses. A sentence
that acts and that no effect row reads is *unread*: :func:`speaks_of` says which rule areas
(as the :class:`~zcards.game.effects.Effect` values the checks ask about), whose totals or
cards, and which phase it could touch, so that it casts doubt on those findings only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from zcards.cards.model import FACTIONS, KEYWORDS, SYMBOLS
from zcards.game.definition import PHASES
from zcards.game.effects import Effect

_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
    }
)
_SPACES = re.compile(r"[ \t]+")
_LINE_BREAKS = re.compile(r"\s*(?:\r\n|\r|\n|\\n)\s*")
_SPACE_BEFORE = re.compile(r" ([.,;:!?)])")


def plain(text: str) -> str:
    """Card text as it is read: straight quotes and hyphens, single spaces, one ``\\n`` per
    line break (a literal backslash-n too)."""
    text = _LINE_BREAKS.sub("\n", text.translate(_TYPOGRAPHY))
    lines = (_SPACE_BEFORE.sub(r"\1", _SPACES.sub(" ", line).strip()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


# A sentence ends at . ! ? or a line break; a period in parentheses, or in a name such as
# "Dr. Amelia Stone", stays inside.
_SENTENCE = re.compile(r"(?:[^.!?(\n]|\([^)\n]*\)?|\.(?=\S))+[.!?]?")


def sentences(text: str) -> list[tuple[int, int]]:
    """The spans of the sentences of ``plain`` text."""
    return [
        (m.start(), m.end())
        for m in _SENTENCE.finditer(text)
        if any(char.isalnum() for char in m.group())
    ]


def words(text: str) -> str:
    """What is left of a piece of text when punctuation goes: empty when nothing is."""
    return " ".join(re.findall(r"[\w+\-']+", text)).strip("-' ")


# -- flavour: no verb of the effect vocabulary acting on a game object ----------------------

# Verbs that act on whatever they name, a pronoun too ("ready it"); and verbs that act only on
# a game object ("has power 2", not "It looks smart.").
_STRONG = (
    r"draws?|drew|discards?|spends?|spent|read(?:y|ies|ied)|returns?|removes?|heals?|"
    r"wounds?|infects?|cures?|attach(?:es)?|targets?|destroys?|sacrifices?|shuffles?|"
    r"flip|flips|untap|exhaust|tap|steal|steals|overwhelms?"
)
_WEAK = (
    r"gains?|gets?|loses?|lost|add|adds|pay|pays|moves?|put|puts|place|places|suffers?|"
    r"deals?|prevents?|plays?|fights?|attacks?|defends?|assigns?|kills?|search(?:es)?|"
    r"look|looks|reveals?|wins?|has|have|roll|rolls|turn|turns|control|controls|take|"
    r"takes|give|gives|double|doubles|ignores?|choose|chooses|count|counts|become|becomes|"
    r"leaves?|enters?|costs?|cannot|can't|can|may|must|instead|immune|extra|additional|"
    r"only|skip|skips|block|blocks|set|sets|equal|equals|reduce|reduces|increase|increases"
)
_STRONG_ACTION = re.compile(rf"\b(?:{_STRONG})\b", re.I)
_ACTION = re.compile(rf"\b(?:{_STRONG}|{_WEAK})\b|[+-]\d", re.I)
_OBJECTS = (
    r"cards?|hands?|decks?|food|wounds?|counters?|tokens?|power|health|survivors?|"
    r"zombies?|items?|weapons?|armou?r|resources?|zones?|dice|die|rolls?|turns?|phases?|"
    r"fights?|combat|players?|opponents?|attackers?|defenders?|discard|pile|"
    r"target|ex-survivors?|barricades?|"
    r"infected|spent|ready|keywords?|symbols?|requirements?|abilit(?:y|ies)|"
    + "|".join(w.casefold() for w in (*KEYWORDS, *SYMBOLS, *FACTIONS, *PHASES))
)
_OBJECT = re.compile(rf"\b(?:{_OBJECTS})\b", re.I)
_PRONOUN = re.compile(r"\b(?:it|him|her|them|itself|himself|herself)\b", re.I)


def acts(sentence: str, name: str = "") -> bool:
    """Whether a sentence does anything in the game: a verb of the effect vocabulary and a
    game object (the card itself, by name, counts as one; a pronoun only after a verb that
    acts on whatever it names)."""
    if not _ACTION.search(sentence):
        return False
    if name and name.casefold() in sentence.casefold():
        return True
    if _OBJECT.search(sentence) is not None:
        return True
    return _STRONG_ACTION.search(sentence) is not None and _PRONOUN.search(sentence) is not None


# -- keywords and symbols restated ---------------------------------------------------------

_FILLER = re.compile(
    r"\b(?:this|it|he|she|the|a|an|is|has|have|with|and|zombie|survivor|card|keyword|"
    r"keywords|symbol|symbols|ability|trait)\b",
    re.I,
)
FIGHTS = frozenset(
    {
        Effect.POWER,
        Effect.SET_POWER,
        Effect.HEALTH,
        Effect.WOUND,
        Effect.SPEND,
        Effect.INFECT,
        Effect.KEYWORD,
        Effect.DISCARD_INSTEAD,
        Effect.DISCARD_ZOMBIE,
        Effect.LEAVE_COMBAT,
        Effect.MUST_FIGHT,
        Effect.NO_OVERWHELM,
    }
)  # what may change a fight's result (R10.4 to R10.7)
# What each keyword's or symbol's own rule touches: a restatement speaks of nothing else.
_DEATH = frozenset({Effect.WOUND, Effect.HEALTH, Effect.NO_OVERWHELM})
_COMBAT = frozenset({Effect.TO_COMBAT, Effect.LEAVE_COMBAT, Effect.SPEND})
OWN_AREAS: dict[str, frozenset[Effect]] = {
    "fast": _COMBAT,
    "fierce": FIGHTS | _DEATH | _COMBAT,
    "infectious": FIGHTS | _DEATH | _COMBAT | {Effect.INFECT, Effect.CURE},
    "medic": _DEATH | {Effect.HEAL, Effect.SPEND},
    "scavenger": frozenset(
        {Effect.FOOD, Effect.SPEND, Effect.DECK_TO_RESOURCE, Effect.DISCARD_TO_RESOURCE}
    ),
}
# What a sentence must say to restate a keyword's or symbol's own rule in other words.
_SIGNATURES: dict[str, re.Pattern[str]] = {
    name: re.compile(pattern, re.I)
    for name, pattern in {
        "fast": r"\bread(?:y|ied|ies)\b.*\bcombat\b|\bcombat\b.*\bread(?:y|ied|ies)\b",
        "fierce": r"\b(?:wins?|beats?)\b.*\b(?:extra|additional|another|one more)\b.*\bwound",
        "infectious": r"\b(?:wins?|beats?)\b.*\binfect",
        "medic": r"\bspend\b.*(?:\b(?:remove|take|takes|heal)\b.*\bwound|\bwound.*\boff\b)",
        "scavenger": r"\broll\b|\bdie\b|\battract attention\b|\bon a 1\b",
    }.items()
}
_OWN_NUMBERS = re.compile(r"\b(?:[2-9]|\d\d+|two|three|four|five|six)\b", re.I)
_SCAVENGER_ROLL = re.compile(
    r"\b(?:on a 1|2 ?- ?6|2 to 6|2 or (?:more|higher|better|above)|2\+)", re.I
)
# The rulebook prints these without naming the symbol.
RULEBOOK_ABILITIES: dict[str, tuple[str, ...]] = {
    "medic": ("recoup - spend this survivor: remove a wound counter from target survivor.",),
    "scavenger": (
        "recoup - attract attention: if successful, add 1 food.",
        "(to attract attention, roll a die. on a 1, each zombie player puts the top card of "
        "his deck into his resource zone face-down.)",
        "(to attract attention, roll a die. on a 1, each zombie player puts the top card of "
        "his deck into his resource zone face down.)",
    ),
}


def restates(sentence: str, name: str, own: frozenset[str]) -> bool:
    """Whether a sentence only names or restates keywords and symbols the card has (its
    columns): "Fast.", "Fast and Fierce.", "This zombie is Fierce.", "Fast: when this zombie
    is moved to the combat zone, ready it.", the rulebook's Medic and Scavenger text. A
    restatement that speaks of anything its keyword's rule does not touch is not one."""
    low = sentence.casefold().strip()
    if any(low in RULEBOOK_ABILITIES.get(word, ()) for word in own):
        return True
    head = re.match(r"\s*([a-z]+)\s*(?:[:(-]|$)", low)
    if head and head.group(1) in own and len(low) > len(head.group(0)):
        rest = low[head.end() :]
        areas = speaks_of(rest, name).areas
        numbers = _OWN_NUMBERS.search(_SCAVENGER_ROLL.sub(" ", rest))
        return areas <= OWN_AREAS.get(head.group(1), frozenset()) and numbers is None
    if low.startswith("(") and own:  # reminder text of the keywords before it
        areas = frozenset().union(*(OWN_AREAS.get(word, frozenset()) for word in own))
        numbers = _OWN_NUMBERS.search(_SCAVENGER_ROLL.sub(" ", low))
        return speaks_of(low, name).areas <= areas and numbers is None
    left = _FILLER.sub(" ", low.replace(name.casefold(), " "))
    bare = [w for w in re.split(r"[\s,.!;:()]+|\bor\b", left) if w]
    if bare and all(w in own for w in bare):
        return True
    return _in_other_words(low, name, own)


def _in_other_words(low: str, name: str, own: frozenset[str]) -> bool:
    """A keyword's or symbol's rule said in other words ("Moves quick: it is readied the
    moment it reaches the combat zone."): the sentence says what the rule says (its
    signature) and speaks of nothing that rule does not touch."""
    areas = frozenset().union(*(OWN_AREAS.get(word, frozenset()) for word in own))
    numbers = _OWN_NUMBERS.search(_SCAVENGER_ROLL.sub(" ", low))
    return (
        any(word in _SIGNATURES and _SIGNATURES[word].search(low) for word in own)
        and numbers is None
        and speaks_of(low, name).areas <= areas
    )


def requires(sentence: str, requirements: frozenset[str]) -> bool:
    """Whether a sentence only restates the card's requirement (its Requirements column
    decides) or only narrows when it may be turned face up: upgrades are never owed, so a
    sentence that only forbids them can excuse no finding ("Needs a Fast zombie you
    control.", "It turns up only where the runners already are.")."""
    if speaks_of(sentence).areas - {Effect.KEYWORD, Effect.TO_COMBAT, Effect.SPEND}:
        return False
    low = sentence.casefold()
    named = {w for w in re.findall(r"[a-z]+", low) if w in {k.casefold() for k in KEYWORDS}}
    if re.search(r"\b(?:needs?|requires?|requirement)\b", low):
        return named <= requirements
    return (
        bool(re.search(r"\bonly\b", low)) and not _GRANTS.search(low) and not named - requirements
    )


# Words that grant (or time) an upgrade rather than only narrow it: "only during your Attack
# phase" lets it happen where R8.2 does not.
_GRANTS = re.compile(
    r"\b(?:may|can(?!not)|additional|extra|instead|also|even|during|phase|when|whenever|any)\b",
    re.I,
)


# -- what an unread sentence speaks of --------------------------------------------------------


class Whose(StrEnum):
    """Whose cards or totals a sentence may touch, seen from the card's controller."""

    CONTROLLER = "controller"  # "you", "your", or no player named
    OPPONENTS = "opponents"  # "an opponent", "each opponent"
    ACTIVE = "active"  # "the survivor player"
    INACTIVE = "inactive"  # "each zombie player"
    ANY = "any"  # "each player", "target survivor", any card not only its controller's


@dataclass(frozen=True)
class Reach:
    """What an unread sentence may do: which rule areas, for whom, when (``phase`` None:
    any phase; ``own_turn``: only in its controller's turn)."""

    areas: frozenset[Effect]
    whose: frozenset[Whose]
    phase: str | None = None
    own_turn: bool = False

    def touches(
        self, effects: frozenset[Effect], subject: str | None, controller: str, table: When
    ) -> bool:
        """Whether it may explain an event of ``effects`` concerning ``subject`` now."""
        if not self.areas & effects:
            return False
        if self.phase is not None and table.phase != self.phase:
            return False
        if self.own_turn and table.active != controller:
            return False
        return subject is None or any(_is(w, subject, controller, table.active) for w in self.whose)


class When(Protocol):
    """The moment a reach is asked about (a table's phase and active player)."""

    @property
    def phase(self) -> str | None: ...

    @property
    def active(self) -> str | None: ...


def _is(whose: Whose, subject: str, controller: str, active: str | None) -> bool:
    if whose is Whose.ANY:
        return True
    if whose is Whose.CONTROLLER:
        return subject == controller
    if whose is Whose.OPPONENTS:
        return subject != controller
    if whose is Whose.ACTIVE:
        return active is None or subject == active
    return active is None or subject != active


_RESOURCES = frozenset({Effect.DECK_TO_RESOURCE, Effect.DISCARD_TO_RESOURCE, Effect.EXTRA_RESOURCE})
FIGHT_OUTCOMES = FIGHTS | {Effect.HEAL}  # and what may take results away
EVERY_AREA = frozenset(Effect)

_AREAS: tuple[tuple[re.Pattern[str], frozenset[Effect]], ...] = tuple(
    (re.compile(pattern, re.I), frozenset(effects))
    for pattern, effects in (
        (
            r"\bdr[ae]ws?\b|\binto (?:your|his|their) hand\b|\bto (?:your|his|their) hand\b",
            {Effect.DRAW, Effect.ITEM_TO_HAND},
        ),
        (r"\bsearch|\blook\b|\breveal", {Effect.DRAW, Effect.LOOK}),
        (r"\bdiscard", {Effect.DISCARD, Effect.DISCARD_ZOMBIE, Effect.DISCARD_INSTEAD}),
        (r"\bfood\b|\bstarv|\bupkeep\b", {Effect.FOOD}),
        (
            r"\bwound|\bdamage|\bkill|\bdestroy|\boverwhelm|\bsuffer|\bdies\b|\bdead\b"
            r"|(?<!\ba )(?<!\bthe )\bdie\b",
            {Effect.WOUND, Effect.HEALTH, Effect.NO_OVERWHELM},
        ),
        (r"\bheal|\bremove\b.*\bwound", {Effect.HEAL, Effect.WOUND}),
        (r"\bprevent", {Effect.HEAL}),  # fewer wounds, never more
        (r"\bhealth\b", {Effect.HEALTH}),
        (r"\bpower\b|\bstrength\b|[+-]\d", {Effect.POWER, Effect.SET_POWER}),
        (r"\binfect|\btoken|\bcure", {Effect.INFECT, Effect.CURE}),
        (r"\bspen[dt]|\bread(?:y|ies|ied)\b|\buntap|\bexhaust", {Effect.SPEND}),
        (r"\bcombat\b|\battack", {Effect.TO_COMBAT, Effect.LEAVE_COMBAT, Effect.SPEND}),
        (r"\bfights?\b|\bfighting\b|\bdefend|\bassign|\bblock", FIGHTS),
        (r"\bresources?\b|\bface[ -]down\b", {Effect.DECK_TO_RESOURCE, Effect.DISCARD_TO_RESOURCE}),
        (
            r"\bhand\b.*\bresource|\b(?:additional|extra|second|one more) (?:card|resource)",
            {Effect.EXTRA_RESOURCE},
        ),
        (
            r"\brequire|\bneeds?\b|\bupgrade|\bface[ -]up\b|\bturn(?:s|ed)? up\b|\bkeywords?\b",
            {Effect.KEYWORD},
        ),
        (r"\bplay(?!ers?\b)|\bcosts?\b|\bpay", _RESOURCES | {Effect.KEYWORD}),
        (r"\bfast\b", {Effect.TO_COMBAT, Effect.SPEND, Effect.KEYWORD}),
        (r"\bfierce\b", {Effect.WOUND, Effect.KEYWORD}),
        (r"\binfectious\b", {Effect.INFECT, Effect.KEYWORD}),
        (r"\b(?:tough|enduring|sentient)\b", {Effect.KEYWORD}),
        (r"\bmedic\b", {Effect.HEAL}),
        (r"\bscaveng|\battract attention\b|\broll", {Effect.FOOD, Effect.DECK_TO_RESOURCE}),
    )
)
_WHOSE: tuple[tuple[re.Pattern[str], Whose], ...] = tuple(
    (re.compile(pattern, re.I), whose)
    for pattern, whose in (
        (
            r"\b(?:an?|each|every|target|all|any|the) opponents?\b|\byour opponents?\b",
            Whose.OPPONENTS,
        ),
        (r"\bsurvivor player\b|\bactive player\b", Whose.ACTIVE),
        (r"\bzombie players?\b", Whose.INACTIVE),
        (r"\b(?:each|every|all|any|target|a) players?\b|\bplayers\b|\beveryone\b", Whose.ANY),
        (
            r"\b(?:target|each|every|all|any|a|an|another|other)\b(?: \w+)? "
            r"(?:survivors?|zombies?|items?)\b(?! you control)",
            Whose.ANY,
        ),
        (r"\b(?:survivors|zombies)\b(?! you control)", Whose.ANY),
    )
)
_PHASE = "|".join(PHASES)
_OWN_PHASE = re.compile(
    rf"\b(?:during|in|at the (?:start|beginning|end) of) your ({_PHASE}) phase\b", re.I
)
_ANY_PHASE = re.compile(
    rf"^\s*({_PHASE})\s*[-:]|\b(?:during|in|at the (?:start|beginning|end) of) "
    rf"(?:the|each|every|a|any) ({_PHASE}) phase\b|\bbegin attack step\b()",
    re.I,
)
_COST = re.compile(r"^\s*(?:discard|spend) (?:\{self\}|this \w+)\s*:", re.I)  # its own cost
_FIGHT_TRIGGER = re.compile(r"\b(?:wins?|loses?) (?:a|the|its) (?:fight|combat)\b", re.I)


def speaks_of(sentence: str, name: str = "") -> Reach:
    """The rule areas, players and phase an unread sentence may touch (all areas when no
    area can be told: reading errs towards doubt, never towards a false violation)."""
    areas: frozenset[Effect] = frozenset()
    said = _COST.sub("", sentence.replace(name, "{self}") if name else sentence)
    for pattern, effects in _AREAS:
        if pattern.search(said):
            areas |= effects
    if re.search(r"\bprevent", sentence, re.I):  # it only ever takes wounds away
        areas = (areas - _DEATH) | {Effect.HEAL}
    rest = sentence.replace(name, " ") if name else sentence
    whose = frozenset(w for pattern, w in _WHOSE if pattern.search(rest))
    if not whose or re.search(r"\byou\b|\byour\b", rest, re.I):
        whose |= {Whose.CONTROLLER}
    own = _OWN_PHASE.search(sentence)
    if own:
        return Reach(areas or EVERY_AREA, whose, _phase(own.group(1)), own_turn=True)
    other = _ANY_PHASE.search(sentence)
    if other:
        found = next((g for g in other.groups() if g), "Attack")
        return Reach(areas or EVERY_AREA, whose, _phase(found))
    if _FIGHT_TRIGGER.search(sentence):
        return Reach(areas or EVERY_AREA, whose, "Attack")
    return Reach(areas or EVERY_AREA, whose)


def _phase(word: str) -> str:
    return next(phase for phase in PHASES if phase.casefold() == word.casefold())
