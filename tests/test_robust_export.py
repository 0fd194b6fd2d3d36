"""``plugin export`` killed at the worst moments, with real subprocesses and real signals.

* Render workers die with the exporting process, whether it gets SIGTERM, SIGINT or SIGKILL.
* Build and old folders left by a killed run are removed by the next run.
* The swap leaves a complete plugin folder at every instant: one exchange on Linux; where the
  system cannot exchange, a run killed between the two renames is repaired by the next run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from support.paths import ROOT, TESTS
from support.plugin_exports import export_mini, hidden_files, tree
from support.processes import children, process_state, wait_until

from zcards.ingest.importer import import_sources
from zcards.processes import cpu_count
from zcards.resources import BUNDLED_SET

linux_only = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads the process table from /proc"
)
# Generous bounds for a loaded machine: reaching them is a failure, not a measurement.
STARTUP_LIMIT_S = 180
EXIT_LIMIT_S = 60


def _run(code: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env)


@pytest.fixture(scope="module")
def big_set_db(tmp_path_factory) -> Path:
    """400 cards in one set: enough that the export renders them in worker processes."""
    header, *rows = BUNDLED_SET.read_text(encoding="utf-8").splitlines()
    lines = [header]
    for copy in range(4):
        for row in rows:
            name, set_name, image, *rest = row.split("\t")
            lines.append("\t".join([f"{name} {copy}", set_name, f"{image}-{copy}", *rest]))
    folder = tmp_path_factory.mktemp("big-set")
    (folder / "cards.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_sources(folder / "cards.db", [str(folder / "cards.txt")])
    return folder / "cards.db"


EXPORT = "from zcards.cli import main; main()"


@linux_only
@pytest.mark.slow
@pytest.mark.skipif(cpu_count() < 2, reason="one core: the export renders in-process")
@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda signum: signum.name
)
def test_render_workers_die_with_the_export(
    signum: signal.Signals, big_set_db: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    args = ["plugin", "export", "--db", str(big_set_db), "--out", str(out), "--dpi", "30"]
    export = _run(EXPORT, *args)
    helpers: list[int] = []
    try:

        def rendering() -> bool:
            helpers[:] = children(export.pid)
            images = list(out.glob(".zombieccg.build-*/sets/setimages/alpha/*.jpg"))
            return len(helpers) >= 2 and bool(images) or export.poll() is not None

        assert wait_until(rendering, STARTUP_LIMIT_S) and export.poll() is None
        export.send_signal(signum)
        export.wait(EXIT_LIMIT_S)
        alive = lambda: [pid for pid in helpers if process_state(pid)]  # noqa: E731
        assert wait_until(lambda: not alive(), EXIT_LIMIT_S), f"left behind: {alive()}"
        if signum == signal.SIGINT:  # an interrupted export cleans up after itself
            assert not list(out.glob(".zombieccg.*"))
    finally:
        export.kill()
        for pid in helpers:
            if process_state(pid):
                os.kill(pid, signal.SIGKILL)


def test_leftovers_of_a_killed_run_are_removed_by_the_next(
    mini_db_copy: Path, mini_release: Path
) -> None:
    out = mini_release
    for leftover in (".zombieccg.build-k1ll3d", ".zombieccg.old-k1ll3d"):
        (out / leftover / "sets").mkdir(parents=True)
        (out / leftover / "sets" / "half.jpg").write_bytes(b"\xff\xd8")
    (out / ".other.build-x").mkdir()  # another plugin's: not ours to remove
    report = export_mini(mini_db_copy, out, release=date(2026, 2, 1))
    assert report.version == "260201" and not report.unchanged
    assert hidden_files(out) == [".other.build-x"]


# Runs one export in a subprocess that SIGKILLs itself right after the plugin folder is
# renamed away: the instant a two-rename swap has no plugin folder at all.
KILL_IN_THE_GAP = """
import os, signal, sys
from datetime import date
from pathlib import Path
from support.plugin_exports import export_mini
db, out, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
if mode == "no-exchange":
    from lackey_plugin import folder_swap
    folder_swap._exchange = lambda first, second: False  # a system without RENAME_EXCHANGE
target, rename = out / "zombieccg", Path.rename
def rename_then_die(self, destination):
    moved = rename(self, destination)
    if self == target:
        os.kill(os.getpid(), signal.SIGKILL)
    return moved
Path.rename = rename_then_die
export_mini(db, out, release=date(2026, 2, 1))
"""


@pytest.mark.slow  # end to end: an export in a process that kills itself mid-swap
@pytest.mark.skipif(sys.platform != "linux", reason="RENAME_EXCHANGE is Linux-only")
def test_the_swap_never_leaves_the_folder_missing(mini_db_copy: Path, mini_release: Path) -> None:
    out = mini_release
    run = _run(KILL_IN_THE_GAP, str(mini_db_copy), str(out), "exchange")
    assert run.wait(EXIT_LIMIT_S * 3) == 0, "the plugin folder was renamed away"
    assert b"lastupdateYYMMDD>260201" in tree(out / "zombieccg")["version.txt"]
    assert hidden_files(out) == []


@pytest.mark.slow  # end to end: an export in a process that kills itself mid-swap
def test_a_kill_between_two_renames_is_repaired_by_the_next_run(
    mini_db_copy: Path, mini_release: Path
) -> None:
    out = mini_release
    before = tree(out / "zombieccg")
    run = _run(KILL_IN_THE_GAP, str(mini_db_copy), str(out), "no-exchange")
    assert run.wait(EXIT_LIMIT_S * 3) == -signal.SIGKILL
    assert not (out / "zombieccg").exists()  # the gap was hit
    report = export_mini(mini_db_copy, out)  # the same version again: the old plugin is back
    assert report.unchanged and tree(out / "zombieccg") == before
    assert hidden_files(out) == []
