"""The balance report as text for a terminal: what the players do, the matchup grid, the
turn order, per-card figures (outliers first) and what each change moved."""

from __future__ import annotations

from zcards.sim.balance import MIN_OUTLIER_GAMES, CardFigure, Endings, Figures, Moves, RateMove
from zcards.sim.balance_report import BalanceReport, ranked_ablations
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
        "how games ended, the game as written (per matchup, from the first deck's side):",
        *_endings(base),
        "",
        *_turn_order(base),
        "",
        "cards, per deck (its player-games; win rates when drawn, not drawn, in the opening"
        " hand, played, each with its number of player-games; 'vs deck': win rate when drawn"
        " minus the deck's; 'gap': drawn minus not drawn; outliers first: the gap furthest"
        f" from chance, among cards seen drawn and not drawn in {MIN_OUTLIER_GAMES}+"
        " player-games each):",
        *_cards(base, all_cards),
    ]
    never = base.never_played()
    lines.append("never played: " + (", ".join(never) if never else "none"))
    unused = base.never_used()
    lines.append(
        "played but its text never used by the players: "
        + (", ".join(unused) if unused else "none")
    )
    lines += [f"note: {note}" for note in report.notes]
    if report.ablation is not None:
        lines += ["", *_ablations(report)]
    else:
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


def reasons(counts: dict[str, int]) -> str:
    """``12 (empty deck 10, no survivors 2)``: games by how they ended."""
    parts = ", ".join(f"{reason} {n}" for reason, n in counts.items() if n)
    return f"{sum(counts.values())}" + (f" ({parts})" if parts else "")


def ended(found: Endings) -> str:
    """``lost 30 (empty deck 28, no survivors 2), beat 10 (no survivors 10), turn cap 0``."""
    return f"lost {reasons(found.lost)}, beat {reasons(found.beat)}, turn cap {found.turn_caps}"


def _endings(found: Figures) -> list[str]:
    lines = []
    for m in found.matchups:
        if m.deck < m.opponent:
            lines.append(
                f"  {m.deck} vs {m.opponent}: {ended(m.endings)}; average {m.average_turns:.1f}"
                " turns"
            )
            lines += [
                f"    {m.deck} in seat {seat}: {ended(e)}"
                for seat, e in enumerate(m.seat_endings, start=1)
            ]
    return lines


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


def counted(found: Rate) -> str:
    """``54.1% [50.2, 58.0] n=120``: a rate, its interval and its number of games."""
    return f"{short(found)} n={found.games}" if found.games else "- n=0"


def used(card: CardFigure) -> str:
    """The "used" cell: games and times its text was used, or why it never was."""
    if card.uses:
        return f"{card.used_games}/{card.uses}"
    if card.use in ("choice", "trigger") and not card.played.games:
        return "never played"
    return {
        "choice": "never used by the players",
        "trigger": "never triggered",
        "always": "always on",
    }.get(card.use, "no text")


def _cards(found: Figures, all_cards: bool) -> list[str]:
    shown = found.cards if all_cards else found.cards[:CARD_LINES]
    width = max((len(card.name) for card in shown), default=4)
    decks = max((len(card.deck) for card in shown), default=4)
    header = (
        f"  {'card'.ljust(width)}  {'deck'.ljust(decks)}  {'drawn':<28} {'vs deck':>7}"
        f" {'not drawn':<28} {'gap':>6}  {'opening hand':<28} {'played':<28} used"
    )
    rows = [header]
    for card in shown:
        few = "" if card.enough_games else "  (few games)"
        rows.append(
            f"  {card.name.ljust(width)}  {card.deck.ljust(decks)}  {counted(card.drawn):<28}"
            f" {100 * card.relative:>+6.1f} {counted(card.not_drawn):<28}"
            f" {100 * card.gap:>+5.1f}  {counted(card.opening):<28}"
            f" {counted(card.played):<28} {used(card)}{few}"
        )
    if not all_cards and len(found.cards) > CARD_LINES:
        rows.append(f"  ... {len(found.cards) - CARD_LINES} more (--all-cards, --format json)")
    rows.append("  (used: games in which its text was used / times used)")
    return rows


def _move(move: RateMove) -> str:
    return f"  {move.what}: {moved(move)}"


def moved(move: RateMove) -> str:
    """``54.1% [..] -> 60.0% [..] (+5.9 points [+1.2, +10.4], significant)``."""
    low, high = move.interval
    mark = "significant" if move.significant else "within chance"
    return (
        f"{short(move.before)} -> {short(move.after)}"
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
    lines = [f"change {found.variant!r} (same seeds as the cards as printed):", paired(found)]
    if found.changes_nothing:
        return lines
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


def paired(found: Moves) -> str:
    if found.changes_nothing:
        return (
            f"  no game changed: all {found.paired} paired games had the same winner, length,"
            " ending and cards drawn, played and used as with the cards as printed"
        )
    return (
        f"  the winner changed in {found.winner_changed} of {found.paired} paired games"
        f" (its length, ending or cards' figures in {found.game_changed})"
    )


def _ablations(report: BalanceReport) -> list[str]:
    lines = [
        f"ablations ({report.ablation}), ranked by how far the most moved deck's win rate"
        " moved (same seeds as the cards as printed; 95% Newcombe interval):"
    ]
    for found, move in ranked_ablations(report):
        if found.changes_nothing:
            lines.append(f"  {found.variant}: changes nothing ({found.paired} paired games)")
            continue
        winners = (
            f"changes no winner in {found.paired} paired games (other figures moved in"
            f" {found.game_changed})"
            if not found.winner_changed
            else f"winner changed in {found.winner_changed} of {found.paired}"
        )
        lines.append(f"  {found.variant}: {move.what} {moved(move)}; {winners}")
    return lines
