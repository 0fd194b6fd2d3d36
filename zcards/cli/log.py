"""``zcards log``: read LackeyCCG game logs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import click

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import LogLines, LogParser
from lackey_plugin.log.serial import event_to_dict, event_to_json
from zcards.cards.model import Card
from zcards.cli.common import effect_rows, format_option, game_inputs, out_option
from zcards.cli.output import emit_encoded, emit_json, write_chunked
from zcards.game.definition import ZOMBIE_GAME

MAX_UNPARSED_LISTED = 1000
"""Unparsed lines the summary lists by number (it counts all of them)."""


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
    help="json: an array of events, one per line; jsonl: one JSON object per line (for "
    "scripts; the summary goes to stderr). Both stream: memory does not grow with the log.",
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
    """Print the events of LOG_FILE and a summary (events by kind, unparsed lines).

    Events are written as they are read: memory stays flat however long the log is.
    """
    lines = LogLines(log_file)
    parser = LogParser(game=ZOMBIE_GAME, players=players, strict=strict, source=lines.source)
    tally = LogSummary()
    events = tally.count(parser.events(lines))
    if output_format == "text":
        write_chunked(map(_text_line, events))
    else:
        emit_encoded(map(event_to_json, events), output_format)
    _summary(lines.source, tally, parser.players, err=output_format != "text")
    for note in lines.notes:  # what decoding guessed (Windows-1252 lines)
        click.echo(f"{lines.source}, line {note.line}: warning: {note.message}", err=True)


def _text_line(event: ev.Event) -> str:
    details = " ".join(
        f"{key}={value!r}"
        for key, value in event_to_dict(event).items()
        if key not in ("kind", "line", "timestamp", "seconds") and value is not None
    )
    return f"{event.line:>6}  {event.kind:<13} {details}\n"


class LogSummary:
    """What the summary needs, counted while events stream past: kinds, games (split as
    :func:`~lackey_plugin.log.parser.split_games` does) and the first unparsed lines."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.games = 0
        self.unparsed: list[ev.Unparsed] = []
        self.unparsed_total = 0
        self._had_new_game = False

    def count(self, events: Iterable[ev.Event]) -> Iterator[ev.Event]:
        kinds = self.kinds
        noted = (ev.NewGame, ev.Unparsed)
        for event in events:
            kinds[event.kind] += 1
            if type(event) in noted:
                self._note(event)  # type: ignore[arg-type]
            elif not self.games:
                self.games = 1
            yield event

    def _note(self, event: ev.NewGame | ev.Unparsed) -> None:
        if isinstance(event, ev.Unparsed):
            self.unparsed_total += 1
            if len(self.unparsed) < MAX_UNPARSED_LISTED:
                self.unparsed.append(event)
            self.games = self.games or 1
            return
        if not self.games or self._had_new_game:
            self.games += 1
            self._had_new_game = False
        self._had_new_game = True


def _summary(source: str, tally: LogSummary, players: Sequence[str], *, err: bool) -> None:
    echo = click.echo
    echo(
        f"{source}: {tally.kinds.total()} events, {tally.games} game(s), "
        f"players: {', '.join(players) or '-'}",
        err=err,
    )
    for kind, count in sorted(tally.kinds.items(), key=lambda item: (-item[1], item[0])):
        echo(f"  {kind:<13} {count}", err=err)
    if tally.unparsed_total:
        echo(f"{tally.unparsed_total} unparsed line(s):", err=err)
        for event in tally.unparsed:
            echo(f"  line {event.line}: {event.text}", err=err)
        if tally.unparsed_total > len(tally.unparsed):
            echo(f"  ... and {tally.unparsed_total - len(tally.unparsed)} more", err=err)


@log_group.command("state")
@click.argument("log_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--at", "line", type=click.IntRange(min=1), required=True, metavar="LINE", help="A log line."
)
@game_inputs
@format_option(("text", "json", "lackey"), "text")
@out_option(
    "With --format lackey: the saved game to write (e.g. saved/dispute.txt in the plugin's "
    "folder); else it is printed."
)
def state_command(
    log_file: Path,
    line: int,
    db_path: Path | None,
    card_file: Path | None,
    effects_file: Path | None,
    decks: tuple[str, ...],
    players: tuple[str, ...],
    pov: str | None,
    output_format: str,
    out: Path | None,
) -> None:
    """The table after LINE of LOG_FILE, as the audit sees it: each player's food, hand and
    deck counts (card names where the log shows them), survivors with wounds and infection,
    resource and combat zones (zombies ready or spent), discard pile; and the findings at
    that line, with their rules quoted.

    Where readings of the log differ (who took turn 1, a misclick or two real actions) each
    reading's table is shown with what it assumes, a player's part the readings agree on
    once; where the log hides which zone a face-down card is in, a count is a range and a
    zombie only some readings have is listed as maybe.

    --format lackey writes the table as a Lackey saved game (load it in Lackey, or start an
    audit from it with zcards audit --from-save): the first reading's table; cards the log
    does not show are stand-ins, or with --deck drawn from the rest of the deck list, each
    with a note saying which.
    """
    from zcards.rules.load import deck_sizes, load_cards
    from zcards.rules.report import LABELS
    from zcards.rules.states import state_at, state_text

    cards = load_cards(db_path, card_file, effect_rows(effects_file))
    sizes = deck_sizes(decks)
    if output_format == "lackey":
        _write_save(log_file, line, cards, decks, players=players, pov=pov, out=out)
        return
    state, report = state_at(log_file, cards, line, players=players, pov=pov, decks=sizes)
    here = [
        (label, finding)
        for label in LABELS
        for finding in getattr(report, label)
        if finding.line == state.line
    ]
    if output_format == "json":
        findings = [{"list": label, **f.to_json()} for label, f in here]
        emit_json({**state.to_json(), "findings": findings})
        return
    out_lines = [state_text(state)]
    if here:
        out_lines.append(f"\nFindings at line {state.line}:\n")
        quoted: set[str] = set()
        for label, f in here:
            out_lines += [text + "\n" for text in f.to_lines(LABELS[label], quoted)]
    click.echo("".join(out_lines), nl=False)


def _write_save(
    log_file: Path,
    line: int,
    cards: list[Card],
    decks: tuple[str, ...],
    *,
    players: tuple[str, ...],
    pov: str | None,
    out: Path | None,
) -> None:
    """The table after ``line`` as a Lackey saved game, to ``out`` (atomically) or stdout."""
    from lackey_plugin.files import atomic_write
    from lackey_plugin.saved import write_saved_game
    from zcards.errors import UsageError
    from zcards.rules.load import deck_lists, deck_sizes
    from zcards.rules.saved_table import save_of_table
    from zcards.rules.states import first_table, taken_at

    sizes = deck_sizes(decks)
    table, _ = taken_at(log_file, cards, line, first_table, players=players, pov=pov, decks=sizes)
    text = write_saved_game(save_of_table(table, cards, decks=deck_lists(decks)))
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(out, text.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"cannot write {out}: {error.strerror or error}") from error
    click.echo(f"{out}: the table after line {line} as a Lackey saved game", err=True)


COMMANDS = [log_group]
