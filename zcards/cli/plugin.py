"""``zcards plugin``: export, lint, verify and checksum LackeyCCG plugins."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from zcards.cli.common import art_option, db_option, format_option, game_option, stage_progress
from zcards.cli.output import emit_json, emit_rows
from zcards.errors import ProblemsFound, UsageError

if TYPE_CHECKING:
    from lackey_plugin.gamefile import GameFile
    from lackey_plugin.updatelist import UpdateList

VERIFY_TIMEOUT = 600.0  # seconds: a few stalling files cannot hold a run up


@click.group()
def plugin() -> None:
    """Build, check and verify the LackeyCCG plugin."""


def _parse_date(_ctx: click.Context, _param: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as error:
        raise click.BadParameter("expected YYYY-MM-DD") from error


@plugin.command("export")
@db_option
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder that receives <name>/ (replaced atomically).",
)
@click.option("--name", default=None, help="Plugin folder name (default: the game's name).")
@click.option(
    "--base-url",
    default=None,
    help="Where the plugin folder is published (for updatelist.txt and version.txt URLs).",
)
@click.option(
    "--message",
    default=None,
    help="The release's message in version.txt (default: the game, date and card count).",
)
@click.option(
    "--date",
    "release",
    callback=_parse_date,
    default=None,
    help="Release date YYYY-MM-DD (default: the last import, else today).",
)
@click.option(
    "--dpi",
    default=150,
    show_default=True,
    type=click.IntRange(30, 600),
    help="Card image resolution.",
)
@click.option(
    "--deck",
    "decks",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Starter deck list to ship (repeatable; default: the bundled starters).",
)
@art_option
@game_option
@click.option(
    "--previous",
    default=None,
    help="The previous release's updatelist.txt (path or URL), for uninstall.txt "
    "(default: the one already in OUT/NAME/).",
)
@click.option(
    "--trust-game",
    is_flag=True,
    help="Let a game definition stored in the database by someone else (another machine, "
    "another user) ship the files it names; its paths then start from the database's folder.",
)
@format_option(("text", "json"))
def export_command(
    db_path: Path | None,
    out_dir: Path,
    name: str | None,
    base_url: str | None,
    message: str | None,
    release: date | None,
    dpi: int,
    decks: tuple[Path, ...],
    art_dir: Path | None,
    game: GameFile | None,
    previous: str | None,
    trust_game: bool,
    output_format: str,
) -> None:
    """Write a complete, checksummed Lackey plugin to OUT/NAME/.

    The game is the --game definition, else the one stored in the database by an import,
    else Zombie CCG: its plugininfo, card data columns, faces, chat lines and shipped files.

    Card faces already drawn for the same view, art and resolution come from the render
    cache ($ZCARDS_CACHE, else ~/.cache/zcards; ZCARDS_CACHE=off turns it off).
    """
    from zcards.publish.plugin_export import export_plugin

    with stage_progress() as report_stage:
        report = export_plugin(
            db_path,
            out_dir,
            name=name,
            base_url=base_url,
            release=release,
            dpi=dpi,
            decks=list(decks) or None,
            progress=report_stage,
            art_dir=art_dir,
            game=game,
            previous=_previous_updatelist(previous) if previous else None,
            message=message,
            trust_game=trust_game,
        )
    if output_format == "json":
        emit_json(report.to_dict())
        return
    for message in [*report.messages, *report.art_problems]:
        click.echo(f"note: {message}", err=True)
    state = "unchanged" if report.unchanged else "written"
    click.echo(
        f"{report.plugin_dir}: version {report.version} {state}: {report.cards} cards in "
        f"{len(report.sets)} sets, {report.files} files, {report.bytes} bytes"
    )


def _previous_updatelist(source: str) -> UpdateList:
    """The previous release's updatelist, from a file or a URL."""
    from lackey_plugin.fetch import is_url
    from lackey_plugin.inputs import read_regular
    from lackey_plugin.updatelist import parse_updatelist
    from lackey_plugin.verify import UPDATELIST_MAX_BYTES
    from zcards.ingest.download import zcards_fetcher

    if is_url(source):
        with zcards_fetcher(retries=2) as fetcher:
            return parse_updatelist(fetcher.get(source).content, source)
    path = Path(source)
    return parse_updatelist(read_regular(path, "previous updatelist", UPDATELIST_MAX_BYTES), source)


@plugin.command("init")
@click.option(
    "--from",
    "source",
    required=True,
    help="A plugin folder, or the URL of a published plugin's updatelist.txt.",
)
@click.option(
    "--out",
    "out_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The game definition file to write (TOML).",
)
@click.option("--force", is_flag=True, help="Replace OUT if it exists.")
def init_command(source: str, out_file: Path, force: bool) -> None:
    """Write a game definition file from an existing plugin, to edit and pass as --game.

    It names the plugin's stats, zones, phases and functions, its card data columns (typed
    from their values), where its card images live, and (for a folder) the packs, decks,
    formats and other files to ship as they are.
    """
    from lackey_plugin.fetch import is_url
    from lackey_plugin.files import atomic_write
    from lackey_plugin.gamefile_toml import game_toml
    from zcards.game.gamefile import init_game
    from zcards.ingest.download import zcards_fetcher

    if out_file.exists() and not force:
        raise UsageError(f"{out_file} exists (--force replaces it)")
    if is_url(source):
        with zcards_fetcher(retries=2) as fetcher:
            game = init_game(source, lambda url: fetcher.get(url).content)
    else:
        if not Path(source).is_dir():
            raise UsageError(f"{source!r} is neither a folder nor an http(s) URL")
        game = init_game(source)
    heading = (
        f"Game definition of {game.title}, written by 'zcards plugin init --from {source}'.\n"
        "Edit it freely; docs/game-definition.md describes every key."
    )
    text = game_toml(game, heading=heading, folder=out_file.absolute().parent)
    atomic_write(out_file, text.encode("utf-8"))
    click.echo(f"{out_file}: {len(game.columns)} columns, {len(game.game.phases)} phases")


@plugin.command("lint")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--name", default=None, help="Install name if the folder is named differently.")
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@format_option(("text", "json"))
def lint_command(folder: Path, name: str | None, strict: bool, output_format: str) -> None:
    """Check a plugin folder; exit 1 on errors (or on any finding with --strict)."""
    from lackey_plugin.lint import ERROR, lint_plugin

    findings = lint_plugin(folder, name=name)
    if output_format == "json":
        emit_json([finding.to_dict() for finding in findings])
    else:
        for finding in findings:
            click.echo(str(finding))
    errors = sum(finding.severity == ERROR for finding in findings)
    warnings = len(findings) - errors
    if output_format != "json":
        click.echo(f"{errors} errors, {warnings} warnings", err=True)
    if errors or (strict and warnings):
        raise ProblemsFound(f"{folder}: {errors} errors, {warnings} warnings")


@plugin.command("verify")
@click.argument("url")
@click.option("--images", is_flag=True, help="Also check every card image URL.")
@click.option(
    "--workers",
    default=8,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Parallel downloads.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=VERIFY_TIMEOUT,
    show_default=True,
    help="Seconds the whole run may take; files not checked by then are reported dead.",
)
@format_option(("text", "json"))
def verify_command(
    url: str, images: bool, workers: int, timeout: float, output_format: str
) -> None:
    """Download a published updatelist.txt and every file it lists; report broken ones.

    Each file streams through its checksum, so memory does not grow with the files. Every
    download has a deadline of its own, and the whole run has --timeout.
    """
    from lackey_plugin.verify import verify_plugin
    from zcards.ingest.download import zcards_fetcher

    if not url.startswith(("http://", "https://")):
        raise UsageError(f"{url!r} is not an http(s) URL")
    with zcards_fetcher(retries=2) as fetcher:
        report = verify_plugin(
            url, images=images, workers=workers, fetcher=fetcher, timeout=timeout
        )
    if output_format == "json":
        emit_json(report.to_dict())
    else:
        rows = [check.to_dict() for check in report.problems]
        if rows:
            emit_rows(rows, ["status", "local_path", "listed", "actual", "detail"], "text")
        click.echo(
            f"{report.name}: {len(report.checks)} files checked, {len(report.problems)} problems",
            err=True,
        )
    if report.problems:
        raise ProblemsFound(f"{len(report.problems)} broken files in {url}")


@plugin.command("checksum")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@format_option(("text", "json"))
def checksum_command(files: tuple[Path, ...], output_format: str) -> None:
    """Print the Lackey updatelist checksum of each FILE; a missing FILE is an error."""
    from lackey_plugin.checksum import checksum_file

    missing = [str(path) for path in files if not path.is_file()]
    if missing:
        raise UsageError(f"no such file: {', '.join(missing)}")
    rows = [{"file": str(path), "checksum": checksum_file(path)} for path in files]
    if output_format == "json":
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['checksum']}\t{row['file']}")


COMMANDS = [plugin]
