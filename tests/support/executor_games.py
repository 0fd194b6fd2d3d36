"""Simulated games for the executor's cross-checks: every starter pairing, seat and strategy
mix, and decks that bring the card text the starters lack (Carrion Crows, Ex-Con Dwayne, Chef
Antoine), each game played with a checker that asks ``legal`` before every action."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from zcards.cards.model import Card
from zcards.game.actions import Action
from zcards.game.cards import CardIndex
from zcards.game.executor import legal
from zcards.game.ledger import Game
from zcards.resources import starter_decks
from zcards.sim.batch import game_seed
from zcards.sim.decklists import load_decks, read_decks
from zcards.sim.game import DeckList, GameResult, play_game

MUTANTS = {  # a clause off in the move generator -> (refused action, rule, audit kind or None)
    "pay": ("Play", "R7.3", "card-play"),
    "upgrade": ("Upgrade", "R8.1", "zombie-upgrade"),
    "to-combat": ("ToCombat", "R9.1", None),
    "fast": ("Ready", "R4.1", None),
    "ability": ("UseAbility", "R1.6", None),
    "scavenger": ("Scavenge", "R12.1", "ability-use"),
    "medic": ("Medic", "R12.1", "ability-use"),
    "ability-cost": ("UseAbility", "R16.1", None),
    "no-scavenging": ("Scavenge", "R16.1", None),
    "no-medic-heal": ("Medic", "R16.1", "ability-use"),
    "fight-text": ("AssignFights", "R16.1", None),
}
TEXT_ONLY = {"ability-cost", "no-scavenging", "no-medic-heal"}  # text decks
STRATEGIES = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))
TEXT_CARDS = {  # card -> copies swapped in for the first cards of the deck's own list
    "Carrion Crows": 4,
    "Ex-Con Dwayne": 3,
    "Chef Antoine": 3,
    "Paramedic Joe": 2,
    "Looter Lisa": 3,
    "Firecrackers": 2,
    "Hungry Masses": 2,
    "Survivalist Kim": 2,
    "Familiar Face": 2,
}


class Refused(Exception):
    """A game stopped at its first refused action."""


@dataclass
class Refusals:
    """The actions ``legal`` refused, by (action type, rule), with one example each;
    ``stop``: stop the game at the first one (raises :class:`Refused`)."""

    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    examples: dict[tuple[str, str], str] = field(default_factory=dict)
    actions: int = 0
    stop: bool = False

    def check(self, game: Game, action: Action) -> None:
        self.actions += 1
        verdict = legal(game, action)
        if verdict.allowed is not True:
            key = (type(action).__name__, verdict.rule)
            self.counts[key] = self.counts.get(key, 0) + 1
            self.examples.setdefault(key, f"{action} ({verdict.reason})")
            if self.stop:
                raise Refused(key)


def text_decks(bundled: list[Card]) -> list[DeckList]:
    """Each starter deck with the card text the starters lack swapped in."""
    by_name = {card.name: card for card in bundled}
    extra = [by_name[name] for name, copies in TEXT_CARDS.items() for _ in range(copies)]
    decks = []
    for deck in read_decks(starter_decks()):
        kept = list(deck.cards)
        cards = tuple(extra + kept[len(extra) :])
        decks.append(DeckList(deck.name + "+text", cards))
    return decks


def pairings(bundled: list[Card], *, text_only: bool = False) -> list[list[DeckList]]:
    """Every pairing of two different starters, then of two text decks (only those)."""
    starters = [load_decks(list(pair)) for pair in itertools.combinations(starter_decks(), 2)]
    texts = text_decks(bundled)
    pairs = [list(pair) for pair in itertools.combinations(texts, 2)]
    return pairs if text_only else [*starters, *pairs]


def games(
    bundled: list[Card],
    per_mix: int,
    seed: int,
    refusals: Refusals,
    *,
    without: Collection[str] = (),
    text_only: bool = False,
) -> Iterator[GameResult]:
    """``per_mix`` games of every pairing and strategy mix, each deck in each seat in turn."""
    for decks in pairings(bundled, text_only=text_only):
        cards = CardIndex(card for deck in decks for card in deck.cards)
        for strategies in STRATEGIES:
            for index in range(per_mix):
                order = slice(None) if index % 2 == 0 else slice(None, None, -1)
                yield play_game(
                    decks[order],
                    game_seed(seed, index, decks[0].name, *strategies),
                    strategies=list(strategies)[order],
                    cards=cards,
                    checker=refusals.check,
                    without=without,
                )


def seated_games(players: int, count: int, seed: int, refusals: Refusals) -> Iterator[GameResult]:
    """``count`` games of ``players`` players (the starter decks in turn, greedy and random
    players alternating), each deck one seat on per game."""
    decks = (read_decks(starter_decks()) * 2)[:players]
    strategies = ["greedy", "random"] * 2
    cards = CardIndex(card for deck in decks for card in deck.cards)
    for index in range(count):
        turn = index % players
        yield play_game(
            [*decks[turn:], *decks[:turn]],
            game_seed(seed, index, str(players)),
            strategies=strategies[:players],
            cards=cards,
            checker=refusals.check,
        )
