"""``zcards plugin verify`` in bounded memory and time, however many and large the files.

Every listed file streams through its checksum: the real command's peak memory (its own
VmHWM) does not grow with the number or the size of the files. The whole run has a deadline
(``--timeout``): files that stall are cut off there and reported dead, saying why.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from support.net_faults import RawServer, drip, http_response, run_measured

from lackey_plugin.checksum import checksum_bytes
from lackey_plugin.updatelist import UpdateEntry, UpdateList, render_updatelist
from zcards.cli import cli

MIB = 1 << 20


def _publish(
    server: HTTPServer, files: dict[str, bytes], urls: dict[str, str] | None = None
) -> str:
    """An updatelist listing ``files`` (served at their names, or at ``urls``)."""
    entries = []
    for name, body in files.items():
        url = (urls or {}).get(name) or server.url_for(f"/big/{name}")
        if url.startswith(server.url_for("/")):
            server.expect_request(f"/big/{name}").respond_with_data(body)
        entries.append(UpdateEntry(f"plugins/big/sets/{name}", url, checksum_bytes(body)))
    updatelist = UpdateList("big", "12-01-25", entries)
    server.expect_request("/big/updatelist.txt").respond_with_data(render_updatelist(updatelist))
    return server.url_for("/big/updatelist.txt")


def _card_data(mib: int) -> bytes:
    line = b"Gross Ghoul\talpha\tgrossghoul\tZombie\tRage\t\t2\t\tFast\t\t\tC\tGrr.\n"
    return (line * (mib * MIB // len(line) + 1))[: mib * MIB]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's VmHWM")
def test_memory_does_not_grow_with_the_number_and_size_of_the_files(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    """Two files of 1 MiB, then six of 24 MiB (card data, which verify used to keep): the
    peak is the same within a few MiB (before: ~6 x 24 MiB more)."""
    peaks = []
    for count, mib in ((2, 1), (6, 24)):
        httpserver.clear()
        body = _card_data(mib)
        url = _publish(httpserver, {f"set{n}.txt": body for n in range(count)})
        finished = run_measured(["plugin", "verify", url, "--workers", "2"], tmp_path)
        assert finished.exit_code == 0, finished.stderr
        assert f"{count} files checked, 0 problems" in finished.stderr
        peaks.append(finished.peak_mib)
    assert peaks[1] - peaks[0] < 16, f"{peaks[0]:.0f} MiB, then {peaks[1]:.0f} MiB"


@pytest.mark.slow
def test_the_whole_run_has_a_deadline(httpserver: HTTPServer) -> None:
    """Three files whose headers never end: the run stops at ``--timeout`` and says so for
    each of them, while the files that answered are checked."""
    with contextlib.ExitStack() as stack:
        stalled = {
            f"stall{n}.txt": stack.enter_context(RawServer(drip(http_response(b"x")))).url(
                f"/stall{n}.txt"
            )
            for n in range(3)
        }
        files = {"good.txt": b"Name\tSet\n", **{name: b"x" for name in stalled}}
        url = _publish(httpserver, files, stalled)
        result = CliRunner().invoke(
            cli, ["plugin", "verify", url, "--timeout", "2", "--workers", "2", "--format", "json"]
        )
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert report["files"] == 4
    details = {problem["local_path"]: problem["detail"] for problem in report["problems"]}
    assert sorted(details) == [f"plugins/big/sets/{name}" for name in sorted(stalled)]
    assert all("the run's 2 s deadline passed" in detail for detail in details.values()), details


def test_the_default_deadline_is_stated_in_the_help() -> None:
    result = CliRunner().invoke(cli, ["plugin", "verify", "--help"])
    assert result.exit_code == 0
    assert "--timeout" in result.output and "default: 600" in result.output
