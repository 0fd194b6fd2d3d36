"""``plugininfo.txt`` is read in one linear pass over its tags: unclosed tags cost nothing
more than closed ones (before: a lazy match per tag ran on to the end of the file)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lackey_plugin.plugininfo import parse_plugininfo
from tests.support.paths import ROOT

# A bound for a loaded machine, not a measurement: the linear pass takes about a second
# where the quadratic one took over 120 s.
LIMIT_S = 90


def test_unclosed_tags_are_read_in_one_pass(tmp_path: Path) -> None:
    hostile = tmp_path / "plugininfo.txt"
    hostile.write_text("<plugin>\n" + "<phase>" * (640 * 1024 // 7) + "<label", encoding="utf-8")
    script = (
        "import sys\nfrom lackey_plugin.plugininfo import parse_plugininfo\n"
        "info = parse_plugininfo(open(sys.argv[1], encoding='utf-8').read())\n"
        "print(len(info.blocks), len(info.tags))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(hostile)],
        capture_output=True,
        text=True,
        timeout=LIMIT_S,
        cwd=ROOT,
        check=True,
    )
    assert result.stdout.split() == ["0", str(640 * 1024 // 7 + 1)]


def test_a_block_is_read_up_to_the_first_closing_tag_of_its_name() -> None:
    info = parse_plugininfo(
        "<plugin>\n<phase><phase><label>Main</label></phase>\n<PluginName >Zed</pluginname>\n"
        "<zone><label>Hand</label>\n<phase><label>Odd</label></phase>\n"
    )
    assert [(block.tag, block.line, block.children) for block in info.blocks] == [
        ("phase", 2, (("phase", ""), ("label", "Main"))),
        ("phase", 5, (("label", "Odd"),)),  # the unclosed <zone> held nothing back
    ]
    assert info.scalars == {"pluginname": "Zed"}
