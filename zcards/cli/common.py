"""What every command shares: option spellings, the format vocabulary, the exit-code
convention, error output and progress bars (what commands write is :mod:`zcards.cli.output`)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from lackey_plugin.errors import LackeyError

if TYPE_CHECKING:
    from zcards.game.effects import Row

T = TypeVar("T")

# The exit-code convention (README, "Exit codes"); library errors carry theirs (LackeyError and
# its subclass ZcardsError).
EXIT_OK, EXIT_FINDING, EXIT_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C, as the shell reports a process stopped by SIGINT

# One vocabulary for --format (and deck convert --to): old spellings are accepted, not shown.
FORMAT_ALIASES = {"table": "text", "ndjson": "jsonl", "txt": "text"}
TABULAR_FORMATS = ("text", "json", "jsonl", "csv", "tsv")
JSON_FORMATS = ("json", "jsonl")


class FormatChoice(click.Choice):
    """A choice among format words that also takes the old spellings in :data:`FORMAT_ALIASES`."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and FORMAT_ALIASES.get(value) in self.choices:
            value = FORMAT_ALIASES[value]
        return super().convert(value, param, ctx)


def db_option(function: Callable) -> Callable:
    """``--db PATH``; the default is the same for every command (see zcards.store.db.find_db)."""
    return click.option(
        "--db",
        "db_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Card database (default: $ZCARDS_DB, ./cards.db, build/cards.db, else the "
        "bundled set).",
    )(function)


def card_file_option(function: Callable) -> Callable:
    """``--cards CARDFILE``: the rules' card data from a Lackey card-data file."""
    return click.option(
        "--cards",
        "card_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="A Lackey card-data file with the Zombie columns, instead of a database.",
    )(function)


def effects_option(function: Callable) -> Callable:
    """``--effects FILE``: a designer's effect rows for the cards of his set."""
    return click.option(
        "--effects",
        "effects_file",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="A designer's effect rows for his cards (TOML, the row format of "
        "docs/effects.md), read with the bundled rows and any the database keeps.",
    )(function)


def effect_rows(path: Path | None) -> tuple[Row, ...]:
    """The rows of a designer's effects file (none without one); a file that cannot be read
    or whose rows are wrong is a usage error naming it."""
    if path is None:
        return ()
    from zcards.errors import UsageError
    from zcards.game.effects import rows_of

    try:
        return rows_of(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read the effect rows: {error}") from error
    except ValueError as error:
        raise UsageError(f"bad effect rows: {error}") from error


def game_inputs(function: Callable) -> Callable:
    """What reading a log needs besides the log, the same for ``audit``, ``log state`` and
    ``replay``: the card data, the players' decks, their turn order and the log's saver."""
    for option in reversed(
        [
            db_option,
            card_file_option,
            effects_option,
            click.option(
                "--deck",
                "decks",
                multiple=True,
                metavar="PLAYER=FILE",
                help="A player's deck list (text or .dek): makes losing by an empty deck "
                "checkable. Repeatable.",
            ),
            click.option(
                "--player",
                "players",
                multiple=True,
                metavar="NAME",
                help="A player's name, in turn order (repeatable); needed only when the log "
                "never seats him.",
            ),
            click.option(
                "--pov",
                default=None,
                metavar="NAME",
                help="Whose log this is (default: guessed from the cards it names).",
            ),
        ]
    ):
        function = option(function)
    return function


def note_missing_bundled(conn: sqlite3.Connection, db_path: Path | None) -> None:
    """Say once, on stderr, that the database found in this folder lacks cards of the bundled
    set, and how to add them. A database named by ``--db`` or ``$ZCARDS_DB`` was chosen (it may
    hold another game): nothing is said."""
    from zcards.store.contents import ADD_BUNDLED, bundled_keys, missing_bundled
    from zcards.store.db import folder_db, named_db

    found = None if named_db(db_path) else folder_db()
    if found is not None and (missing := missing_bundled(conn)):
        click.echo(
            f"Note: {found} lacks {missing} of the bundled set's {len(bundled_keys())} cards; "
            f"'{ADD_BUNDLED}' adds them.",
            err=True,
        )


def art_option(function: Callable) -> Callable:
    """``--art DIR``: the card art, the same for every command that draws card faces."""
    return click.option(
        "--art",
        "art_dir",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        default=None,
        help="Folder of card art, a file per card named by its ImageFile or its name (JPEG, "
        "PNG, WebP, GIF, BMP, TIFF); cropped to the art box. Cards without art get a "
        "placeholder drawn from their faction and type.",
    )(function)


def out_option(help: str, *, required: bool = False) -> Callable:
    """``--out FILE``: the file a command writes (a path; the command writes it atomically)."""
    return click.option(
        "--out",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        required=required,
        default=None,
        help=help,
    )


def format_option(choices: Sequence[str] = TABULAR_FORMATS, default: str = "text") -> Callable:
    """``--format``, spelled and documented the same way by every command (and, where CSV is
    offered, ``--raw-cells``: see :func:`zcards.cli.output.spreadsheet_text`)."""
    words = list(dict.fromkeys(FORMAT_ALIASES.get(choice, choice) for choice in choices))
    option = click.option(
        "--format",
        "output_format",
        type=FormatChoice(words),
        default=FORMAT_ALIASES.get(default, default),
        show_default=True,
        help=f"Output format; {', '.join(w for w in words if w != 'text')} for scripts.",
    )
    if "csv" not in words and "tsv" not in words:
        return option
    raw = click.option(
        "--raw-cells",
        is_flag=True,
        expose_value=False,
        callback=_remember_raw_cells,
        help="CSV/TSV: write cells starting with = + - @ as they are (by default such a "
        "cell gets a leading ' so a spreadsheet shows it as text and never runs it).",
    )
    return lambda command: raw(option(command))


def _remember_raw_cells(context: click.Context, _: click.Parameter, value: bool) -> None:
    context.meta[RAW_CELLS] = value


RAW_CELLS = "zcards.raw_cells"


def is_interactive() -> bool:
    """Progress bars only on a terminal: piped output stays clean for scripts."""
    return sys.stderr.isatty()


@contextmanager
def progress(
    items: Iterable[T], label: str, length: int | None = None, *, enabled: bool = True
) -> Iterator[Iterable[T]]:
    """Click's progress bar over ``items`` on a terminal (on stderr), the bare items otherwise
    (or when ``enabled`` is false: work too short to deserve a bar)."""
    if not enabled or not is_interactive():
        yield items
        return
    with click.progressbar(items, label=label, length=length, file=sys.stderr) as bar:
        yield bar


@contextmanager
def progress_counter(label: str, length: int) -> Iterator[Callable[[int], None]]:
    """A callback that advances a bar by N finished items on a terminal, a no-op otherwise."""
    if not is_interactive():
        yield lambda _done: None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update


StageCallback = Callable[[str, int, int], None]


@contextmanager
def stage_progress() -> Iterator[StageCallback | None]:
    """A ``(stage, done, total)`` callback drawing one bar per stage on a terminal, else None.

    Long library work (plugin export, the build) reports its stages this way without
    knowing about click.
    """
    if not is_interactive():
        yield None
        return
    with ExitStack() as stack:
        current: dict[str, Any] = {}

        def report(stage: str, done: int, total: int) -> None:
            if current.get("stage") != stage:
                stack.close()
                current["stage"] = stage
                current["bar"] = stack.enter_context(
                    click.progressbar(length=max(total, 1), label=stage, file=sys.stderr)
                )
            bar = current["bar"]
            bar.update(done - bar.pos)
            if done >= total:  # finish the line before the caller prints its summary
                stack.close()
                current.clear()

        yield report


class CommandFailure(click.ClickException):
    """A failed command: its message on stderr (a JSON object under ``--format json``)."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, *, as_json: bool, **where: Any) -> None:
        super().__init__(message)
        self.as_json = as_json
        self.where = {key: value for key, value in where.items() if value is not None}

    def show(self, file: IO[Any] | None = None) -> None:
        if self.as_json:
            error = {"error": self.message, "exit_code": self.exit_code, **self.where}
            click.echo(json.dumps(error, ensure_ascii=False), file=file, err=True)
        else:
            click.echo(f"Error: {self.format_message()}", file=file, err=True)


class FindingFailure(CommandFailure):
    """The command did its job and found problems (exit code 1)."""

    exit_code = EXIT_FINDING


def asks_for_json(args: Iterable[str]) -> bool:
    """Whether the command line chose a JSON ``--format`` (read from the raw arguments, so
    errors found before the option was parsed are JSON too)."""
    words = list(args)
    for index, word in enumerate(words):
        value = None
        if word == "--format" and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--format="):
            value = word.split("=", 1)[1]
        if value is not None and FORMAT_ALIASES.get(value, value) in JSON_FORMATS:
            return True
    return False


def failure_for(error: Exception, args: Iterable[str]) -> CommandFailure | None:
    """The :class:`CommandFailure` for an error a command let through, or None for a bug.

    Library errors keep their exit code (1 for a finding, else 2 for unusable input); a click
    usage error is 2; an operating-system error (unreadable file, full disk) is 2, and so is an
    error that comes from a damaged database (see
    :func:`zcards.store.open.blame_database`), named after the database.
    """
    as_json = asks_for_json(args)
    # sqlite3 not imported: no database was read (and --help stays quick).
    if "sqlite3" in sys.modules and not isinstance(error, (LackeyError, click.ClickException)):
        from zcards.store.open import blame_database

        error = blame_database(error) or error
    if isinstance(error, LackeyError):
        location = error.location
        failure = FindingFailure if error.exit_code == EXIT_FINDING else CommandFailure
        return failure(
            str(error),
            as_json=as_json,
            file=location.file if location else None,
            line=location.line if location else None,
            column=location.column if location else None,
        )
    if isinstance(error, click.UsageError) and not as_json:
        return None  # click prints it with a usage hint, exit code 2
    if isinstance(error, click.ClickException):  # e.g. click.FileError, whose own code is 1
        return CommandFailure(error.format_message(), as_json=as_json)
    if isinstance(error, OSError):
        return CommandFailure(str(error), as_json=as_json)
    return None


def closed_pipe_exit() -> NoReturn:
    """The reader went away (``zcards search ... | head -1``): stop quietly with success.

    Standard output is pointed at /dev/null so the interpreter's last flush cannot fail again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file descriptor (tests capture output)
        pass
    sys.exit(EXIT_OK)


def _load_game(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Any:
    """The game definition file of ``--game``, loaded (its mistakes are usage errors)."""
    if value is None:
        return None
    from zcards.game.gamefile import load_game

    return load_game(value)


game_option = click.option(
    "--game",
    "game",
    type=click.Path(dir_okay=False, path_type=Path),
    callback=_load_game,
    default=None,
    help="Game definition file (TOML; see 'zcards plugin init'). Stored in the database, "
    "so later commands find it. Default: the stored one, else Zombie CCG.",
)
