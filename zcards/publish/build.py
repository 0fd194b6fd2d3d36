"""``zcards build``: everything the bundled set produces, offline, into one output folder.

The build is a list of steps run in order; each gets the shared :class:`BuildContext` and
returns a :class:`StepResult`. Later parts of zcards (plugin export, proxy sheets) add a step
to :data:`STEPS` and touch nothing else. Every step writes atomically (a temporary file, then a
rename; the database through :mod:`zcards.store.placing`), so an interrupted build never
leaves a half-written output behind. Steps import what they run when they run, so importing
this module (for ``zcards --help``, say) costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from zcards.errors import ZcardsError
from zcards.publish.native import native
from zcards.resources import BUNDLED_SET
from zcards.store.db import BUILD_DIR

DEFAULT_OUT = BUILD_DIR
Progress = Callable[[str, int, int], None]  # (stage, done, total)

PANGO_MISSING = """\
WeasyPrint, which draws the card images and proxy sheets, cannot load the Pango library:
  {reason}
Install Pango (1.44 or newer), then run the build again:
  Debian/Ubuntu:  sudo apt install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0
  macOS:          brew install pango
Nothing was written. ('zcards build --step database' needs no Pango.)"""


@dataclass(frozen=True)
class StepResult:
    name: str
    outputs: tuple[Path, ...]
    summary: str
    notes: tuple[str, ...] = ()


@dataclass
class BuildContext:
    out_dir: Path
    base_url: str | None = None
    progress: Progress | None = None
    art_dir: Path | None = None
    results: list[StepResult] = field(default_factory=list)

    @property
    def db_path(self) -> Path:
        return self.out_dir / "cards.db"


@dataclass(frozen=True)
class BuildResult:
    out_dir: Path
    db_path: Path
    steps: tuple[StepResult, ...]


Step = Callable[[BuildContext], StepResult]


def database_step(context: BuildContext) -> StepResult:
    """Import the bundled set into a fresh database beside ``cards.db``, then put it in place
    (:func:`~zcards.store.placing.place_database`: into an existing database through SQLite,
    so no stale WAL of the old one can ever apply to the new content)."""
    from zcards.ingest.importer import import_sources
    from zcards.store.open import database_errors
    from zcards.store.placing import place_database, remove_temporary, temporary_path

    target = context.db_path
    temporary = temporary_path(target)
    try:
        report = import_sources(temporary, [str(BUNDLED_SET)])
        with database_errors(target):
            place_database(temporary, target, replace=True)
    finally:
        remove_temporary(temporary)
    return StepResult("database", (target,), f"{report.added} cards in {target}")


def proxies_step(context: BuildContext) -> StepResult:
    """Proxy sheets (Letter, poker size) for every card of the built database."""
    from zcards.publish.proxies import write_proxies
    from zcards.store.db import iter_cards, open_db

    target = context.out_dir / "proxies.pdf"
    cards = list(iter_cards(open_db(context.db_path)))
    report = write_proxies(
        cards,
        target,
        art_dir=context.art_dir,
        progress=_counting(context.progress, "proxies", cards),
    )
    summary = (
        f"{report.pages} pages of proxies in {target} ({_drawn(report.rendered, report.reused)})"
    )
    return StepResult("proxies", (target,), summary, tuple(report.art_problems))


def plugin_step(context: BuildContext) -> StepResult:
    """The LackeyCCG plugin ``OUT/plugin/zombieccg/`` from the fresh database."""
    from lackey_plugin.export import SameDayRelease
    from zcards.publish.plugin_export import export_plugin

    try:
        report = export_plugin(
            context.db_path,
            context.out_dir / "plugin",
            base_url=context.base_url,
            progress=context.progress,
            art_dir=context.art_dir,
        )
    except SameDayRelease as error:  # build has no --date: say what does
        raise ZcardsError(
            f"{error.target} already holds today's release {error.version} with other "
            "content, and a build releases with today's date, so the plugin was left as it "
            f"was (the card database and proxies are rebuilt): run 'zcards plugin export "
            f"--db {context.db_path} --out {context.out_dir / 'plugin'} --date YYYY-MM-DD' "
            "with a later date, or build again tomorrow"
        ) from None
    state = "unchanged" if report.unchanged else f"{report.files} files"
    faces = _drawn(report.faces_rendered, report.faces_reused)
    summary = f"Lackey plugin {report.version} in {report.plugin_dir} ({state}; {faces})"
    notes = tuple(report.art_problems)
    if not context.base_url:
        notes += (placeholder_note(report.plugin_dir),)
    return StepResult("plugin", (report.plugin_dir,), summary, notes)


def _drawn(rendered: int, reused: int) -> str:
    """How much rendering a step did: faces drawn, and faces the render cache supplied."""
    return f"{rendered} card faces drawn, {reused} from the cache"


def placeholder_note(plugin_dir: Path) -> str:
    """Said whenever a plugin is built without the address it will be published at."""
    return (
        f"no --base-url: {plugin_dir}'s updatelist.txt and version.txt point at a placeholder "
        "address, so the plugin is for local testing only; pass --base-url with the address "
        "you will publish the folder at before sharing it"
    )


STEPS: list[tuple[str, Step]] = [
    ("database", database_step),
    ("plugin", plugin_step),
    ("proxies", proxies_step),
]
RENDERING_STEPS = frozenset({"plugin", "proxies"})  # these draw with WeasyPrint (Pango)


def require_pango() -> None:
    """Fail before anything is written when WeasyPrint cannot load Pango (a system library
    pip cannot install), naming the packages to install. The libraries are probed directly
    (:mod:`zcards.publish.native`): WeasyPrint is imported only when they are not found, to
    say why, or when a face must be drawn."""
    if native() is not None:
        return
    try:
        import weasyprint  # noqa: F401
    except OSError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        raise ZcardsError(PANGO_MISSING.format(reason=reason)) from None


def build(
    out_dir: str | os.PathLike[str] = DEFAULT_OUT,
    steps: Sequence[str] | None = None,
    on_step: Callable[[StepResult], None] | None = None,
    *,
    base_url: str | None = None,
    progress: Progress | None = None,
    art_dir: str | os.PathLike[str] | None = None,
) -> BuildResult:
    """Run the build steps (all by default, or those named in ``steps``) into ``out_dir``.

    ``on_step`` hears of each finished step and ``progress`` of the work inside a step, so a
    terminal can show how far the build is. ``base_url`` is where the plugin will be
    published; without it the plugin's URLs are placeholders (see :func:`placeholder_note`).
    ``art_dir``: the card art for the faces (:class:`zcards.publish.cardart.ArtFolder`).
    """
    known = [name for name, _ in STEPS]
    unknown = [name for name in steps or () if name not in known]
    if unknown:
        raise ValueError(f"unknown build step(s) {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = [(name, step) for name, step in STEPS if steps is None or name in steps]
    if RENDERING_STEPS & {name for name, _ in chosen}:
        require_pango()
    art = None
    if art_dir is not None:  # checked before anything is written
        from zcards.publish.cardart import art_folder

        art = art_folder(art_dir)
    context = BuildContext(Path(out_dir), base_url=base_url, progress=progress, art_dir=art)
    context.out_dir.mkdir(parents=True, exist_ok=True)
    for _name, step in chosen:
        context.results.append(step(context))
        if on_step is not None:
            on_step(context.results[-1])
    return BuildResult(context.out_dir, context.db_path, tuple(context.results))


def _counting(
    progress: Progress | None, stage: str, items: Sequence[object]
) -> Callable[[int], None] | None:
    """Turn ``progress(n more done)`` callbacks into ``progress(stage, done, total)``."""
    if progress is None:
        return None
    done = 0

    def advance(count: int) -> None:
        nonlocal done
        done += count
        progress(stage, done, len(items))

    return advance
