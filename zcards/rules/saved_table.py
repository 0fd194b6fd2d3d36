"""The audit's table as a Lackey saved game, and back: the judge restores the disputed board
in Lackey itself, and a log that begins mid-game starts from the saved state that goes with
it (``zcards audit LOG --from-save FILE``).

What maps where (docs/lackey-formats.md §7): each player's Food is a player stat; his hand,
deck, discard pile and removed cards are his gamezones (in the plugin's order); survivors,
items and zombies lie on the table, owned by the player whose part of the table holds them,
spent cards turned 90°, face-down zombies turned over, wounds, the Infected token and the
combat zone as the plugin's counters (red, green, orange). A card's ``<id>`` is its index in
the card list in the plugin's load order (sets in name order, as ``zcards plugin export``
writes them). What the format has no place for is said in a card's note: an ex-survivor
zombie (``zombie``), an item's host (``on Kyle Bjorn``), and a hidden card (one of the
:data:`HIDDEN_NOTES`: a stand-in turned face down, or a card drawn from the deck list).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from lackey_plugin.saved import SavedCard, SavedGame, SavedPlayer, SavedZone
from zcards.cards.model import Card
from zcards.errors import UsageError
from zcards.game.definition import (
    DECK,
    DISCARD,
    FOOD_STAT,
    HAND,
    PHASES,
    REMOVED,
    ZOMBIE_GAME,
    Meaning,
)
from zcards.game.table import Item, Player, Survivor, Table
from zcards.game.zombies import HIDDEN, Board, Up, Zombies
from zcards.rules.reading import Reading

__all__ = ["HIDDEN_NOTES", "load_order", "restored", "save_of_table", "table_of_save"]

STAND_IN = "hidden: a stand-in (the log does not show this card)"
DRAWN = "hidden: drawn from the rest of the deck list (the log does not show this card)"
HIDDEN_NOTES = (STAND_IN, DRAWN)
ZOMBIE = "zombie"  # a survivor card that is a zombie now (taken over, R11.3)
MISSING = "not in the card data: "  # a stand-in's note: the name of a card the data lacks
SLOTS = ("rr", "rs", "cr", "cs")  # a board's face-down cards by zone (combat) and rotation
ON = "on "  # an item's note: the survivor it is attached to

ZONES = {label: index for index, label in enumerate(ZOMBIE_GAME.zone_labels)}


def _colour(meaning: Meaning) -> str:
    """The counter a card function of ``meaning`` adds, as the saved game names it."""
    for function in ZOMBIE_GAME.card_functions:
        if function.meaning == meaning and function.colour:
            return function.colour.capitalize()
    raise LookupError(meaning)


WOUNDS, INFECTED, COMBAT = (_colour(m) for m in (Meaning.WOUND, Meaning.INFECT, Meaning.TO_COMBAT))


def load_order(cards: Iterable[Card]) -> list[Card]:
    """The cards as the plugin loads them: by set name (as exported), in their order within."""
    return sorted(cards, key=lambda card: (card.set_name.casefold(), card.set_name))


def save_of_table(
    table: Table, cards: Iterable[Card], *, decks: Mapping[str, Iterable[str]] | None = None
) -> SavedGame:
    """The table as a saved game. A card the log does not show (a hand card not named, the
    deck, a face-down zombie) is a stand-in, or with ``decks`` (each player's deck list, card
    names) one of the cards of his list not seen elsewhere; its note says which."""
    order = load_order(cards)
    ids: dict[str, int] = {}
    for number, card in enumerate(order):
        ids.setdefault(card.name, number)
    if not order:
        raise UsageError("no card data: a saved game names its cards by their index in it")
    game = SavedGame(head={"turn": str(max(table.turn, 0))})
    if table.phase in PHASES:
        game.head["phase"] = str(PHASES.index(table.phase))
    players = [table.players[name] for name in table.order if table.players[name].playing]
    game.head["numseats"] = str(len(players))
    game.table = []
    for seat, me in enumerate(players):
        deck = Counter(decks.get(me.name, ())) if decks else Counter()
        deck -= _seen(me)
        writer = _Writer(me.name, ids, deck)
        game.players.append(writer.player(me, seat, [p.name for p in players]))
        game.table += writer.table(me, seat, len(players))
    return game


def _seen(me: Player) -> Counter[str]:
    seen = Counter(me.hand_names)
    seen.update(me.discard)
    seen.update(me.removed)
    seen.update(s.name for s in me.survivors)
    seen.update(i.name for i in me.items)
    seen.update(u.name for u in me.zombies.board.up if not u.generic)
    return seen


class _Writer:
    """One player's cards as saved cards."""

    def __init__(self, name: str, ids: dict[str, int], deck: Counter[str]) -> None:
        self.name, self.ids, self.deck = name, ids, deck
        self.stand_in = next(iter(ids.values()))

    def card(self, name: str, *state: tuple[str, str]) -> SavedCard:
        number = self.ids.get(name)
        if number is None:  # a card missing from the card data: a stand-in that says so
            return SavedCard(self.stand_in, self.name, None, [*state, ("note", MISSING + name)])
        return SavedCard(number, self.name, None, list(state))

    def hidden(self, *state: tuple[str, str]) -> SavedCard:
        drawn = next((name for name, n in self.deck.items() if n > 0 and name in self.ids), None)
        if drawn is None:
            return SavedCard(self.stand_in, self.name, None, [*state, ("note", STAND_IN)])
        self.deck[drawn] -= 1
        return SavedCard(self.ids[drawn], self.name, None, [*state, ("note", DRAWN)])

    def player(self, me: Player, seat: int, everyone: list[str]) -> SavedPlayer:
        shown = sorted(me.hand_names.elements())
        hand = [self.card(name) for name in shown]
        hand += [self.hidden() for _ in range(max(0, (me.hand or 0) - len(shown)))]
        deck = [self.hidden() for _ in range(me.deck or 0)]
        zones = {  # a count the log has not told leaves its zone out (unknown)
            HAND: (hand, [self.name]) if me.hand is not None else None,
            DECK: (deck, []) if me.deck is not None else None,
            DISCARD: ([self.card(n) for n in me.discard], everyone),
            REMOVED: ([self.card(n) for n in me.removed], everyone),
        }
        saved = SavedPlayer(self.name, seat)
        if me.food_now is not None:
            saved.stats[FOOD_STAT] = str(me.food_now)
        for label, index in ZONES.items():
            kept = zones.get(label, ([], []))
            if kept is not None:
                saved.zones.append(SavedZone(index, list(kept[1]), kept[0]))
        return saved

    def table(self, me: Player, seat: int, seats: int) -> list[SavedCard]:
        """Survivors and items on one row, resource and combat zombies on the next two, on
        the player's side of the table (seat 0 at the bottom, as Lackey puts it)."""
        rows: list[list[SavedCard]] = [[], [], []]
        hosts = {s.uid: s.name for s in me.survivors}
        for s in me.survivors:
            state = _turned(bool(s.spent)) + _counter(WOUNDS, s.wounds or 0)
            rows[0].append(self.card(s.name, *state, *_counter(INFECTED, int(bool(s.infected)))))
        for i in me.items:
            note = [("note", ON + hosts[i.host])] if i.host in hosts else []
            rows[0].append(self.card(i.name, *_turned(i.spent), *note))
        board = me.zombies.board
        for combat, row in ((False, rows[1]), (True, rows[2])):
            for spent in (False, True):
                for name in getattr(board, SLOTS[2 * combat + spent]):
                    state = (*_turned(spent), ("isturnedover", "1"), *_counter(COMBAT, int(combat)))
                    row.append(self.card(name, *state) if name != HIDDEN else self.hidden(*state))
            for up in (u for u in board.up if u.combat == combat):
                note = [("note", ZOMBIE)] if up.generic else []
                state = (*_turned(up.spent), *_counter(COMBAT, int(combat)), *note)
                row.append(self.card(up.name, *state))
        side = -1 if seat == 0 else 1  # two players face each other; more sit in bands
        base = -0.75 if seats <= 2 and seat == 0 else -0.75 + 1.5 * seat / max(1, seats - 1)
        placed = []
        for number, row in enumerate(rows):
            y = base - side * 0.22 * number if seats <= 2 else base + 0.1 * number
            for column, card in enumerate(row):
                card.state += [("x", f"{-0.9 + 0.13 * (column % 14):.2f}"), ("y", f"{y:.2f}")]
                placed.append(card)
        return placed


def _turned(spent: bool) -> tuple[tuple[str, str], ...]:
    return (("rotation", "1"),) if spent else ()


def _counter(colour: str, count: int) -> tuple[tuple[str, str], ...]:
    return ((colour, str(count)),) if count else ()


# -- back: a saved game as the table the audit starts from -------------------------------------


def table_of_save(saved: SavedGame, cards: Iterable[Card]) -> Table:
    """The table a saved game shows, every player's part known: the turn and phase it was
    saved in, whose turn unknown (the audit waits for the next turn line, R17.9)."""
    order = load_order(cards)
    by_id = {number: card for number, card in enumerate(order)}
    table = Table(started=True)
    table.turn = saved.number("turn") or 0
    phase = saved.number("phase")
    if table.turn and phase is not None and 0 <= phase < len(PHASES):
        table.phase = PHASES[phase]
    owners: dict[str, Player] = {}
    for player in sorted(saved.players, key=lambda p: (p.seat is None, p.seat or 0)):
        me = table.edit(player.name)
        owners[player.name] = me
        me.seat, me.playing, me.known = player.seat, True, True
        food = player.stats.get(FOOD_STAT)
        me.food = int(food) if food is not None and food.strip().isdigit() else me.food
        zone = {label: player.zone(index) for label, index in ZONES.items()}
        held = {label: z.cards if z is not None else [] for label, z in zone.items()}
        me.hand, me.deck = (len(held[z]) if zone[z] is not None else None for z in (HAND, DECK))
        me.hand_names = Counter(_names(held[HAND], by_id))
        me.discard = _names(held[DISCARD], by_id)
        me.removed = _names(held[REMOVED], by_id)
    boards: dict[str, Board] = {name: Board() for name in owners}
    for card in saved.table or []:
        holder = owners.get(card.controller or card.owner or "")
        if holder is not None:
            boards[holder.name] = _place(holder, card, by_id, boards[holder.name])
    for name, board in boards.items():
        owners[name].zombies = Zombies(frozenset({board}))
    return table


def _names(held: list[SavedCard], by_id: Mapping[int, Card]) -> list[str]:
    """The names of the cards the log showed (stand-ins and drawn cards are not)."""
    return [_name(card, by_id) for card in held if card.get("note") not in HIDDEN_NOTES]


def _name(card: SavedCard, by_id: Mapping[int, Card]) -> str:
    known = by_id.get(card.id)
    note = card.get("note")
    if known is None or (
        note and note not in HIDDEN_NOTES and note != ZOMBIE and not note.startswith(ON)
    ):
        return note or f"card #{card.id}"  # a card missing from the card data keeps its name
    return known.name


def _place(me: Player, card: SavedCard, by_id: Mapping[int, Card], board: Board) -> Board:
    """One table card on its holder's part of the table; the board with his zombies."""
    spent = card.number("rotation") % 2 == 1
    combat = card.number(COMBAT) > 0
    hidden = card.get("note") in HIDDEN_NOTES
    if card.number("isturnedover"):
        name = HIDDEN if hidden else _name(card, by_id)
        slot = SLOTS[2 * combat + spent]
        return board._replace(**{slot: tuple(sorted((*getattr(board, slot), name)))})
    name = _name(card, by_id)
    known = by_id.get(card.id)
    note = card.get("note") or ""
    kind = known.type if known is not None and not note.startswith(MISSING) else ""
    if kind == "Zombie" or note == ZOMBIE or combat:
        return board.with_up((*board.up, Up(name, combat, spent, note == ZOMBIE)))
    if kind == "Item":
        host = next((s.uid for s in me.survivors if ON + s.name == note), None)
        me.items.append(Item(name, host=host, spent=spent))
        return board
    wounds, infected = card.number(WOUNDS), card.number(INFECTED) > 0
    me.survivors.append(Survivor(name, wounds=wounds, infected=infected, spent=spent))
    return board


def restored(start: Table, replay: Reading) -> Reading:
    """``replay`` (a new game's) from a saved table: every part of it known, the clock
    waiting for the next turn line (whose turn it is a saved game does not say, R17.9)."""
    table = replay.table
    for name in start.order:
        table.players[name] = start.players[name].copy()
    table.turn, table.phase = start.turn, start.phase
    replay.clock.known = False
    return replay
