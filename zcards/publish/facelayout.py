"""Where everything sits on a card face, in millimetres: the one geometry the face template,
the OCR test and the plugin's counter positions all read.

A face is laid out like a real card: a coloured frame, the name, an art box, the type line, the
text box and a band for the stats. The three numbers a player looks for on the table -- cost
top left, power bottom left, health bottom right -- are big round badges over the frame, so a
card shown 100 pixels wide (Lackey's table) still shows them. Positions are computed here
rather than left to CSS flex layout, so WeasyPrint and a browser put every box in the same place.
Sizes are for a poker card (63 mm wide); other card sizes scale with their width.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from zcards.publish.layout import CardSize, Rect

BASE_WIDTH_MM = 63.0
BASE_FONT_PT = 7.0
FRAME_MM = 2.4  # the coloured frame around the panel
BADGE_MM = 14.5  # diameter of the cost, power and health badges
BADGE_INSET_MM = 0.9  # from the card's edge (its trim) to a badge
TITLE_MM = 7.4
TYPELINE_MM = 4.3
BADGE_GAP_MM = 0.6  # between the text box and the stats badges
ART_SHARE = 0.6  # of the height left for art and text together
STATS = ("cost", "power", "health")


@dataclass(frozen=True)
class FaceLayout:
    """One face's boxes for a card size. ``bleed_mm`` widens the page (and the frame colour)
    on every side; the boxes stay where they are on the card, measured from its trim."""

    card_width_mm: float
    card_height_mm: float
    bleed_mm: float = 0.0

    @classmethod
    def for_card(cls, card: CardSize, bleed_mm: float = 0.0) -> FaceLayout:
        return cls(card.width_mm, card.height_mm, bleed_mm)

    @property
    def scale(self) -> float:
        return self.card_width_mm / BASE_WIDTH_MM

    @property
    def width_mm(self) -> float:
        """The page: the card and its bleed."""
        return round(self.card_width_mm + 2 * self.bleed_mm, 4)

    @property
    def height_mm(self) -> float:
        return round(self.card_height_mm + 2 * self.bleed_mm, 4)

    @property
    def font_pt(self) -> float:
        return round(BASE_FONT_PT * self.scale, 3)

    @cached_property
    def boxes(self) -> dict[str, Rect]:
        """Every box of the face, measured from the card's top left corner (its trim)."""
        s = self.scale
        frame, badge, inset = FRAME_MM * s, BADGE_MM * s, BADGE_INSET_MM * s
        panel = Rect(frame, frame, self.card_width_mm - 2 * frame, self.card_height_mm - 2 * frame)
        low = self.card_height_mm - inset - badge
        text_bottom = low - BADGE_GAP_MM * s
        title = Rect(panel.x, panel.y, panel.width, TITLE_MM * s)
        free = text_bottom - title.bottom - TYPELINE_MM * s
        art = Rect(panel.x, title.bottom, panel.width, free * ART_SHARE)
        typeline = Rect(panel.x, art.bottom, panel.width, TYPELINE_MM * s)
        text = Rect(panel.x, typeline.bottom, panel.width, text_bottom - typeline.bottom)
        side = inset + badge  # the stats band runs between the power and health badges
        foot = Rect(side, text_bottom, self.card_width_mm - 2 * side, panel.bottom - text_bottom)
        boxes = {
            "panel": panel,
            "title": title,
            "art": art,
            "typeline": typeline,
            "text": text,
            "foot": foot,
            "cost": Rect(inset, inset, badge, badge),
            "power": Rect(inset, low, badge, badge),
            "health": Rect(self.card_width_mm - inset - badge, low, badge, badge),
        }
        return {name: _rounded(rect) for name, rect in boxes.items()}

    @property
    def name_inset_mm(self) -> float:
        """How far a card's name starts into the title bar when a cost badge sits there."""
        cost, title = self.boxes["cost"], self.boxes["title"]
        return round(cost.right - title.x + BADGE_GAP_MM * self.scale, 3)

    @cached_property
    def page_boxes(self) -> dict[str, Rect]:
        """The boxes where the template puts them: on the page, which starts at the bleed."""
        b = self.bleed_mm
        return {
            name: Rect(round(box.x + b, 4), round(box.y + b, 4), box.width, box.height)
            for name, box in self.boxes.items()
        }

    def fraction(self, name: str) -> Rect:
        """A box as fractions of the card's width and height (how Lackey places counters)."""
        box = self.boxes[name]
        w, h = self.card_width_mm, self.card_height_mm
        return Rect(box.x / w, box.y / h, box.width / w, box.height / h)


def _rounded(rect: Rect) -> Rect:
    return Rect(*(round(value, 3) for value in (rect.x, rect.y, rect.width, rect.height)))
