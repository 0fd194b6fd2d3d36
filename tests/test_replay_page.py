"""``zcards replay``: one self-contained HTML page to step through an audited game, checked in
a real browser (the system's Chromium): the board at the violation's line says what the log
says, the rule is quoted, and a log with markup in a name or in chat runs no script."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
from PIL import Image
from support.browser import PHONE, artefact, browser_page, open_replay, player_stats
from support.paths import LOGS, ROOT

from zcards.cli import main
from zcards.game.catalogue import rule_text
from zcards.rules.page import write_replay

EXAMPLE_GAME = ROOT / "examples" / "game.txt"  # Bob draws a third card at line 38
HOSTILE_NAME = "<script>window.pwned=1</script>"
HOSTILE_CHAT = (
    'Alice: <img src=x onerror="window.pwned=2"> gg </script><script>window.pwned=3</script>'
)


def replay(log: Path, out: Path, *args: str) -> int:
    try:
        main(["replay", str(log), "--out", str(out), *args])
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else 1
    return 0


def hostile_log(tmp_path: Path) -> Path:
    """The example game with Bob named as a script and a chat line full of markup."""
    lines = EXAMPLE_GAME.read_text().replace("Bob", HOSTILE_NAME).splitlines()
    lines.insert(7, HOSTILE_CHAT)
    log = tmp_path / "hostile.txt"
    log.write_text("\n".join(lines) + "\n")
    return log


def test_the_page_is_one_file_that_fetches_nothing(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out) == 0
    html = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "default-src 'none'" in html  # the browser itself refuses any fetch
    assert rule_text("R5.1") in html and not list(tmp_path.glob(".*partial"))


def test_log_text_cannot_end_the_data_script(tmp_path: Path) -> None:
    out = tmp_path / "hostile.html"
    assert replay(hostile_log(tmp_path), out) == 0
    html = out.read_text(encoding="utf-8")
    assert html.count("<script") == 2 and html.count("</script>") == 2  # the page's own two
    assert "window.pwned" in html  # the text is there, as JSON data


def test_an_unusable_log_writes_nothing(tmp_path: Path) -> None:
    readme = tmp_path / "notes.txt"
    readme.write_text("just some notes\n")
    assert replay(readme, tmp_path / "page.html") == 2
    assert list(tmp_path.iterdir()) == [readme]


@pytest.mark.slow
def test_stepping_to_the_violation_shows_the_board_of_that_line(
    chromium: str, tmp_path: Path, record_property
) -> None:
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out) == 0
    with browser_page(chromium) as page:
        open_replay(page, out)
        assert page.get_attribute("body", "data-line") == "1"
        page.keyboard.press("n")  # the next violation or unverifiable finding
        assert page.get_attribute("body", "data-line") == "38"
        assert page.locator("#log .current").inner_text().endswith("Bob draws a card.")
        finding = page.locator("#findings .finding.violations").inner_text()
        assert "VIOLATION R5.1 (draw-count)" in finding and rule_text("R5.1") in finding
        assert "Bob draws 3 cards in the Draw phase" in finding
        # 7 opening cards, 2 drawn and 1 discarded, 1 resource played, then 3 drawn
        assert player_stats(page, "Bob") == {"food": "10", "hand": "10"}
        assert player_stats(page, "Alice") == {"food": "3", "hand": "7"}
        shot = artefact(tmp_path, "replay-example-game.png")
        page.screenshot(path=str(shot))
        record_property("screenshot", str(shot))
        page.keyboard.press("ArrowLeft")  # the line before: two of the three draws
        assert page.get_attribute("body", "data-line") == "37"
        assert player_stats(page, "Bob")["hand"] == "9"
        assert page.locator("#findings .finding").count() == 0
        page.locator("#slider").fill("0")
        assert page.get_attribute("body", "data-line") == "1"
        page.locator("#log div", has_text="(from 10 to 3)").click()
        assert page.get_attribute("body", "data-line") == "8"
        assert player_stats(page, "Alice")["food"] == "3"
        assert page.problems == []
    assert shot.read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_markup_in_names_and_chat_is_shown_as_text_and_runs_nothing(
    chromium: str, tmp_path: Path
) -> None:
    out = tmp_path / "hostile.html"
    assert replay(hostile_log(tmp_path), out) == 0
    with browser_page(chromium, PHONE) as page:
        open_replay(page, out)
        page.keyboard.press("n")
        assert page.get_attribute("body", "data-line") == "39"
        assert page.evaluate("window.pwned") is None and page.problems == []
        assert page.locator("section.player h2", has_text=HOSTILE_NAME).count() == 1
        assert page.locator("#log div", has_text="onerror=").inner_text().endswith(HOSTILE_CHAT)
        # a phone-sized window: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def page_payload(html: str) -> dict:
    """The data the page's script reads (the JSON of its data script)."""
    start = html.index('<script id="data" type="application/json">') + len(
        '<script id="data" type="application/json">'
    )
    return json.loads(html[start : html.index("</script>", start)])


def test_card_images_come_from_the_plugin_folder(tmp_path: Path) -> None:
    """A face the plugin has (by the card's ImageFile) is embedded; a card without one, and a
    file outside the set's image folder, are not: those cards stay text."""
    faces = tmp_path / "plugin" / "sets" / "setimages" / "alpha"
    faces.mkdir(parents=True)
    Image.new("RGB", (20, 28), "red").save(faces / "oldpete.png")
    Image.new("RGB", (20, 28), "blue").save(tmp_path / "plugin" / "sets" / "kylebjorn.png")
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out, "--plugin", str(tmp_path / "plugin")) == 0
    images = page_payload(out.read_text(encoding="utf-8"))["images"]
    assert list(images) == ["Old Pete"]
    assert (
        base64.b64decode(images["Old Pete"].split(",", 1)[1])
        == (faces / "oldpete.png").read_bytes()
    )
    without = tmp_path / "plain.html"
    assert replay(EXAMPLE_GAME, without) == 0
    assert page_payload(without.read_text(encoding="utf-8"))["images"] == {}


def test_the_page_data_holds_every_line_and_each_finding_with_its_cards(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out) == 0
    data = page_payload(out.read_text(encoding="utf-8"))
    lines = EXAMPLE_GAME.read_text().splitlines()
    assert [(s["line"], s["text"]) for s in data["steps"]] == list(enumerate(lines, 1))
    [finding] = data["findings"]
    assert (finding["line"], finding["rule"], finding["quote"]) == (38, "R5.1", rule_text("R5.1"))
    assert finding["cards"] == []  # "Bob draws a card." names none


@pytest.mark.slow
def test_the_cards_a_finding_names_are_highlighted(chromium: str, tmp_path: Path) -> None:
    """Line 66 flips Scout, a survivor card among the zombies: the flipped card is marked."""
    out = tmp_path / "flip.html"
    log = LOGS / "zombie-upgrade-survivor.txt"
    assert replay(log, out, "--cards", str(LOGS / "cards.txt")) == 0
    with browser_page(chromium) as page:
        open_replay(page, out)
        page.keyboard.press("End")
        page.keyboard.press("p")  # back to the violation
        assert page.get_attribute("body", "data-line") == "66"
        assert rule_text("R8.3") in page.locator("#findings").inner_text()
        marked = page.eval_on_selector_all(".card.hl", "cards => cards.map(c => c.dataset.name)")
        assert marked and set(marked) == {"Scout"}
        assert page.problems == []


def test_progress_is_told_every_line_once(tmp_path: Path, bundled_cards) -> None:
    told: list[int] = []
    report = write_replay(EXAMPLE_GAME, tmp_path / "game.html", bundled_cards, progress=told.append)
    assert sum(told) == report.lines == len(EXAMPLE_GAME.read_text().splitlines())
    assert all(step > 0 for step in told)


@pytest.mark.slow
def test_cards_called_like_javascript_object_members_show_as_text(
    chromium: str, tmp_path: Path
) -> None:
    text = EXAMPLE_GAME.read_text().replace("Old Pete", "constructor")
    log = tmp_path / "members.txt"
    log.write_text(text.replace("Kyle Bjorn", "__proto__"))
    out = tmp_path / "members.html"
    assert replay(log, out) in (0, 1)
    with browser_page(chromium) as page:
        open_replay(page, out)
        page.keyboard.press("End")
        names = page.locator(".card .name").all_inner_texts()
        assert {"constructor", "__proto__"} <= set(names)
        assert page.locator(".card img").count() == 0 and page.problems == []
