"""The README's set-up and tour run as written: every line, in order, from a fresh folder.

The commands are read from README.md itself, so the README and this test cannot drift. Each
line runs in bash (``zcards`` is this checkout); a trailing ``# exit N`` comment gives its
expected exit code (default 0). The tour publishes its plugin with ``python3 -m http.server``
in the background; here pytest-httpserver serves the same folder at the same paths, and the
tour's address is rewritten to it (no other network is used).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from support.paths import ROOT
from werkzeug import Request, Response

README = ROOT / "README.md"
_EXIT = re.compile(r"#\s*exit (\d+)")
_SERVE = re.compile(r"http\.server (\d+) --bind ([\d.]+) --directory (\S+) &")


@dataclass(frozen=True)
class Line:
    command: str
    expected: int


def code_block_after(heading: str, text: str) -> list[str]:
    """The lines of the first fenced code block after the markdown ``heading``."""
    section = text.split(f"\n{heading}\n", 1)[1]
    block = section.split("```\n", 2)[1]
    return block.splitlines()


def commands(lines: list[str]) -> list[Line]:
    """Shell lines without comments; ``# exit N`` sets the expected exit code."""
    found = []
    for raw in lines:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        code = _EXIT.search(raw)
        command = raw.split("  #", 1)[0].strip()
        found.append(Line(command, int(code.group(1)) if code else 0))
    return found


def setup_commands(text: str) -> list[Line]:
    """The set-up's ``pip install . && zcards build``, without the install (done already)."""
    parts = [
        part.strip() for line in code_block_after("## Set-up", text) for part in line.split("&&")
    ]
    return [Line(part, 0) for part in parts if part and not part.startswith("pip ")]


TEXT = README.read_text(encoding="utf-8")
TOUR = commands(code_block_after("## A tour", TEXT))


def test_the_tour_covers_every_command() -> None:
    """Every top-level command appears in the set-up or the tour (a new one belongs there)."""
    from zcards.cli import COMMANDS

    lines = [*setup_commands(TEXT), *TOUR]
    used = {shlex.split(line.command)[1] for line in lines if line.command.startswith("zcards ")}
    assert used == set(COMMANDS)


def _zcards_shim(folder: Path) -> Path:
    """A ``zcards`` on PATH that runs this checkout with this interpreter."""
    folder.mkdir()
    shim = folder / "zcards"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m zcards "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return folder


def _serve_folder(server: HTTPServer, folder: Path) -> None:
    def handler(request: Request) -> Response:
        path = (folder / request.path.lstrip("/")).resolve()
        if folder.resolve() not in path.parents or not path.is_file():
            return Response("not found", status=404)
        return Response(path.read_bytes(), status=200)

    server.expect_request(re.compile(".*")).respond_with_handler(handler)


@pytest.mark.slow
def test_setup_and_tour_run_as_written(tmp_path: Path) -> None:
    work = tmp_path / "clone"
    work.mkdir()
    shutil.copytree(ROOT / "examples", work / "examples")
    env = {
        **os.environ,
        "PATH": f"{_zcards_shim(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("ZCARDS_DB", None)
    address = _published_address(TOUR)
    server = HTTPServer(host="127.0.0.1", port=0)  # any free port; the tour's is rewritten
    server.start()
    try:
        for line in [*setup_commands(TEXT), *TOUR]:
            served = _SERVE.search(line.command)
            if served:  # the background web server: pytest-httpserver serves the folder
                _serve_folder(server, work / served.group(3))
                continue
            if line.command.startswith("kill %"):
                server.clear()
                continue
            command = line.command.replace(address, f"http://127.0.0.1:{server.port}")
            done = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert done.returncode == line.expected, (
                f"{command}\nexit {done.returncode}, expected {line.expected}\n"
                f"stdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}"
            )
            assert "Traceback" not in done.stderr, done.stderr
    finally:
        server.stop()
    assert (work / "build" / "cards.db").is_file() and (work / "dist" / "zombieccg").is_dir()
    assert (work / "published.db").is_file() and len(list((work / "logs").iterdir())) == 200


def _published_address(tour: list[Line]) -> str:
    """``http://127.0.0.1:PORT``: where the tour's local web server publishes the plugin."""
    for line in tour:
        served = _SERVE.search(line.command)
        if served:
            return f"http://{served.group(2)}:{served.group(1)}"
    pytest.fail("the tour publishes nothing with python3 -m http.server")
