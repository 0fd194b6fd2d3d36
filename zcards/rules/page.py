"""The replay page: one self-contained HTML file to step through an audited game.

The page holds the log, the table after every line (:mod:`zcards.rules.states`) and the
audit's findings, each with its rule quoted and the cards it names; its script draws the
board for the chosen line. Everything from the log (names, chat, card names) reaches the page
only as JSON data that the script puts in as text, never as markup: the JSON is written with
``<``, ``>`` and ``&`` escaped, so no log line can end its ``<script>`` element, and the
template's own text is autoescaped. Nothing is fetched: no network, no CDN; card images, when
a plugin folder is given, are embedded as data URIs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from lackey_plugin.errors import LackeyError
from lackey_plugin.files import atomic_write
from lackey_plugin.gamefile import inside
from lackey_plugin.paths import is_safe_component
from zcards.cards.model import Card
from zcards.resources import jinja_env, templates_dir
from zcards.rules.report import LABELS, AuditReport, Finding
from zcards.rules.states import LineState, ReadingTable, every_state

__all__ = ["page_data", "render_page", "write_replay"]

IMAGE_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}
MAX_IMAGE_BYTES = 2 * 1024 * 1024  # a card image larger than this is left out (text card)


def write_replay(
    log: str | os.PathLike[str],
    out: str | os.PathLike[str],
    cards: list[Card],
    *,
    plugin: str | os.PathLike[str] | None = None,
    players: Iterable[str] = (),
    pov: str | None = None,
    decks: dict[str, int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Audit ``log`` and write its replay page to ``out`` (atomically: a page is whole or not
    written). ``plugin``: a Lackey plugin folder whose card images the page shows;
    ``progress`` is told how many more lines of the log are read, as they are."""
    states, report = every_state(
        log, cards, players=players, pov=pov, decks=decks, progress=progress
    )
    data = page_data(states, report, title=Path(log).name)
    if plugin is not None:
        shown = set(_names_of(state.readings for state in states))
        data["images"] = card_images(Path(plugin), cards, shown)
    atomic_write(out, render_page(data).encode("utf-8"))
    return report


def page_data(states: list[LineState], report: AuditReport, *, title: str) -> dict[str, Any]:
    """What the page's script reads: the steps (one per line the audit read), each reading's
    players as indexes into a pool of distinct player states, and the findings. A line
    changes one player at most, and one part of him (his hand, a zone): a pooled player
    state holds its lists and zones as indexes into ``parts``, each distinct value once, so
    the page grows with what changes, not with the whole table at every line."""
    parts = Interned()
    players = Interned()
    parted: set[str] = set()  # the keys whose values are indexes into parts

    def intern(me: dict[str, Any]) -> int:
        flat = dict(me)
        for key, value in me.items():
            if isinstance(value, list | dict):
                flat[key] = parts.index(value)
                parted.add(key)
        return players.index(flat)

    steps = [
        {
            "line": state.line,
            "text": state.text,
            "readings": [
                {**r.to_json(), "players": [[name, intern(me)] for name, me in r.players.items()]}
                for r in state.readings
            ],
        }
        for state in states
    ]
    names = set(_names_of(state.readings for state in states))
    findings = [
        _finding(label, finding, names) for label in LABELS for finding in getattr(report, label)
    ]
    findings.sort(key=lambda f: (f["line"] is None, f["line"] or 0))
    return {
        "title": title,
        "steps": steps,
        "pool": players.values,
        "parts": parts.values,
        "parted": sorted(parted),
        "findings": findings,
        "images": {},
    }


class Interned:
    """Distinct JSON values, each kept once, by index."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._seen: dict[str, int] = {}

    def index(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, separators=(",", ":"))
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = len(self.values)
            self.values.append(value)
        return found


def _finding(label: str, finding: Finding, names: set[str]) -> dict[str, Any]:
    said = f"{finding.message} {finding.text}"
    return {
        "list": label,
        "label": LABELS[label][0],
        "line": finding.line,
        "kind": finding.kind,
        "rule": finding.rule,
        "quote": finding.quote,
        "sentence": finding.sentence(),
        "player": finding.player,
        "cards": sorted(name for name in names if name in said),
    }


def _names_of(readings: Iterable[Iterable[ReadingTable]]) -> Iterator[str]:
    """Every card name the tables show (what a finding may highlight, what has an image)."""
    for reading in (r for step in readings for r in step):
        for me in reading.players.values():
            yield from me["hand_cards"]
            yield from me["discard"]
            for survivor in me["survivors"]:
                yield survivor["name"]
                yield from survivor["items"]
            yield from (item["name"] for item in me["items"])
            for zone in (me["resource"], me["combat"]):
                yield from (up["name"] for up in (*zone["face_up"], *zone["maybe"]))


def card_images(folder: Path, cards: list[Card], names: set[str]) -> dict[str, str]:
    """The plugin's face of each card the game shows, as a data URI: the file named by the
    card's ImageFile (else its name) in ``sets/setimages/<set>/`` of the plugin. Only cards
    of the card data are looked up, only a plain Set names a folder, and only files that lie
    inside the plugin once symbolic links are followed are read: card data is untrusted."""
    images: dict[str, str] = {}
    for card in cards:
        if card.name not in names or card.name in images or not is_safe_component(card.set_name):
            continue
        for stem in dict.fromkeys((card.image_file, card.name)):
            found = _image(folder, f"sets/setimages/{card.set_name}", stem)
            if found:
                images[card.name] = found
                break
    return images


def _image(plugin: Path, folder: str, stem: str) -> str | None:
    if not stem or Path(stem).name != stem:
        return None
    for suffix, mime in IMAGE_TYPES.items():
        try:
            path = inside(plugin, f"{folder}/{stem}{suffix}")
        except LackeyError:  # no such file, or a link leading out of the plugin
            continue
        if path.stat().st_size <= MAX_IMAGE_BYTES:
            encoded = base64.b64encode(path.read_bytes()).decode("ascii")
            return f"data:{mime};base64,{encoded}"
    return None


def render_page(data: dict[str, Any]) -> str:
    """The page, with ``data`` as JSON that no log text can break out of. Its one script is
    allowed by its hash (Content-Security-Policy): a script put in any other way, were one
    to get in, would not run."""
    from markupsafe import Markup

    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        payload = payload.replace(char, escape)
    payload = payload.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    script = (templates_dir() / "replay.js").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    template = jinja_env().get_template("replay.html.j2")
    return template.render(
        title=data["title"],
        payload=Markup(payload),
        script=Markup(script),
        script_hash=f"sha256-{digest}",
    )
