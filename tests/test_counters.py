"""The plugin's counters land on the card's art, never over its cost, power or health: each
counter's box (from its PositionX/PositionY) is checked against the face layout's boxes.

Lackey's manual does not say whether a counter is drawn from its position or centred on it,
nor exactly how big it is, so the box taken here covers both readings for a counter a fifth
of the card wide (larger than Lackey's own counter images look on a card)."""

from __future__ import annotations

import pytest

from zcards.game.definition import ZOMBIE_GAME
from zcards.publish.facelayout import STATS, FaceLayout
from zcards.publish.layout import CARD_SIZES, Rect

COUNTER_SHARE = 0.2  # of the card's width, square


def counter_box(x: float, y: float, aspect: float) -> Rect:
    """Where a counter at (x, y) may be drawn, as fractions of the card: from half a counter
    before the position (centred) to a whole counter after it (drawn from its corner)."""
    width, height = COUNTER_SHARE, COUNTER_SHARE * aspect
    return Rect(x - width / 2, y - height / 2, width * 1.5, height * 1.5)


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


def inside(a: Rect, b: Rect) -> bool:
    return b.x <= a.x and a.right <= b.right and b.y <= a.y and a.bottom <= b.bottom


@pytest.mark.parametrize("counter", ZOMBIE_GAME.counters, ids=lambda c: c.colour)
def test_counters_cover_art_never_a_number(counter) -> None:
    layout = FaceLayout.for_card(CARD_SIZES["poker"])  # the plugin's card images
    aspect = layout.card_width_mm / layout.card_height_mm
    box = counter_box(float(counter.position_x), float(counter.position_y), aspect)
    for stat in STATS:
        assert not overlaps(box, layout.fraction(stat)), f"{counter.colour} covers the {stat}"
    assert inside(box, layout.fraction("art"))


def test_counters_do_not_cover_each_other() -> None:
    # Drawn from their corner or centred (not both at once), no two counters meet.
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    height = COUNTER_SHARE * layout.card_width_mm / layout.card_height_mm
    for shift in (0.0, 0.5):
        boxes = [
            Rect(
                float(c.position_x) - COUNTER_SHARE * shift,
                float(c.position_y) - height * shift,
                COUNTER_SHARE,
                height,
            )
            for c in ZOMBIE_GAME.counters
        ]
        for index, box in enumerate(boxes):
            assert not any(overlaps(box, other) for other in boxes[index + 1 :])


def test_the_old_positions_fail_the_check() -> None:
    """Before this layout the counters sat at the card's top corners: the orange one would now
    cover the cost badge, the red one the card's name."""
    layout = FaceLayout.for_card(CARD_SIZES["poker"])
    aspect = layout.card_width_mm / layout.card_height_mm
    assert overlaps(counter_box(0.04, 0.04, aspect), layout.fraction("cost"))
    assert not inside(counter_box(0.75, 0.04, aspect), layout.fraction("art"))
