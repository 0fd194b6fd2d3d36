"""The replay page: one self-contained HTML file to step through an audited game.

The page holds the log, the table after every line (:mod:`zcards.rules.states`) and the
audit's findings, each with its rule quoted and the cards it names; its script draws the
lines in view and the board at the chosen line. It is written as the audit reads the log
(memory stays flat in the log's length): each line is one step, ``[line, text, readings,
changes]``, where ``changes`` are the parts of a player's table that differ from the step
before (``[reading, player, key, value]``, the value :func:`packed`) and ``readings`` what
each reading is (null when the same as before); every :data:`KEYFRAME`-th step holds
everything, so the script builds any line's board from at most that many steps.

Everything from the log (names, chat, card names) reaches the page only as JSON data that the
script puts in as text, never as markup: the JSON is written with ``<``, ``>`` and ``&``
escaped, so no log line can end its ``<script>`` element, and the template's own text is
autoescaped. Nothing is fetched: no network, no CDN; card images, when a plugin folder is
given, are embedded as data URIs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from lackey_plugin.errors import LackeyError
from lackey_plugin.files import atomic_text
from lackey_plugin.gamefile import inside
from lackey_plugin.paths import is_safe_component
from zcards.cards.model import Card
from zcards.resources import jinja_env, templates_dir
from zcards.rules.report import LABELS, AuditReport, Finding, UnparsedLine
from zcards.rules.states import LineState, each_state

__all__ = ["KEYFRAME", "packed", "write_replay"]

IMAGE_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}
MAX_IMAGE_BYTES = 2 * 1024 * 1024  # a card image larger than this is left out (text card)
KEYFRAME = 128  # every this many steps, a step holds the whole table
_PAYLOAD = "\x00payload\x00"  # where the data goes in the rendered template


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
    head, tail = _template(Path(log).name)
    with atomic_text(out) as page:  # a failed write is an OutputError naming ``out``
        page.write(head + '{"steps":[')
        steps = Steps(page)
        report = each_state(
            log, cards, steps.add, players=players, pov=pov, decks=decks, progress=progress
        )
        images = card_images(Path(plugin), cards, steps.names) if plugin is not None else {}
        page.write("]," + _json(_ending(Path(log).name, steps, report, images))[1:] + tail)
    return report


class Steps:
    """Writes each line's step as it comes, as the change from the step before."""

    def __init__(self, page: IO[str]) -> None:
        self.page = page
        self.count = 0
        self.names: set[str] = set()  # every card name the tables show
        self.turns: list[list[Any]] = []  # [step, turn, active] where a turn begins
        self._before: list[dict[str, dict[str, Any]]] = []  # the last step's players
        self._readings: list[list[Any]] = []  # the last step's readings

    def add(self, state: LineState) -> None:
        whole = self.count % KEYFRAME == 0
        readings = [[r.assumes, r.turn, r.phase, r.active, list(r.players)] for r in state.readings]
        changes: list[list[Any]] = []
        for number, reading in enumerate(state.readings):
            before = self._before[number] if number < len(self._before) and not whole else {}
            for name, me in reading.players.items():
                old = before.get(name, {})
                for key, value in me.items():
                    if key not in old or old[key] != value:
                        changes.append([number, name, key, packed(key, value)])
                        self.names.update(_names_in(key, value))
        shown = readings if whole or readings != self._readings else None
        first = state.readings[0] if state.readings else None
        if first is not None and (
            not self.turns or self.turns[-1][1:] != [first.turn, first.active]
        ):
            self.turns.append([self.count, first.turn, first.active])
        self.page.write(
            ("," if self.count else "") + _json([state.line, state.text, shown, changes])
        )
        self._before = [dict(r.players) for r in state.readings]
        self._readings = readings
        self.count += 1


def packed(key: str, value: Any) -> Any:
    """A part of a player's table as the page holds it: the lists of objects as lists of
    values in a fixed order (the script unpacks them), everything else as it is."""
    if key == "survivors":
        return [[s["name"], s["wounds"], s["infected"], s["spent"], s["items"]] for s in value]
    if key == "items":
        return [[i["name"], i["spent"]] for i in value]
    if key in ("resource", "combat"):
        ups = [
            [[u["name"], u["spent"], u["generic"]] for u in value[k]] for k in ("face_up", "maybe")
        ]
        return [value["face_down_ready"], value["face_down_spent"], *ups, value["unseen"]]
    return value


def _names_in(key: str, value: Any) -> Iterator[str]:
    """The card names in one part of a player's table (what a finding may highlight and
    what has an image)."""
    if key in ("hand_cards", "discard", "removed"):
        yield from value
    elif key == "survivors":
        for survivor in value:
            yield survivor["name"]
            yield from survivor["items"]
    elif key == "items":
        yield from (item["name"] for item in value)
    elif key in ("resource", "combat"):
        yield from (up["name"] for up in (*value["face_up"], *value["maybe"]))


def _ending(
    title: str, steps: Steps, report: AuditReport, images: dict[str, str]
) -> dict[str, Any]:
    """What follows the steps: the findings (and the unreadable lines), where turns begin,
    the images."""
    findings = [
        _finding(label, finding, steps.names)
        for label in LABELS
        for finding in getattr(report, label)
    ]
    findings += [_unreadable(unread) for unread in report.unparsed_lines]
    findings.sort(key=lambda f: (f["line"] is None, f["line"] or 0))
    return {
        "title": title,
        "keyframe": KEYFRAME,
        "findings": findings,
        "turns": steps.turns,
        "images": images,
    }


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
        "follows": finding.follows,
        "cards": sorted(name for name in names if name in said),
    }


def _unreadable(unread: UnparsedLine) -> dict[str, Any]:
    like = f"; the nearest template: {unread.nearest}" if unread.nearest else ""
    return {
        "list": "unparsed",
        "label": "unreadable",
        "line": unread.line,
        "kind": "unparsed",
        "rule": None,
        "quote": "",
        "sentence": f"The audit could not read this line{like}.",
        "player": None,
        "follows": None,
        "cards": [],
    }


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


def _json(value: Any) -> str:
    """JSON that no log text can break out of a ``<script>`` element with."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, escape)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _template(title: str) -> tuple[str, str]:
    """The page around its data: what comes before and after. Its one script is allowed by
    its hash (Content-Security-Policy): a script put in any other way, were one to get in,
    would not run."""
    from markupsafe import Markup

    script = (templates_dir() / "replay.js").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    page = (
        jinja_env()
        .get_template("replay.html.j2")
        .render(
            title=title,
            payload=Markup(_PAYLOAD),
            script=Markup(script),
            script_hash=f"sha256-{digest}",
        )
    )
    head, _, tail = page.partition(_PAYLOAD)
    return head, tail
