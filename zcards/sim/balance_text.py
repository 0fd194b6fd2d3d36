"""The balance report as text for a terminal: what the players do, the matchup grid, the
turn order, per-card figures (outliers first) and what each change moved."""

from __future__ import annotations

from zcards.sim.balance import Figures, Moves, RateMove
from zcards.sim.balance_report import BalanceReport
from zcards.sim.report import Rate

CARD_LINES = 15  # the outliers; --format json has every card
CARD_MOVES = 8  # significant card moves shown per change


def format_balance(report: BalanceReport, all_cards: bool = False) -> str:
    plan, base = report.plan, report.variants[0]
    lines = [
        f"{plan.total()} games: {len(base.decks)} decks, every pair in both seats,"
        f" {plan.games} games each under bidding and again with equal food"
        f" (seed {plan.seed}, {len(report.variants)} version(s) of the cards)",
        f"players ({plan.strategy}, both):",
        *(f"  {aspect}: {what}" for aspect, what in report.policy.items()),
        "",
        "matchups, the game as written (row deck's win rate against the column deck over"
        " both seats; 95% Wilson interval):",
        *_grid(base),
        "",
        *_turn_order(base),
        "",
        "cards, per deck (its player-games; win rates when drawn, not drawn, in the opening"
        " hand, played; outliers first: the gap between drawn and not drawn furthest from"
        " chance):",
        *_cards(base, all_cards),
    ]
    never = base.never_played()
    lines.append("never played: " + (", ".join(never) if never else "none"))
    for found in report.moves:
        lines += ["", *_moves(found)]
    return "\n".join(lines) + "\n"


def short(found: Rate) -> str:
    """``54.1% [50.2, 58.0]``: a rate and its interval in percent (``-`` without games)."""
    if not found.games:
        return "-"
    return f"{100 * found.rate:.1f}% [{100 * found.low:.1f}, {100 * found.high:.1f}]"


def _grid(found: Figures) -> list[str]:
    width = max(len(deck) for deck in found.decks)
    cell = max(22, width + 2)
    rows = ["  " + " " * width + "".join(deck.rjust(cell) for deck in found.decks)]
    for deck in found.decks:
        cells = [
            "-" if deck == opponent else short(found.matchup(deck, opponent).win)
            for opponent in found.decks
        ]
        rows.append(f"  {deck.ljust(width)}" + "".join(c.rjust(cell) for c in cells))
    rows.append(
        "  overall: " + ", ".join(f"{deck} {short(r)}" for deck, r in found.by_deck.items())
    )
    return rows


def _turn_order(found: Figures) -> list[str]:
    bid, equal = found.bidding, found.equal_food
    return [
        f"turn order with the opening food held equal (both {equal.first_food:.0f}, the first"
        f" seat goes first): the first player won {short(equal.first)} of {equal.first.games}",
        *(
            f"  {deck}: going first {short(first)}, going second {short(second)}"
            for deck, (first, second) in found.first_by_deck.items()
        ),
        f"under bidding the first player won {short(bid.first)}, having started with"
        f" {bid.first_food:.1f} food on average against {bid.second_food:.1f}: {bid.note}",
    ]


def _cards(found: Figures, all_cards: bool) -> list[str]:
    shown = found.cards if all_cards else found.cards[:CARD_LINES]
    width = max((len(card.name) for card in shown), default=4)
    decks = max((len(card.deck) for card in shown), default=4)
    header = (
        f"  {'card'.ljust(width)}  {'deck'.ljust(decks)}  games  {'drawn':<22}"
        f" {'not drawn':<22} {'gap':>6}"
        f"  {'opening hand':<22} {'played':<22} used"
    )
    rows = [header]
    for card in shown:
        rows.append(
            f"  {card.name.ljust(width)}  {card.deck.ljust(decks)}  {card.held.games:>5}"
            f"  {short(card.drawn):<22}"
            f" {short(card.not_drawn):<22} {100 * card.gap:>+5.1f}  {short(card.opening):<22}"
            f" {short(card.played):<22} {card.used_games}/{card.uses}"
        )
    if not all_cards and len(found.cards) > CARD_LINES:
        rows.append(f"  ... {len(found.cards) - CARD_LINES} more (--all-cards, --format json)")
    rows.append("  (used: games in which its text was used / times used)")
    return rows


def _move(move: RateMove) -> str:
    low, high = move.interval
    mark = "significant" if move.significant else "within chance"
    return (
        f"  {move.what}: {short(move.before)} -> {short(move.after)}"
        f" ({100 * move.change:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}], {mark})"
    )


def _card_moves(title: str, found: list[RateMove]) -> list[str]:
    """The significant moves (at most CARD_MOVES), else the largest three."""
    significant = [m for m in found if m.significant]
    shown = significant[:CARD_MOVES] or found[:3]
    lines = [f"  {title}{'' if significant else ' (none significant; the largest)'}:"]
    lines += [" " + _move(m) for m in shown]
    if len(significant) > len(shown):
        lines.append(f"    ... {len(significant) - len(shown)} more significant (--format json)")
    return lines


def _moves(found: Moves) -> list[str]:
    significant = found.significant()
    lines = [f"change {found.variant!r} (same seeds as the cards as printed):"]
    lines += ["  matchups:", *(" " + _move(m) for m in found.matchups)]
    lines += ["  decks:", *(" " + _move(m) for m in found.decks)]
    lines += ["  turn order:", " " + _move(found.turn_order)]
    lines += _card_moves("cards, how often played", found.played)
    lines += _card_moves("cards, win rate when drawn (moves with the deck's)", found.cards)
    lines.append(
        f"  {len(significant)} significant move(s)"
        if significant
        else "  no significant move: within chance at this number of games"
    )
    return lines
