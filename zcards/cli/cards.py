"""``zcards import``, ``zcards changes`` and ``zcards build``: filling the card database."""

from __future__ import annotations

from pathlib import Path

import click

from zcards.build import DEFAULT_OUT, STEPS, BuildResult, StepResult
from zcards.cli.common import (
    db_option,
    emit_json,
    emit_rows,
    format_option,
    progress,
    stage_progress,
)
from zcards.db import find_db, open_db, resolve_db_path


@click.command("import")
@click.argument("sources", nargs=-1, required=True)
@db_option
@click.option("--skip-bad-rows", is_flag=True, help="Import the good rows; report each bad one.")
@click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")
@click.option("--verbose", "-v", is_flag=True, help="List every changed card, however many.")
@format_option(("text", "json"), "text")
def import_command(
    sources: tuple[str, ...],
    db_path: Path | None,
    skip_bad_rows: bool,
    dry_run: bool,
    verbose: bool,
    output_format: str,
) -> None:
    """Import card data from SOURCE paths or URLs.

    A SOURCE is a Lackey card-data file, a plugin's updatelist.txt (its card data files and
    image URLs are followed), a plugin folder, or an HTML page with card tables or links to
    card-data files. The import is one transaction: on any error nothing changes.
    """
    from zcards.importer import import_sources

    report = import_sources(
        resolve_db_path(db_path),
        list(sources),
        skip_bad_rows=skip_bad_rows,
        dry_run=dry_run,
        progress=progress,
    )
    if output_format == "json":
        emit_json(report.to_dict())
    else:
        click.echo("\n".join(report.summary(verbose=verbose)))


@click.command("changes")
@db_option
@click.option("--run", "run_id", type=int, default=None, help="Import run id (default: latest).")
@format_option(("text", "json", "csv", "tsv"))
def changes_command(db_path: Path | None, run_id: int | None, output_format: str) -> None:
    """Cards added, removed or changed (field by field) by an import run."""
    from zcards.changes import run_changes

    db = open_db(db_path)
    run, changes = run_changes(db, run_id)
    if output_format == "json":
        emit_json({"run": run, "changes": [change.to_dict() for change in changes]})
        return
    rows = [
        {**change.to_dict(), "run": run, "fields": _fields(change.fields)} for change in changes
    ]
    emit_rows(rows, ["run", "action", "set", "name", "fields"], output_format)


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
@format_option(("text", "json"), "text")
def build_command(
    out_dir: Path, steps: tuple[str, ...], base_url: str | None, output_format: str
) -> None:
    """Build everything from the bundled set, offline.

    Writes OUT/cards.db (the card database), OUT/plugin/zombieccg/ (the LackeyCCG plugin)
    and OUT/proxies.pdf (proxy sheets for every card). The other commands read
    build/cards.db by default when run from this folder.
    """
    from zcards.build import build

    text = output_format == "text"
    with stage_progress() as report_stage:
        result = build(
            out_dir,
            steps or None,
            on_step=_echo_step if text else None,
            base_url=base_url,
            progress=report_stage,
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


def _fields(fields: dict) -> str:
    return "; ".join(f"{name}: {old!r} -> {new!r}" for name, (old, new) in fields.items())


COMMANDS = [import_command, changes_command, build_command]
