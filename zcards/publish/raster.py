"""PDF pages to JPEG images: the last step of every rendered card image.

Also the process pool that renders big batches of card images on every core. Its workers die
with their parent however the parent ends (SIGKILL included): on Linux the kernel is asked to
kill them (``PR_SET_PDEATHSIG``); everywhere a watchdog thread waits on multiprocessing's
parent sentinel, a pipe that reads end-of-file once the parent is gone.
"""

from __future__ import annotations

import ctypes
import io
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from zcards.errors import ZcardsError

if TYPE_CHECKING:  # pdfium and the process pool are imported where a face is drawn: a
    # rebuild whose faces all come from the render cache needs neither
    from concurrent.futures import ProcessPoolExecutor

JPEG_QUALITY = 90
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def rasterise(pdf: bytes, dpi: int) -> Iterator:
    """Every page of a PDF as an RGB PIL image at ``dpi``, one at a time (a page's bitmap is
    ~0.6 MB at 150 dpi: holding a whole batch would cost a hundred times that)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        for index in range(len(document)):
            page = document[index]
            # pdfium rounds the bitmap up; crop to the nearest whole pixel of the real size.
            width, height = (round(side / 72 * dpi) for side in page.get_size())
            image = page.render(scale=dpi / 72).to_pil().convert("RGB")
            page.close()
            yield image.crop((0, 0, width, height))
    finally:
        document.close()


def encode_jpeg(image, dpi: int) -> bytes:
    """A card image's JPEG bytes (the same pixels give the same bytes: no timestamps)."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, dpi=(dpi, dpi))
    return buffer.getvalue()


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
    as itself (a :class:`ZcardsError` stays one). Any early end (an error, Ctrl-C, the caller
    closing the iterator) stops the workers at once instead of letting them finish their tasks.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("spawn")
    executor = ProcessPoolExecutor(
        min(workers, len(tasks)),
        mp_context=context,
        initializer=_die_with_parent,
        initargs=(os.getpid(),),
    )
    finished = False
    try:
        futures = deque(executor.submit(function, task) for task in tasks)
        while futures:  # let go of each result once it is handed on
            yield futures.popleft().result()
        finished = True
    except BrokenProcessPool as error:
        raise ZcardsError(f"a card rendering process stopped unexpectedly ({error})") from error
    finally:
        if not finished:
            _terminate_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _terminate_workers(executor: ProcessPoolExecutor) -> None:
    # Python < 3.14 has no public way to stop a pool's running tasks; its process table has.
    for process in list(getattr(executor, "_processes", {}).values()):
        process.terminate()


def _die_with_parent(parent: int) -> None:
    """Worker initializer: never outlive the exporting process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the parent decides
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)
    threading.Thread(target=_exit_when_parent_dies, name="parent-watchdog", daemon=True).start()


def _exit_when_parent_dies() -> None:
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()  # returns when the parent's end of the sentinel pipe closes
        os._exit(1)
