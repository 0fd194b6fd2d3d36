"""``zcards import``, ``zcards changes`` and ``zcards build``: filling the card database."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from zcards.cli.common import (
    art_option,
    db_option,
    effect_rows,
    effects_option,
    format_option,
    game_option,
    progress,
    stage_progress,
)
from zcards.cli.output import emit_delimited, emit_json
from zcards.ingest.provenance import PRUNE_SHARE
from zcards.publish.build import DEFAULT_OUT, STEPS, BuildResult, StepResult
from zcards.resources import BUNDLED_SET
from zcards.store.changes import CardChange, printable, run_changes, undo_run
from zcards.store.contents import describe_database
from zcards.store.db import find_db, named_db, open_db, resolve_db_path

if TYPE_CHECKING:
    from lackey_plugin.gamefile import GameFile

_CHANGE_COLUMNS = ("run", "action", "set", "name", "fields")


@click.command("import")
@click.argument("sources", nargs=-1)
@db_option
@click.option(
    "--bundled", is_flag=True, help="Import the bundled set too (alpha: 100 cards, 3 decks)."
)
@click.option("--skip-bad-rows", is_flag=True, help="Import the good rows; report each bad one.")
@click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")
@click.option("--verbose", "-v", is_flag=True, help="List the changed cards, however many.")
@click.option(
    "--prune",
    is_flag=True,
    help=f"Allow removing more than {PRUNE_SHARE:.0%} of a source's cards.",
)
@game_option
@effects_option
@format_option(("text", "json"), "text")
def import_command(
    sources: tuple[str, ...],
    db_path: Path | None,
    bundled: bool,
    skip_bad_rows: bool,
    dry_run: bool,
    verbose: bool,
    prune: bool,
    game: GameFile | None,
    effects_file: Path | None,
    output_format: str,
) -> None:
    """Import card data from SOURCE paths or URLs.

    A SOURCE is a Lackey card-data file, a plugin's updatelist.txt (its card data files and
    image URLs are followed), a plugin folder, or an HTML page with card tables or links to
    card-data files. The import is one transaction: on any error nothing changes.
    An import that would remove more than a small share of a source's cards stops unless
    --prune is given; 'zcards changes undo RUN' puts back what a run removed or changed.
    An import that creates the database says where it is and what it holds.
    With --effects, the designer's effect rows are kept with the cards: every later command
    that reads this database reads them too.
    """
    from zcards.ingest.importer import import_sources

    if not sources and not bundled:
        raise click.UsageError("give a SOURCE to import, or --bundled")
    target = resolve_db_path(db_path)
    existed = target.exists()
    report = import_sources(
        target,
        [*sources, *([str(BUNDLED_SET)] if bundled else [])],
        skip_bad_rows=skip_bad_rows,
        dry_run=dry_run,
        prune=prune,
        progress=progress,
        game=game,
        effects=_effects_text(effects_file),
    )
    database = describe_database(target, created=not existed and not dry_run, written=not dry_run)
    if output_format == "json":
        emit_json(report.to_dict() | {"database": database.to_dict()})
        return
    click.echo("\n".join(report.summary(verbose=verbose)))
    if database.created:
        click.echo("\n".join(database.created_lines(suggest_bundled=named_db(db_path) is None)))


def _effects_text(path: Path | None) -> tuple[str, str] | None:
    """An effects file's name and text, its rows checked first (nothing is imported when
    they are wrong)."""
    if path is None:
        return None
    effect_rows(path)
    return path.name, path.read_text(encoding="utf-8")


@click.group("changes", invoke_without_command=True)
@db_option
@click.option("--run", "run_id", type=int, default=None, help="Import run id (default: latest).")
@format_option(("text", "json", "jsonl", "csv", "tsv"))
@click.pass_context
def changes_command(
    context: click.Context, db_path: Path | None, run_id: int | None, output_format: str
) -> None:
    """Cards added, removed or changed (field by field) by an import run.

    'zcards changes undo RUN' reverts a run. The list is streamed from the database.
    """
    if context.invoked_subcommand is not None:
        context.obj = db_path  # 'zcards changes --db X undo RUN' means database X too
        return
    db = open_db(db_path)
    run, changes = run_changes(db, run_id)
    _emit_changes(run, changes, output_format, lambda: run_changes(db, run)[1])


@changes_command.command("undo")
@click.argument("run_id", metavar="RUN", type=int)
@db_option
@format_option(("text", "json"), "text")
@click.pass_context
def undo_command(
    context: click.Context, run_id: int, db_path: Path | None, output_format: str
) -> None:
    """Undo import run RUN: its added cards go, removed and changed ones come back.

    The undo is a run of its own in the change log. It is refused when a later run changed
    some of the same cards (undo that one first).
    """
    report = undo_run(resolve_db_path(db_path or context.obj), run_id)
    data = {
        "run": report.run_id,
        "undoes": report.undone,
        "added": report.added,
        "changed": report.changed,
        "removed": report.removed,
    }
    if output_format == "json":
        emit_json(data)
        return
    click.echo(
        f"run {report.run_id} undid run {report.undone}: {report.added} added, "
        f"{report.changed} changed, {report.removed} removed (see 'zcards changes')"
    )


def _emit_changes(
    run: int | None,
    changes: Iterator[CardChange],
    output_format: str,
    again: Callable[[], Iterator[CardChange]],
) -> None:
    """Changes written as they are read: memory does not grow with the run."""
    out = sys.stdout
    if output_format == "json":
        out.write(f'{{"run": {json.dumps(run)}, "changes": [')
        for index, change in enumerate(changes):
            out.write(("," if index else "") + "\n  " + _json(change.to_dict()))
        out.write("\n]}\n")
    elif output_format == "jsonl":
        for change in changes:
            out.write(_json({"run": run, **change.to_dict()}) + "\n")
    elif output_format in ("csv", "tsv"):
        emit_delimited((_cells(run, change) for change in changes), _CHANGE_COLUMNS, output_format)
    else:
        widths = [len(column) for column in _CHANGE_COLUMNS]
        for change in changes:  # first pass: column widths only, nothing kept
            cells = [printable(cell) for cell in _cells(run, change)]
            widths = [max(width, len(cell)) for width, cell in zip(widths, cells, strict=True)]
        _table_line(out, _CHANGE_COLUMNS, widths)
        _table_line(out, ["-" * width for width in widths], widths)
        for change in again():
            _table_line(out, [printable(cell) for cell in _cells(run, change)], widths)
    out.flush()


def _cells(run: int | None, change: CardChange) -> list[str]:
    fields = _fields(change.fields)
    return ["" if run is None else str(run), change.action, change.set_name, change.name, fields]


def _table_line(out: TextIO, cells: Iterable[str], widths: list[int]) -> None:
    line = "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
    out.write(line.rstrip() + "\n")


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)


@click.command("build")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Output folder.",
)
@click.option(
    "--step",
    "steps",
    multiple=True,
    type=click.Choice([name for name, _ in STEPS]),
    help="Run only this step (repeatable); default: all steps.",
)
@click.option(
    "--base-url",
    default=None,
    help="Where the plugin folder will be published (default: a placeholder, for local "
    "testing only).",
)
@art_option
@format_option(("text", "json"), "text")
def build_command(
    out_dir: Path,
    steps: tuple[str, ...],
    base_url: str | None,
    art_dir: Path | None,
    output_format: str,
) -> None:
    """Build everything from the bundled set, offline.

    Writes OUT/cards.db (the card database), OUT/plugin/zombieccg/ (the LackeyCCG plugin)
    and OUT/proxies.pdf (proxy sheets for every card). The other commands read
    build/cards.db by default when run from this folder. A rebuild draws only the card faces
    whose card, art or template changed (the render cache: $ZCARDS_CACHE, else
    ~/.cache/zcards; ZCARDS_CACHE=off turns it off).
    """
    from zcards.publish.build import build

    text = output_format == "text"
    with stage_progress() as report_stage:
        result = build(
            out_dir,
            steps or None,
            on_step=_echo_step if text else None,
            base_url=base_url,
            progress=report_stage,
            art_dir=art_dir,
        )
    if not text:
        emit_json(
            [
                {
                    "step": s.name,
                    "outputs": [str(p) for p in s.outputs],
                    "summary": s.summary,
                    "notes": list(s.notes),
                }
                for s in result.steps
            ]
        )
    elif any(step.name == "database" for step in result.steps):
        click.echo(_how_to_query(result))


def _echo_step(step: StepResult) -> None:
    click.echo(f"{step.name}: {step.summary}")
    for note in step.notes:
        click.echo(f"note: {note}", err=True)


def _how_to_query(result: BuildResult) -> str:
    """Where the database is and how the other commands find it from here."""
    found = find_db()
    if found is not None and found.resolve() == result.db_path.resolve():
        return (
            f"The card database is {result.db_path}; from this folder every command reads it:\n"
            "  zcards search 'k:fast'    zcards card \"gross ghoul\"    zcards stats"
        )
    return (
        f"The card database is {result.db_path}; point the other commands at it:\n"
        f"  zcards search 'k:fast' --db {result.db_path}    "
        f"(or export ZCARDS_DB={result.db_path})"
    )


def _fields(fields: Mapping[str, list[Any]]) -> str:
    return "; ".join(f"{name}: {old!r} -> {new!r}" for name, (old, new) in fields.items())


COMMANDS = [import_command, changes_command, build_command]
