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
from support.browser import DESKTOP, PHONE, artefact, browser_page, open_replay, player_stats
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
    assert "\u003c/script\u003e" in html  # the chat's closing tag, as JSON data
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
        page.locator("#rows div", has_text="(from 10 to 3)").click()
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
        page.keyboard.press("Home")  # only the rows in view are drawn: the chat is line 8
        assert page.locator("#rows div", has_text="onerror=").inner_text().endswith(HOSTILE_CHAT)
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
    assert [(s[0], s[1]) for s in data["steps"]] == list(enumerate(lines, 1))
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


def until(page, expression: str, seconds: float = 5) -> object:
    """``expression``'s value once it changes from what it is now (the page's policy forbids
    the string evaluation playwright's own waiting uses)."""
    first = page.evaluate(expression)
    for _ in range(int(seconds * 20)):
        page.wait_for_timeout(50)
        value = page.evaluate(expression)
        if value != first:
            return value
    return first


def in_view(page, selector: str) -> list[dict]:
    """The boxes of the elements ``selector`` matches, with whether each lies wholly inside
    the window (nothing cut off)."""
    return page.eval_on_selector_all(
        selector,
        """nodes => nodes.map(n => {
            const box = n.getBoundingClientRect();
            return {name: n.dataset.player || n.id, left: box.left, right: box.right,
                    top: box.top, bottom: box.bottom,
                    inside: box.left >= 0 && box.right <= innerWidth && box.top >= 0
                            && box.bottom <= innerHeight};
        })""",
    )


@pytest.mark.slow
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_link_to_a_line_opens_there_with_every_board_in_view(
    chromium: str, tmp_path: Path, viewport: dict, record_property
) -> None:
    """``game.html#L38`` opens at the violation; at 1280x800 both players' boards are in the
    window at once; at either size nothing is wider than the window."""
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out) == 0
    with browser_page(chromium, viewport) as page:
        page.goto(out.resolve().as_uri() + "#L38")
        page.wait_for_selector("body[data-ready='1']", timeout=10_000)
        assert page.get_attribute("body", "data-line") == "38"
        assert "VIOLATION R5.1" in page.locator("#findings").inner_text()
        assert page.locator("#log .current").inner_text().endswith("Bob draws a card.")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        boards = in_view(page, "section.player")
        assert [b["name"] for b in boards] == ["Alice", "Bob"]
        assert all(b["right"] <= viewport["width"] for b in boards)
        if viewport is DESKTOP:
            assert all(b["inside"] for b in boards), boards
            assert page.locator("section.player.active h2").inner_text().startswith("Bob")
        assert all(b["inside"] for b in in_view(page, "#timeline, header"))
        shot = artefact(tmp_path, f"replay-L38-{viewport['width']}x{viewport['height']}.png")
        page.screenshot(path=str(shot))
        record_property("screenshot", str(shot))
        page.keyboard.press("ArrowRight")
        assert until(page, "location.hash") == "#L39"  # the address follows the line
        page.evaluate("location.hash = '#L8'")
        assert until(page, "document.body.dataset.line") == "8"
        assert page.problems == []


@pytest.mark.slow
def test_the_timeline_shows_turns_and_findings_and_unreadable_lines_are_marked(
    chromium: str, tmp_path: Path
) -> None:
    """A misspelt line (41) is marked on its row and on the timeline, beside the violation."""
    lines = EXAMPLE_GAME.read_text().splitlines()
    lines.insert(40, "Alice plays a face down card form his Hnd.")
    log = tmp_path / "game.txt"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "game.html"
    assert replay(log, out) == 0
    with browser_page(chromium) as page:
        open_replay(page, out)
        turns = page.eval_on_selector_all("#timeline .turn", "bands => bands.map(b => b.title)")
        assert turns[0] == "Setup" and "Turn 1, Alice" in turns and "Turn 2, Bob" in turns
        marks = page.eval_on_selector_all("#timeline .mark", "m => m.map(x => x.className)")
        assert marks == ["mark violations", "mark unparsed"]
        page.locator("#timeline .mark.unparsed").click()
        assert page.get_attribute("body", "data-line") == "41"
        assert "unparsed" in (page.locator("#log .current").get_attribute("class") or "")
        finding = page.locator("#findings .finding.unparsed").inner_text()
        assert "could not read this line" in finding and "{player} plays" in finding
        page.keyboard.press("p")
        assert page.get_attribute("body", "data-line") == "38"
        assert page.problems == []


def test_each_step_holds_what_changed_and_rebuilds_every_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rebuilt from the last whole step (every 5th here), each line's table is the one
    ``log state`` shows at that line (packed as the page holds it)."""
    from zcards.rules import page as page_module
    from zcards.rules.load import load_cards
    from zcards.rules.page import packed
    from zcards.rules.states import state_at

    monkeypatch.setattr(page_module, "KEYFRAME", 5)
    out = tmp_path / "game.html"
    assert replay(EXAMPLE_GAME, out) == 0
    data = page_payload(out.read_text(encoding="utf-8"))
    assert data["keyframe"] == 5
    steps = data["steps"]
    cards = load_cards()
    for index in (0, 4, 5, 9, 37, len(steps) - 1):
        start = index - index % 5
        readings: list = []
        parts: dict[tuple[int, str], dict] = {}
        for _line, _text, shown, changes in steps[start : index + 1]:
            readings = shown if shown is not None else readings
            for number, name, key, value in changes:
                parts.setdefault((number, name), {})[key] = value
        expected = [
            {n: {k: packed(k, v) for k, v in me.items()} for n, me in r.players.items()}
            for r in state_at(EXAMPLE_GAME, cards, steps[index][0])[0].readings
        ]
        state, _ = state_at(EXAMPLE_GAME, cards, steps[index][0])
        assert [
            {name: parts[(number, name)] for name in reading[4]}
            for number, reading in enumerate(readings)
        ] == expected
        assert [r[1:4] for r in readings] == [[r.turn, r.phase, r.active] for r in state.readings]
    assert sum(len(changes) for *_, changes in steps) < 10 * len(steps)
