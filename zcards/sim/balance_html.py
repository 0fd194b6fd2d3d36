"""The balance report as one self-contained HTML page: the matchup grid, per-card win-rate
bars with their intervals, and each change's matchups before and after, drawn as inline SVG
from ``templates/balance.html.j2`` (autoescaped; no script, no network)."""

from __future__ import annotations

from zcards.resources import jinja_env
from zcards.sim.balance_report import BalanceReport, ranked_ablations
from zcards.sim.balance_text import counted, paired, reasons, short, used

CARD_BARS = 40  # the outliers drawn as bars; the JSON has every card


def render_balance(report: BalanceReport) -> str:
    base = report.variants[0]
    template = jinja_env().get_template("balance.html.j2")
    return template.render(
        report=report,
        plan=report.plan,
        base=base,
        cards=base.cards[:CARD_BARS],
        short=short,
        counted=counted,
        used=used,
        paired=paired,
        reasons=reasons,
        colour=colour,
        ranked=ranked_ablations(report) if report.ablation else [],
    )


def colour(rate: float) -> str:
    """A cell's background: red for a deck that loses, white at 50%, green for one that wins."""
    hue = 0 if rate < 0.5 else 120
    lightness = 100 - 50 * abs(rate - 0.5)
    return f"hsl({hue}, 60%, {lightness:.0f}%)"
