"""Card faces rendered in worker processes: the same bytes, report and errors as in-process."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from zcards.cards.model import Card
from zcards.errors import ZcardsError
from zcards.publish.cardface import render_faces

DPI = 40


@pytest.fixture(scope="module")
def batch(sample_cards: list[Card]) -> list[Card]:
    """Seven cards, two of them too wordy to fit and two sharing one ImageFile."""
    cards = sample_cards[:5]
    essay = " ".join(f"Sentence {i} of rules text that keeps going." for i in range(60))
    cards[1] = dataclasses.replace(cards[1], name="First Essay", text=essay)
    cards[4] = dataclasses.replace(cards[4], name="Second Essay", text=essay)
    shared = dataclasses.replace(cards[0], name="Same Picture")
    return [*cards, shared, dataclasses.replace(cards[2], image_file="a/b")]


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.mark.slow
def test_parallel_render_equals_serial_render_byte_for_byte(
    batch: list[Card], tmp_path: Path
) -> None:
    steps: dict[int, list[int]] = {1: [], 2: []}
    reports = {
        workers: render_faces(
            batch,
            tmp_path / str(workers),
            dpi=DPI,
            workers=workers,
            progress=steps[workers].append,
            cache_dir=None,
        )
        for workers in (1, 2)
    }
    serial, parallel = reports[1], reports[2]
    assert [path.name for path in parallel.paths] == [path.name for path in serial.paths]
    assert parallel.overflow == serial.overflow == ["First Essay", "Second Essay"]
    assert parallel.renamed == serial.renamed and len(serial.renamed) == 1
    assert len(_files(tmp_path / "1")) == 6
    assert _files(tmp_path / "2") == _files(tmp_path / "1")
    # Six faces: one in-process batch, or two chunks of three in two workers.
    assert steps == {1: [6], 2: [3, 3]}


@pytest.mark.slow  # two more spawned workers, each importing the renderer afresh
def test_a_failure_in_a_worker_is_the_same_zcards_error(batch: list[Card], tmp_path: Path) -> None:
    errors = {}
    for workers in (1, 2):
        out = tmp_path / str(workers)
        # A folder where the last face's image goes: the write fails in the second chunk.
        (out / "a_b.jpg").mkdir(parents=True)
        with pytest.raises(ZcardsError) as caught:
            render_faces(batch, out, dpi=DPI, workers=workers, cache_dir=None)
        errors[workers] = caught.value
    assert type(errors[2]) is ZcardsError
    assert errors[2].message == errors[1].message
    assert errors[1].message.startswith("cannot write the card image: it is a folder, not a")
    for workers, error in errors.items():
        assert error.location.file == str(tmp_path / str(workers) / "a_b.jpg")
