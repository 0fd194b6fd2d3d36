"""``zcards build``: everything the bundled set produces, offline, into one output folder.

The build is a list of steps run in order; each gets the shared :class:`BuildContext` and
returns a :class:`StepResult`. Later parts of zcards (plugin export, proxy sheets) add a step
to :data:`STEPS` and touch nothing else. Every step writes atomically (temp file, then rename),
so an interrupted build never leaves a half-written output behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lackey_plugin.export import export_plugin
from zcards.db import iter_cards, open_db
from zcards.importer import import_sources
from zcards.proxies import write_proxies
from zcards.resources import BUNDLED_SET

DEFAULT_OUT = Path("build")


@dataclass(frozen=True)
class StepResult:
    name: str
    outputs: tuple[Path, ...]
    summary: str


@dataclass
class BuildContext:
    out_dir: Path
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
    """Import the bundled set into a fresh ``cards.db`` and swap it in atomically."""
    target = context.db_path
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)
    try:
        report = import_sources(temporary, [str(BUNDLED_SET)])
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return StepResult("database", (target,), f"{report.added} cards in {target}")


def proxies_step(context: BuildContext) -> StepResult:
    """Proxy sheets (Letter, poker size) for every card of the built database."""
    target = context.out_dir / "proxies.pdf"
    report = write_proxies(list(iter_cards(open_db(context.db_path))), target)
    return StepResult("proxies", (target,), f"{report.pages} pages of proxies in {target}")


def plugin_step(context: BuildContext) -> StepResult:
    """The LackeyCCG plugin ``OUT/plugin/zombieccg/`` from the fresh database."""
    report = export_plugin(context.db_path, context.out_dir / "plugin")
    state = "unchanged" if report.unchanged else f"{report.files} files"
    summary = f"Lackey plugin {report.version} in {report.plugin_dir} ({state})"
    return StepResult("plugin", (report.plugin_dir,), summary)


STEPS: list[tuple[str, Step]] = [
    ("database", database_step),
    ("plugin", plugin_step),
    ("proxies", proxies_step),
]


def build(
    out_dir: str | os.PathLike[str] = DEFAULT_OUT,
    steps: Sequence[str] | None = None,
    on_step: Callable[[StepResult], None] | None = None,
) -> BuildResult:
    """Run the build steps (all by default, or those named in ``steps``) into ``out_dir``.

    ``on_step`` hears of each finished step, so a terminal can show progress as it goes.
    """
    known = [name for name, _ in STEPS]
    unknown = [name for name in steps or () if name not in known]
    if unknown:
        raise ValueError(f"unknown build step(s) {', '.join(unknown)}; known: {', '.join(known)}")
    context = BuildContext(Path(out_dir))
    context.out_dir.mkdir(parents=True, exist_ok=True)
    for name, step in STEPS:
        if steps is None or name in steps:
            context.results.append(step(context))
            if on_step is not None:
                on_step(context.results[-1])
    return BuildResult(context.out_dir, context.db_path, tuple(context.results))
