"""Bids typed in free chat (R2.1, R2.2): any number a player types while bids are made is a
possible bid of his, a number above 10 there is no bid, and the Food lines decide the rest."""

from __future__ import annotations

from zcards.rules.bids import Bids, typed_numbers


def chat(*lines: tuple[str, str]) -> Bids:
    bids = Bids()
    for number, (player, text) in enumerate(lines, start=1):
        bids.read(player, text, number, window=True)
    return bids


def test_numbers_in_free_chat_are_read_in_digits_only():
    assert typed_numbers("8 too, I'll start") == [8]
    assert typed_numbers("11 lol") == [11]
    assert typed_numbers("hf! quick one before bed, 2nd game, 8.5") == []


def test_a_tie_in_free_chat_goes_to_the_earlier_bid_and_a_joke_above_ten_is_no_bid():
    bids = chat(("Bob", "11 lol"), ("Bob", "ok 8"), ("Alice", "8 too, I'll start"))
    assert bids.wrong_food({"Alice": 10, "Bob": 8}) == []
    assert bids.wrong_food({"Alice": 8, "Bob": 10}) != []


def test_the_food_lines_decide_what_chat_does_not():
    bids = chat(("Bob", "gl"), ("Alice", "no seriously, 9"), ("Alice", "or 7"))
    assert bids.wrong_food({"Alice": 7, "Bob": 10}) == []
    assert bids.wrong_food({"Alice": 10, "Bob": 4}) == []
    assert bids.wrong_food({"Alice": 5, "Bob": 10}) == ["Alice"]


def test_a_stated_bid_is_certain_and_its_range_is_checked_by_the_caller():
    bids = Bids()
    stated = bids.read("Alice", "bid 12", 1, window=True)
    assert stated is not None and stated.value == 12
    assert bids.read("Bob", "12 lol", 2, window=True) is None
    assert bids.options("Bob") == []
