"""A real browser for the replay page: the system's Chromium driven by playwright (no browser
of playwright's own). Tests get the program from the ``chromium`` fixture."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@contextmanager
def browser_page(chromium: str, viewport: dict[str, int] = DESKTOP) -> Iterator[Any]:
    """A fresh page; every script error and dialog (an ``alert`` a log sneaked in) is kept in
    the page's ``problems`` list."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=viewport)
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(f"error: {error}"))
            page.on("dialog", lambda dialog: _refuse(dialog, problems))
            page.problems = problems
            yield page
        finally:
            browser.close()


def artefact(tmp_path: Path, name: str) -> Path:
    """Where a screenshot goes: ``$ZCARDS_ARTEFACTS`` (CI keeps it), else the test's folder."""
    folder = Path(os.environ.get("ZCARDS_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def open_replay(page: Any, html: Path) -> None:
    """Open a replay page from disk and wait until its script has drawn the first line."""
    page.goto(html.resolve().as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)


def player_stats(page: Any, name: str) -> dict[str, str]:
    """What the board shows of a player's food and hand (the first reading's panel)."""
    return page.evaluate(
        """name => {
            const box = [...document.querySelectorAll("section.player")]
                .find(b => b.dataset.player === name);
            const stats = box.querySelector(".stats");
            return {food: stats.dataset.food, hand: stats.dataset.hand};
        }""",
        name,
    )


def _refuse(dialog: Any, problems: list[str]) -> None:
    problems.append(f"dialog: {dialog.message}")
    dialog.dismiss()
