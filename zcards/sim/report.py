"""The balance report of a batch of simulated games: lengths, endings and win rates.

Win rates come with a 95% Wilson score interval, which stays inside [0, 1] and behaves at
small counts and extreme rates, unlike the normal approximation.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from zcards.game.cards import CardIndex
from zcards.sim.game import DeckList, GameResult

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Rate:
    """``wins`` out of ``games`` with its 95% confidence interval."""

    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ((0, 1) when there are no games)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: int, games: int) -> Rate:
    return Rate(wins, games, *wilson(wins, games))


def difference(after: Rate, before: Rate) -> tuple[float, float]:
    """The 95% interval of ``after.rate - before.rate`` from the two Wilson intervals
    (Newcombe's hybrid score method, his method 10: it stays within [-1, 1] and keeps the
    Wilson interval's good behaviour at small counts and extreme rates)."""
    d = after.rate - before.rate
    return (
        d - math.hypot(after.rate - after.low, before.high - before.rate),
        d + math.hypot(after.high - after.rate, before.rate - before.low),
    )


@dataclass(frozen=True)
class Report:
    """Aggregates over games; a "win" is not losing (the one player who remained)."""

    games: int
    average_turns: float
    min_turns: int
    max_turns: int
    endings: dict[str, int]
    by_deck: dict[str, Rate]
    by_seat_order: dict[str, Rate]
    strategies: dict[str, int]
    never_used: list[str] = field(default_factory=list)  # cards whose abilities went unused

    def to_json(self) -> dict:
        data = asdict(self)
        for group in ("by_deck", "by_seat_order"):
            for name, entry in getattr(self, group).items():
                data[group][name]["rate"] = entry.rate
        return data


def with_abilities(decks: Sequence[DeckList]) -> frozenset[str]:
    """The names of the decks' cards whose text gives their player something to use."""
    index = CardIndex(card for deck in decks for card in deck.cards)
    return frozenset(info.name for info in index.infos() if info.has_abilities)


def never_used(results: Sequence[GameResult], abilities: frozenset[str]) -> list[str]:
    """The cards of ``abilities`` whose text no player used in any of the games (a card the
    simulator cannot play, or never chose to)."""
    used = {name for result in results for figures in result.cards for name, _ in figures.used}
    return sorted(abilities - used)


def summarise_games(
    results: Sequence[GameResult], abilities: frozenset[str] = frozenset()
) -> Report:
    """Count how the games went, per deck and for the first and second player; of the cards
    in ``abilities``, those whose text was never used."""
    deck_games: Counter[str] = Counter()
    deck_wins: Counter[str] = Counter()
    order_wins: Counter[str] = Counter()
    for result in results:
        for player in result.players:
            deck_games[result.deck_of(player)] += 1
        if result.survivor is not None:
            deck_wins[result.deck_of(result.survivor)] += 1
            order = "first player" if result.survivor == result.first_player else "second player"
            order_wins[order] += 1
    turns = [result.turns for result in results]
    return Report(
        games=len(results),
        average_turns=sum(turns) / len(turns) if turns else 0.0,
        min_turns=min(turns, default=0),
        max_turns=max(turns, default=0),
        endings=dict(Counter(result.ending for result in results).most_common()),
        by_deck={deck: rate(deck_wins[deck], deck_games[deck]) for deck in sorted(deck_games)},
        by_seat_order={
            order: rate(order_wins[order], len(results))
            for order in ("first player", "second player")
        },
        strategies=dict(Counter(" vs ".join(result.strategies) for result in results)),
        never_used=never_used(results, abilities),
    )


def format_report(report: Report) -> str:
    """The report as aligned text for a terminal."""
    lines = [
        f"games: {report.games}",
        f"average length: {report.average_turns:.1f} turns"
        f" (shortest {report.min_turns}, longest {report.max_turns})",
        "ended by: "
        + ", ".join(
            f"{ending} {count} ({_percent(count / report.games)})"
            for ending, count in report.endings.items()
        ),
        "players: " + ", ".join(f"{kinds} ({count})" for kinds, count in report.strategies.items()),
        "win rate by deck (did not lose; 95% Wilson interval):",
        *_rate_lines(report.by_deck),
        "win rate by turn order (the bid winner chose the first player, who may have started"
        " with less food; 'zcards balance' measures the turn order with equal food):",
        *_rate_lines(report.by_seat_order),
        "abilities never used: " + (", ".join(report.never_used) or "none"),
    ]
    return "\n".join(lines) + "\n"


def _rate_lines(rates: dict[str, Rate]) -> list[str]:
    width = max((len(name) for name in rates), default=0)
    return [
        f"  {name.ljust(width)}  {entry.wins:>5}/{entry.games:<5} {_percent(entry.rate):>6}"
        f"  [{_percent(entry.low)}, {_percent(entry.high)}]"
        for name, entry in rates.items()
    ]


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"
