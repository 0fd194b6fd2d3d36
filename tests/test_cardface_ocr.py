"""Numbers a player reads at a glance: every card of the bundled set, shown 100 pixels wide as
on Lackey's table, has its cost, power and health read back by OCR (tesseract)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from support.faces import badge_figure, read_numbers, thumbnail

from zcards.publish.cardface import render_faces
from zcards.publish.facelayout import STATS, FaceLayout
from zcards.publish.layout import CARD_SIZES
from zcards.resources import BUNDLED_SET
from zcards.store.db import iter_cards, open_db

REQUIRED_SHARE = 0.95


class Readability(UserWarning):
    """The OCR figure, shown in the test run's warnings summary."""


@pytest.mark.slow  # every bundled card rendered and read by OCR
def test_cost_power_and_health_read_back_at_lackey_table_size(
    tesseract: str, sample_db_path: Path, tmp_path: Path, record_property
) -> None:
    cards = list(iter_cards(open_db(sample_db_path)))
    assert len(cards) == 100 and all(card.set_name == "alpha" for card in cards), BUNDLED_SET
    report = render_faces(cards, tmp_path / "faces", dpi=150, cache_dir=None)  # the plugin's
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    figures, expected = [], []
    for card, path in zip(cards, report.paths, strict=True):
        small = thumbnail(path)
        assert small.width == 100
        for stat in STATS:
            value = getattr(card, stat)
            if value is not None:
                figures.append(badge_figure(small, layout.fraction(stat)))
                expected.append(str(value))
    read = read_numbers(tesseract, figures, tmp_path / "ocr")
    correct = sum(got == want for got, want in zip(read, expected, strict=True))
    share = correct / len(expected)
    record_property("ocr_numbers_read", f"{correct}/{len(expected)}")
    warnings.warn(
        Readability(
            f"cost, power and health at 100 px wide: {correct} of {len(expected)} numbers "
            f"read by OCR ({share:.1%})"
        ),
        stacklevel=1,
    )
    assert len(expected) == 166  # 52 costs, 81 powers, 33 healths in the bundled set
    assert share >= REQUIRED_SHARE, [(w, g) for g, w in zip(read, expected, strict=True) if g != w]
