"""``zcards plugin export``: the card database as a complete, installable LackeyCCG plugin.

The plugin is built in a temporary folder next to the target, linted strictly (our own output
must be warning-free), and only then swapped in (:mod:`lackey_plugin.folder_swap`: a complete
plugin is there at every instant, and whatever a killed run left is cleaned up by the next), so
a failed export leaves the previous plugin untouched. Output is deterministic: files, rows and
updatelist lines come in a fixed order and the only date is the release date (an option, or the
database's last import), never the clock time of the run.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import quote

from lackey_plugin import carddata, folder_swap, packs
from lackey_plugin.background import render_pack_image, render_table_background
from lackey_plugin.checksum import checksum_file
from lackey_plugin.game import ZOMBIE_GAME, GameDefinition
from lackey_plugin.plugininfo import render_plugininfo
from lackey_plugin.updatelist import UpdateEntry, UpdateList, format_date, render_updatelist
from lackey_plugin.version import read_stamp, render_version, valid_stamp, yymmdd
from zcards.db import iter_cards, open_db
from zcards.errors import ZcardsError
from zcards.files import current_umask
from zcards.model import Card
from zcards.resources import starter_decks
from zcards.safe_names import safe_component

Progress = Callable[[str, int, int], None]
BOOSTER_IMAGE = "zombiebooster"
PLACEHOLDER_BASE = "https://example.invalid/lackey/{name}/"


@dataclass
class ExportReport:
    plugin_dir: Path
    version: str
    cards: int = 0
    sets: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    unchanged: bool = False
    messages: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "plugin_dir": str(self.plugin_dir),
            "version": self.version,
            "cards": self.cards,
            "sets": self.sets,
            "files": self.files,
            "bytes": self.bytes,
            "unchanged": self.unchanged,
            "messages": self.messages,
        }


def background_name(name: str) -> str:
    """The table background's path, both inside the published folder and under Lackey's root."""
    return f"images/backgrounds/{name}-table.jpg"


def export_plugin(
    db_path: str | os.PathLike[str] | None,
    out_dir: str | os.PathLike[str],
    *,
    name: str = "zombieccg",
    base_url: str | None = None,
    progress: Progress | None = None,
    release: date | None = None,
    dpi: int = 150,
    decks: Sequence[Path] | None = None,
    game: GameDefinition = ZOMBIE_GAME,
) -> ExportReport:
    """Write ``out_dir/<name>/`` from the card database and return what was written.

    ``decks`` are the starter deck lists to ship (default: the bundled starter decks).
    """
    if safe_component(name, "") != name or " " in name:
        raise ZcardsError(f"plugin name {name!r} must be a plain folder name without spaces")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    db = open_db(db_path)
    cards = list(iter_cards(db))
    if not cards:
        raise ZcardsError("the card database has no cards to export")
    day = release or _release_from_db(db) or date.today()
    report = ExportReport(plugin_dir=out / name, version=yymmdd(day))
    if base_url is None:
        base_url = PLACEHOLDER_BASE.format(name=name)
        report.messages.append(f"no --base-url: updatelist URLs use the placeholder {base_url}")
    job = _Job(
        name=name,
        base_url=base_url if base_url.endswith("/") else base_url + "/",
        day=day,
        dpi=dpi,
        decks=list(decks) if decks is not None else starter_decks(),
        game=game,
        progress=progress or _quiet,
    )
    with folder_swap.locked(out):
        folder_swap.recover(out, name)
        _export_into(out, db, cards, job, report)
    return report


def _export_into(out: Path, db, cards: list[Card], job: _Job, report: ExportReport) -> None:
    """Build next to the target and swap it in (holding the folder's lock)."""
    target = out / job.name
    previous = _previous_stamp(target)
    if previous and previous > report.version:
        raise ZcardsError(
            f"{target} holds version {previous}, newer than {report.version}; pass a later --date"
        )
    build = Path(tempfile.mkdtemp(prefix=folder_swap.build_prefix(job.name), dir=out))
    build.chmod(_folder_mode())  # mkdtemp makes it private; a plugin folder is served and shared
    try:
        _build(build, db, cards, job, report)
        _self_check(build, job.name)
        if previous == report.version:
            if _same_tree(build, target):
                report.unchanged = True
                return
            raise ZcardsError(
                f"{target} already holds version {previous} with different content; "
                "a new export needs a later --date"
            )
        folder_swap.replace_folder(build, target)
    finally:
        shutil.rmtree(build, ignore_errors=True)


@dataclass(frozen=True)
class _Job:
    """The settings of one export, passed to every build step."""

    name: str
    base_url: str
    day: date
    dpi: int
    decks: list[Path]
    game: GameDefinition
    progress: Progress


def _quiet(stage: str, done: int, total: int) -> None:
    """Default progress callback: say nothing."""


def _release_from_db(db) -> date | None:
    """The day of the latest import: the data's own date, stable across re-exports."""
    if "import_runs" not in db.table_names():
        return None
    row = db.execute("select max(finished_at) from import_runs").fetchone()
    try:
        return date.fromisoformat(row[0][:10]) if row and row[0] else None
    except ValueError:
        return None


def _previous_stamp(target: Path) -> str | None:
    version = target / "version.txt"
    if not version.is_file():
        return None
    stamp = read_stamp(version.read_text(encoding="utf-8", errors="replace"))
    if not stamp or not valid_stamp(stamp):
        raise ZcardsError(f"{version} has no valid lastupdateYYMMDD; move the old plugin away")
    return stamp


def _write(path: Path, text: str) -> None:
    """UTF-8 without BOM, LF line ends, whatever the platform (reference §15.1)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))


def _build(root: Path, db, cards: list[Card], job: _Job, report: ExportReport) -> None:
    day = job.day
    safe = carddata.sanitize_cards(cards)
    report.messages += safe.messages
    by_set: dict[str, list[Card]] = {}
    for card in safe.cards:
        by_set.setdefault(card.set_name, []).append(card)
    by_set = dict(sorted(by_set.items(), key=lambda item: (item[0].casefold(), item[0])))
    report.cards, report.sets = len(safe.cards), list(by_set)

    plugin_version = f"{day.year}.{day.month}.{day.day}"
    _write(root / "plugininfo.txt", render_plugininfo(job.game, plugin_version))
    file_names = []
    for set_name, set_cards in by_set.items():
        for file_name, text in carddata.render_card_files(set_name, set_cards):
            _write(root / "sets" / file_name, text)
            file_names.append(file_name)
    _write(root / "ListOfCardDataFiles.txt", packs.render_card_file_list(file_names))
    _write(root / "formats.txt", packs.render_formats(list(by_set)))

    safe_by_key = {card.key: safe_card for card, safe_card in zip(cards, safe.cards, strict=True)}
    fixed = _write_decks(root, db, job, safe_by_key, report)
    _write(
        root / "packs" / "packdefinitions1.xml",
        packs.render_packdefinitions(by_set, fixed, BOOSTER_IMAGE),
    )
    render_pack_image(root / "packs" / f"{BOOSTER_IMAGE}.jpg", "Zombie CCG Booster")
    _render_images(root, by_set, job.dpi, job.progress)
    render_table_background(root / background_name(job.name))
    message = f"Zombie CCG plugin {yymmdd(day)}: " + ", ".join(
        f"{set_name} ({len(set_cards)} cards)" for set_name, set_cards in by_set.items()
    )
    _write(root / "version.txt", render_version(day, job.base_url, message))
    updatelist = _updatelist(root, job, list(by_set))
    _write(root / "updatelist.txt", render_updatelist(updatelist))
    shipped = sorted(p for p in root.rglob("*") if p.is_file())
    report.files = len(shipped)
    report.bytes = sum(p.stat().st_size for p in shipped)


def _write_decks(
    root: Path, db, job: _Job, safe_by_key: dict, report: ExportReport
) -> list[packs.FixedPack]:
    """Each starter deck as ``decks/<deck>.dek`` and as a fixed pack.

    A database without the bundled set's cards (another game's data) cannot build them, so a
    deck naming unknown cards is left out with a message rather than failing the export.
    """
    from lackey_plugin.dek import write_dek
    from zcards.decks import ResolvedEntry, read_deck, resolve_deck

    fixed = []
    for path in job.decks:
        resolved = resolve_deck(read_deck(path), db)
        if not resolved.ok:
            report.messages.append(
                f"starter deck {path.name} left out: "
                f"{len(resolved.unknown)} of its cards are not in the database"
            )
            continue
        entries = [
            ResolvedEntry(entry.count, safe_by_key[entry.card.key], entry.section)
            for entry in resolved.entries
        ]
        stem = safe_component(path.stem, "deck")
        _write(root / "decks" / f"{stem}.dek", write_dek(entries, job.game))
        merged: dict[tuple[str, str], tuple[Card, int]] = {}
        for entry in entries:
            _, count = merged.get(entry.card.key, (entry.card, 0))
            merged[entry.card.key] = (entry.card, count + entry.count)
        title = path.stem.replace("-", " ").replace("_", " ").title()
        fixed.append(packs.FixedPack(title, BOOSTER_IMAGE, list(merged.values())))
    return fixed


def _render_images(root: Path, by_set: dict[str, list[Card]], dpi: int, progress: Progress) -> None:
    """Card faces per set, plus the card back and the spawned-card image.

    The cards are already sanitised, and the renderer names images by the same rule
    (:mod:`zcards.safe_names`, idempotent on safe values), so each face lands at the path the
    card data names.
    """
    from zcards.cardface import render_card_images, render_cardback, render_spawned

    total = sum(len(cards) for cards in by_set.values())
    done = 0

    def advance(faces: int) -> None:
        nonlocal done
        done += faces
        progress("card images", done, total)

    progress("card images", done, total)
    for set_name, cards in by_set.items():
        end = done + len(cards)
        render_card_images(cards, root / "sets" / "setimages" / set_name, dpi=dpi, progress=advance)
        if done < end:  # cards sharing an ImageFile share one face: count cards, not faces
            advance(end - done)
    render_cardback(root / "cardback.jpg", dpi)
    render_spawned(root / "spawned.jpg", dpi)


def _updatelist(root: Path, job: _Job, sets: list[str]) -> UpdateList:
    """Every shipped file with its checksum; the background installs under Lackey's root."""
    name, base_url = job.name, job.base_url
    background = background_name(name)
    entries = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        local = relative if relative == background else f"plugins/{name}/{relative}"
        checksum = unambiguous_checksum(path)
        entries.append(UpdateEntry(local, base_url + quote(relative), checksum))
    general = [base_url + quote(f"sets/setimages/{set_name}/") for set_name in sets]
    return UpdateList(name, format_date(job.day), entries, card_general_urls=general)


def unambiguous_checksum(path: Path) -> int:
    """The file's checksum, never 0 or -1: plugins list those as "skip" / "always download".

    The checksum is a plain byte sum, so about one image in 5,000 really sums to 0 or -1.
    A JPEG (or PNG) ignores bytes after its end marker, so one trailing byte moves it to 1.
    """
    checksum = checksum_file(path)
    if checksum in (0, -1) and path.suffix.lower() in (".jpg", ".png"):
        with path.open("ab") as handle:
            handle.write(b"\x01" if checksum == 0 else b"\x02")
        checksum = checksum_file(path)
    return checksum


def _self_check(build: Path, name: str) -> None:
    """Lint the build as strictly as possible: ship nothing a user's Lackey could trip on."""
    from lackey_plugin.lint import lint_plugin
    from lackey_plugin.lint_urls import PLACEHOLDER_URL

    # A placeholder base URL is the caller's choice, and the report already says so.
    findings = [f for f in lint_plugin(build, name=name) if f.code != PLACEHOLDER_URL]
    if findings:
        details = "\n".join(str(finding) for finding in findings[:20])
        raise ZcardsError(f"the exported plugin failed its own lint:\n{details}")


def _same_tree(left: Path, right: Path) -> bool:
    def files(root: Path) -> list[str]:
        return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())

    names = files(left)
    if not right.is_dir() or names != files(right):
        return False
    return all(filecmp.cmp(left / n, right / n, shallow=False) for n in names)


def _folder_mode() -> int:
    """The mode a new folder gets under the user's umask (mkdtemp's 0o700 would hide it)."""
    return 0o777 & ~current_umask()
