"""Bounded rendering: proxy sheets laid out several at a time (in worker processes for big
jobs), joined into one PDF as they come; card faces hold no images once written."""

from __future__ import annotations

import dataclasses
import gc
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from zcards.cards.model import Card
from zcards.publish import sheets
from zcards.publish.cardface import render_faces
from zcards.publish.proxies import write_proxies
from zcards.publish.sheets import MAX_SHEETS_PER_RUN


def _pages(pdf: Path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(pdf).pages]


@pytest.mark.slow
def test_sheets_are_laid_out_several_at_a_time_in_one_process_or_several(
    sample_cards: list[Card], tmp_path: Path, laid_out: list[int]
) -> None:
    """200 faces on 23 sheets: 2 WeasyPrint runs of 12 and 11 sheets (before: 23, one per
    sheet); worker processes write the very same sheets, overflow report and title."""
    wordy = " ".join(f"Clause {i}: this card says far too much." for i in range(70))
    cards = [
        *sample_cards[:99],
        dataclasses.replace(sample_cards[0], name="Rambling Corpse", text=wordy),
    ]
    serial = write_proxies(cards, tmp_path / "1.pdf", copies=2, workers=1, cache_dir=None)
    assert serial.pages == 23 == len(_pages(tmp_path / "1.pdf"))
    # The wordy face (second run) is tried alone at each smaller size, then its run again.
    assert MAX_SHEETS_PER_RUN < 23 and laid_out == [12, 11, 1, 1, 1, 1, 11]
    parallel = write_proxies(cards, tmp_path / "2.pdf", copies=2, workers=2, cache_dir=None)
    assert parallel.overflow == serial.overflow == ["Rambling Corpse"]
    assert _pages(tmp_path / "2.pdf") == _pages(tmp_path / "1.pdf")
    assert pypdf.PdfReader(tmp_path / "2.pdf").metadata.title == sheets.TITLE


def test_a_shrunk_face_is_fitted_alone_not_with_its_sheets(
    sample_cards: list[Card], tmp_path: Path, laid_out: list[int]
) -> None:
    """One long text among 10 cards: the sheets are laid out twice, the long face alone is
    tried at each smaller size (not both sheets per step)."""
    text = " ".join(f"Sentence {i} of rules text that keeps going." for i in range(10))
    cards = [
        *sample_cards[:9],
        dataclasses.replace(sample_cards[0], name="Long Winded", text=text),
    ]
    report = write_proxies(cards, tmp_path / "p.pdf", workers=1, cache_dir=None)
    assert report.overflow == []
    assert laid_out[0] == laid_out[-1] == 2 and set(laid_out[1:-1]) == {1}


def test_card_faces_keep_no_images_once_written(sample_cards: list[Card], tmp_path: Path) -> None:
    """The raster cache used to keep every face (111 MiB after 200 faces per worker). Images
    that were there before (Pillow's plugins keep a few, once loaded) do not count."""
    gc.collect()
    before = {id(o) for o in gc.get_objects() if isinstance(o, Image.Image)}
    render_faces(sample_cards[:10], tmp_path, dpi=40, workers=1, cache_dir=None)
    gc.collect()
    kept = [o for o in gc.get_objects() if isinstance(o, Image.Image) and id(o) not in before]
    assert kept == []
