"""``zcards log``: read LackeyCCG game logs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from lackey_plugin.log.parser import ParsedLog, parse_log
from lackey_plugin.log.serial import event_to_dict
from zcards.cli.common import emit_json


@click.group("log")
def log_group() -> None:
    """Read LackeyCCG game logs (saved with /log)."""


@log_group.command("parse")
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "jsonl"]),
    default="text",
    show_default=True,
    help="json: a list of events; jsonl: one JSON object per event (for scripts; "
    "the summary goes to stderr).",
)
@click.option(
    "--player",
    "players",
    multiple=True,
    metavar="NAME",
    help="A player's name (repeatable); needed only for names the log never "
    "introduces with a seat, join, new-game or deck-load line.",
)
@click.option("--strict", is_flag=True, help="Fail on the first line no template knows.")
def parse_command(
    log_file: Path, output_format: str, players: tuple[str, ...], strict: bool
) -> None:
    """Print the events of LOG_FILE and a summary (events by kind, unparsed lines)."""
    parsed = parse_log(log_file, players=players, strict=strict)
    if output_format != "text":
        rows = [event_to_dict(event) for event in parsed.events]
        if output_format == "json":
            emit_json(rows)
        else:
            for row in rows:
                click.echo(json.dumps(row, ensure_ascii=False))
        _summary(parsed, err=True)
        return
    for event in parsed.events:
        fields = event_to_dict(event)
        details = " ".join(
            f"{key}={value!r}"
            for key, value in fields.items()
            if key not in ("kind", "line", "timestamp", "seconds") and value is not None
        )
        click.echo(f"{event.line:>6}  {event.kind:<13} {details}")
    _summary(parsed, err=False)


def _summary(parsed: ParsedLog, *, err: bool) -> None:
    kinds = parsed.kinds()
    echo = click.echo
    echo(
        f"{parsed.source}: {len(parsed.events)} events, {len(parsed.games)} game(s), "
        f"players: {', '.join(parsed.players) or '-'}",
        err=err,
    )
    for kind, count in sorted(kinds.items(), key=lambda item: (-item[1], item[0])):
        echo(f"  {kind:<13} {count}", err=err)
    if parsed.unparsed:
        echo(f"{len(parsed.unparsed)} unparsed line(s):", err=err)
        for event in parsed.unparsed:
            echo(f"  line {event.line}: {event.text}", err=err)


COMMANDS = [log_group]
