"""``zcards audit``: every rule violation in a recorded game, with rule number and log line."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from zcards.cli.common import (
    EXIT_FINDING,
    EXIT_INPUT,
    effect_rows,
    format_option,
    game_inputs,
    progress,
)
from zcards.cli.output import emit_json
from zcards.errors import UsageError
from zcards.rules.load import audit_log, deck_sizes, load_cards
from zcards.rules.report import DEFAULT_SHOW, SHOWN

if TYPE_CHECKING:
    from zcards.cards.model import Card
    from zcards.game.table import Table
    from zcards.rules.report import AuditReport


@click.command("audit")
@click.argument(
    "log_files",
    metavar="LOG...",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
)
@game_inputs
@click.option(
    "--show",
    default=",".join(DEFAULT_SHOW),
    show_default=True,
    metavar="WHAT",
    callback=lambda _ctx, _param, value: parse_show(value),
    help="What the text report lists: violations, unverifiable, warnings, several joined by "
    "commas, or all. The summary counts everything; json and jsonl always hold everything.",
)
@click.option(
    "--from-save",
    "save_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="A Lackey saved game (saved/AutoSave1.txt, or one zcards log state --format lackey "
    "wrote) the log starts from: a log that begins mid-game gets the table it needs.",
)
@format_option(("text", "json", "jsonl"), "text")
def audit_command(
    log_files: tuple[Path, ...],
    db_path: Path | None,
    card_file: Path | None,
    effects_file: Path | None,
    decks: tuple[str, ...],
    players: tuple[str, ...],
    pov: str | None,
    show: tuple[str, ...],
    save_file: Path | None,
    output_format: str,
) -> None:
    """Audit each LOG, a saved LackeyCCG game log, against the rules (docs/rules.md).

    Exit code 0 when no violation was found, 1 when some were, 2 when an input is unusable.
    The JSON output (one LOG) follows docs/audit-schema.json. With jsonl, each log gives one
    line as soon as it is audited: {"log": PATH, "report": REPORT} (REPORT as in the schema)
    or {"log": PATH, "error": MESSAGE} for an unusable log, and the others go on.
    """
    if output_format == "json" and len(log_files) > 1:
        raise UsageError("--format json audits one log; use --format jsonl for several")
    cards = load_cards(db_path, card_file, effect_rows(effects_file))
    sizes = deck_sizes(decks)
    start = _saved_table(save_file, cards) if save_file is not None else None
    # What start-up made (modules, the card data) lives as long as the command: out of the
    # collector's sight, its full collections only scan what the audit allocates.
    gc.freeze()
    worst = 0
    several = len(log_files) > 1
    with progress(log_files, "Auditing", enabled=several) as files:
        for log_file in files:
            try:
                report = audit_log(
                    log_file, cards, players=players, pov=pov, decks=sizes, start=start
                )
            except UsageError as error:
                if not several:
                    raise
                _emit_failure(log_file, error, output_format)
                worst = EXIT_INPUT
                continue
            _emit_report(log_file, report, output_format, several=several, show=show)
            if report.violations:
                worst = max(worst, EXIT_FINDING)
    if worst:
        sys.exit(worst)


def _saved_table(path: Path, cards: list[Card]) -> Table:
    """The table of a Lackey saved game (exit 2 when it cannot be read)."""
    from lackey_plugin.errors import LackeyError
    from lackey_plugin.saved import read_saved_game
    from lackey_plugin.text import decode_bytes
    from zcards.rules.saved_table import table_of_save

    try:
        return table_of_save(read_saved_game(decode_bytes(path.read_bytes())), cards)
    except (LackeyError, OSError) as error:
        raise UsageError(f"--from-save {path}: {error}") from error


def parse_show(value: str) -> tuple[str, ...]:
    """``--show violations,warnings`` -> the lists named, in report order (``all``: every one)."""
    words = {word.strip() for word in value.split(",") if word.strip()}
    if "all" in words:
        return SHOWN
    unknown = sorted(words - set(SHOWN))
    if unknown or not words:
        raise click.BadParameter(
            f"{', '.join(unknown) or 'nothing'}: choose from {', '.join(SHOWN)} or all",
            param_hint="--show",
        )
    return tuple(word for word in SHOWN if word in words)


def _emit_report(
    log_file: Path, report: AuditReport, output_format: str, *, several: bool, show: tuple[str, ...]
) -> None:
    if output_format == "json":
        emit_json(report.to_json())
    elif output_format == "jsonl":
        _write_line({"log": str(log_file), "report": report.to_json()})
    else:
        if several:
            click.echo(f"== {log_file} ==")
        click.echo(report.to_text(show), nl=False)


def _emit_failure(log_file: Path, error: UsageError, output_format: str) -> None:
    click.echo(f"Error: {error}", err=True)
    if output_format == "jsonl":
        _write_line({"log": str(log_file), "error": str(error)})


def _write_line(document: dict[str, Any]) -> None:
    """One compact JSON line, written (and flushed) as soon as its log is done."""
    from lackey_plugin.compact_json import encode_compact

    sys.stdout.write(encode_compact(document) + "\n")
    sys.stdout.flush()


COMMANDS = [audit_command]
