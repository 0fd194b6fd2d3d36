"""PDF pages to JPEG files, written atomically: the last step of every rendered card image.

Also the process pool that renders big batches of card images on every core.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from pathlib import Path
from typing import TypeVar

import pypdfium2

from zcards.errors import ZcardsError
from zcards.files import atomic_write

JPEG_QUALITY = 90


@cache
def rasterise(pdf: bytes, dpi: int) -> list:
    """Every page of a PDF as an RGB PIL image at ``dpi``."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        images = []
        for index in range(len(document)):
            page = document[index]
            # pdfium rounds the bitmap up; crop to the nearest whole pixel of the real size.
            width, height = (round(side / 72 * dpi) for side in page.get_size())
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            images.append(image.crop((0, 0, width, height)))
        return images
    finally:
        document.close()


def save_jpeg(image, path: Path, dpi: int) -> None:
    """Write atomically: a reader never sees half an image."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, dpi=(dpi, dpi))
    atomic_write(path, buffer.getvalue())


Task = TypeVar("Task")
Result = TypeVar("Result")


def cpu_count() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def map_in_processes(
    function: Callable[[Task], Result], tasks: Sequence[Task], workers: int
) -> Iterator[Result]:
    """``function`` over ``tasks`` in up to ``workers`` processes, yielding results in task order.

    Workers are spawned, not forked: a fresh interpreter shares no renderer, font or lock state
    with the caller, whatever threads the caller runs. An exception from a task is raised here
    as itself (a :class:`ZcardsError` stays one), after cancelling the tasks not yet started.
    """
    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context)
    try:
        futures: list[Future[Result]] = [executor.submit(function, task) for task in tasks]
        for future in futures:
            yield future.result()
    except BrokenProcessPool as error:
        raise ZcardsError(f"a card rendering process stopped unexpectedly ({error})") from error
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
