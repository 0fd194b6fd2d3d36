"""The rules model's table forks copy-on-write: a reading's changes never reach another's."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

from zcards.game.table import Item, Loss, Survivor, Table
from zcards.game.zombies import Zombies


def _busy_table() -> Table:
    """A player with a value other than the default in every field."""
    table = Table(started=True)
    me = table.edit("Alice")
    me.seat, me.known, me.food, me.hand, me.deck = 2, False, 7, 3, 31
    me.hand_names = Counter({"Brute": 2})
    me.discard, me.removed = ["Shambler"], ["Ghoul"]
    me.survivors = [Survivor("Scout", wounds=1, infected=True, spent=True)]
    me.items = [Item("Crowbar", host=me.survivors[0].uid, spent=True)]
    me.zombies = Zombies().add_face_down("Brute")
    me.playing, me.acted, me.spectator = True, 4, True
    me.lost = Loss("Alice", 4, 120, "empty deck")
    return table


def test_a_fork_edits_its_own_copy_of_every_field():
    table = _busy_table()
    twin = table.fork()
    original, copy = table.players["Alice"], twin.edit("Alice")
    assert copy is not original
    for field in fields(original):
        mine, theirs = getattr(copy, field.name), getattr(original, field.name)
        if field.name == "survivors":
            assert [vars_of(s) for s in mine] == [vars_of(s) for s in theirs]
        elif field.name == "items":
            assert [vars_of(i) for i in mine] == [vars_of(i) for i in theirs]
        else:
            assert mine == theirs, field.name
    copy.hand_names["Brute"] -= 1
    copy.discard.append("Brute")
    copy.survivors[0].wounds = 2
    copy.items[0].spent = False
    copy.food = 0
    assert original.hand_names == Counter({"Brute": 2})
    assert original.discard == ["Shambler"]
    assert original.survivors[0].wounds == 1
    assert original.items[0].spent is True
    assert original.food == 7


def vars_of(card: Survivor | Item) -> dict[str, object]:
    return {field.name: getattr(card, field.name) for field in fields(card)}
