"""The balance lab's worker processes die with the process that runs it, whatever signal ends
it; ``--jobs`` is bounded; a huge ``--games`` holds no task list."""

from __future__ import annotations

import os
import signal
import subprocess
import tracemalloc
from pathlib import Path

import pytest
from support.processes import children, process_state, wait_until, zcards_argv

from zcards.processes import cpu_count
from zcards.resources import starter_decks
from zcards.sim.decklists import read_decks
from zcards.sim.lab import Plan, max_jobs, run

# Generous bounds for a loaded machine: reaching them is a failure, not a measurement.
STARTUP_LIMIT_S = 120
EXIT_LIMIT_S = 60


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_balance_workers_die_with_the_run(
    signum: signal.Signals, sample_db_path: Path, tmp_path: Path
) -> None:
    argv = zcards_argv("balance", "--games", "100000", "--jobs", "2", "--db", sample_db_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    lab = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL)
    workers: list[int] = []
    try:

        def playing() -> bool:
            workers[:] = children(lab.pid)
            return len(workers) >= 2 or lab.poll() is not None

        assert wait_until(playing, STARTUP_LIMIT_S) and lab.poll() is None
        lab.send_signal(signum)
        lab.wait(EXIT_LIMIT_S)
        alive = lambda: [pid for pid in workers if process_state(pid)]  # noqa: E731
        assert wait_until(lambda: not alive(), EXIT_LIMIT_S), f"left behind: {alive()}"
    finally:
        lab.kill()
        for pid in workers:
            if process_state(pid):
                os.kill(pid, signal.SIGKILL)


def test_jobs_are_capped_at_twice_the_cores(sample_db_path: Path, tmp_path: Path) -> None:
    too_many = str(max_jobs() + 1)
    result = subprocess.run(
        zcards_argv("balance", "--games", "1", "--jobs", too_many, "--db", sample_db_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"at most {2 * cpu_count()}" in result.stderr


class _Enough(Exception):
    """Stops the lab after its first task."""


def test_the_tasks_are_made_as_they_are_taken() -> None:
    # 600,000 tasks: held as a list before the first game, they cost over 50 MB.
    plan = Plan(variants=(tuple(read_decks(starter_decks())),), games=50_000_000, max_turns=2)

    def first_task_done(games: int) -> None:
        raise _Enough

    tracemalloc.start()
    try:
        with pytest.raises(_Enough):
            run(plan, jobs=1, on_games=first_task_done)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20
