"""Work spread over processes (card images, proxy sheets, the balance lab's games), with
workers that never outlive the process that started them.

However the parent ends (SIGKILL included) its workers die: on Linux the kernel is asked to
kill them (``PR_SET_PDEATHSIG``); everywhere a watchdog thread waits on multiprocessing's
parent sentinel, a pipe that reads end-of-file once the parent is gone. Tasks are handed out a
few at a time as results come back, so a huge batch is never held as a list of tasks.
"""

from __future__ import annotations

import ctypes
import itertools
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from zcards.errors import ZcardsError

Task = TypeVar("Task")
Result = TypeVar("Result")
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
AHEAD = 2  # tasks handed to the pool per worker before the first result is taken back


def cpu_count() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def map_in_processes(
    function: Callable[[Task], Result],
    tasks: Iterable[Task],
    workers: int,
    *,
    what: str = "a card rendering process",
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[Result]:
    """``function`` over ``tasks`` in up to ``workers`` processes, yielding results in task order.

    Workers are spawned, not forked: a fresh interpreter shares no renderer, font or lock state
    with the caller, whatever threads the caller runs; ``initializer(*initargs)`` then runs in
    each. An exception from a task is raised here as itself (a :class:`ZcardsError` stays one);
    a worker that dies is "``what`` stopped unexpectedly". Any early end (an error, Ctrl-C, the
    caller closing the iterator) stops the workers at once instead of letting them finish.
    """
    tasks = iter(tasks)
    first = list(itertools.islice(tasks, workers * AHEAD))
    executor = ProcessPoolExecutor(
        max(1, min(workers, len(first))),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs),
    )
    finished = False
    try:
        futures: deque[Future[Result]] = deque(executor.submit(function, t) for t in first)
        while futures:  # let go of each result once it is handed on
            result = futures.popleft().result()
            for task in itertools.islice(tasks, 1):
                futures.append(executor.submit(function, task))
            yield result
        finished = True
    except BrokenProcessPool as error:
        raise ZcardsError(f"{what} stopped unexpectedly ({error})") from error
    finally:
        if not finished:
            _terminate_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _terminate_workers(executor: ProcessPoolExecutor) -> None:
    # Python < 3.14 has no public way to stop a pool's running tasks; its process table has.
    for process in list(getattr(executor, "_processes", {}).values()):
        process.terminate()


def _start_worker(
    parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    """Worker initializer: never outlive the parent, then the caller's own set-up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the group: the parent decides
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)
    threading.Thread(target=_exit_when_parent_dies, name="parent-watchdog", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _exit_when_parent_dies() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()  # returns when the parent's end of the sentinel pipe closes
        os._exit(1)
