"""The ``zcards`` command: a thin click layer over the library.

Commands are loaded lazily: :data:`COMMANDS` names the module and attribute of each one, so
``zcards --help`` and ``zcards search`` import only what they run (a command module may pull
in WeasyPrint, requests or the rules engine). A new command adds a line here; a test checks
the table against the modules' own ``COMMANDS`` lists and their help texts.

Errors become one exit code for every command (see :mod:`zcards.cli.common`): 0 success,
1 the command's finding, 2 unusable input or usage; under ``--format json`` the error is a
JSON object on stderr.
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Sequence

import click

from zcards.cli.common import EXIT_INTERRUPTED, CommandFailure, closed_pipe_exit, failure_for
from zcards.version import __version__

# name -> (module, attribute, short help shown by ``zcards --help`` without importing it)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "audit": (
        "zcards.cli.audit",
        "audit_command",
        "Audit each LOG, a saved LackeyCCG game log, against the rules (docs/rules.md).",
    ),
    "balance": (
        "zcards.cli.balance",
        "balance_command",
        "Measure the balance of decks and cards over seeded simulated games.",
    ),
    "build": (
        "zcards.cli.cards",
        "build_command",
        "Build everything from the bundled set, offline.",
    ),
    "card": (
        "zcards.cli.query",
        "card_command",
        "Show the card called NAME: exact, any case or accents, a prefix, or a near spelling.",
    ),
    "changes": (
        "zcards.cli.cards",
        "changes_command",
        "Cards added, removed or changed (field by field) by an import run.",
    ),
    "db": (
        "zcards.cli.db",
        "db_group",
        "The card database, for other tools: Datasette's metadata.json.",
    ),
    "deck": (
        "zcards.cli.deck",
        "deck_group",
        "Deck lists: plain text ('3 Gross Ghoul', '3<TAB>Gross Ghoul', '# Section') "
        "or Lackey .dek.",
    ),
    "import": (
        "zcards.cli.cards",
        "import_command",
        "Import card data from SOURCE paths or URLs.",
    ),
    "log": ("zcards.cli.log", "log_group", "Read LackeyCCG game logs (saved with /log)."),
    "plugin": ("zcards.cli.plugin", "plugin", "Build, check and verify the LackeyCCG plugin."),
    "proxies": (
        "zcards.cli.proxies",
        "proxies_command",
        "Write proxy sheets for the cards matching QUERY and/or in --deck (default: every card).",
    ),
    "replay": (
        "zcards.cli.replay",
        "replay_command",
        "Write a replay page of LOG: the log on one side, the board after the chosen line on "
        "the other.",
    ),
    "rules": (
        "zcards.cli.rules",
        "rules_group",
        "The rules model: which card texts its effect rows cover.",
    ),
    "search": (
        "zcards.cli.query",
        "search_command",
        "Find cards matching QUERY (its words are one query; quote what the shell would read).",
    ),
    "simulate": (
        "zcards.cli.simulate",
        "simulate_command",
        "Play seeded games of Zombie CCG between two decks and report how they went.",
    ),
    "stats": (
        "zcards.cli.query",
        "stats_command",
        "Count cards by type, faction, rarity, keyword and symbol, and show the cost curve.",
    ),
}

_ARGS_KEY = "zcards.args"


class LazyGroup(click.Group):
    """A group whose commands are imported when they run (or when their own help is shown)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module_name, attribute, _help = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command is an error naming the nearest ones ("Did you mean 'search'?")."""
        if args and args[0] not in COMMANDS and not args[0].startswith("-"):
            raise click.NoSuchCommand(args[0], possibilities=COMMANDS, ctx=ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`COMMANDS`, so ``--help`` imports no command module."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, click.Command(name, help=short_help).get_short_help_str(limit))
            for name, (_module, _attribute, short_help) in sorted(COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_ARGS_KEY] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        """Every failure below becomes a :class:`CommandFailure` with the convention's code."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            closed_pipe_exit()
        except (click.exceptions.Exit, click.exceptions.Abort, CommandFailure):
            raise
        except Exception as error:
            failure = failure_for(error, ctx.meta.get(_ARGS_KEY, ()))
            if failure is None:
                raise
            raise failure from error


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zcards")
def cli() -> None:
    """Zombie CCG toolkit: card database, LackeyCCG plugin, proxies, queries and audits.

    \b
    Exit codes: 0 success; 1 the command's finding (violations, lint errors,
    unknown deck cards, no such card); 2 unusable input or usage.
    """


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: runs ``cli`` and turns every outcome into the documented exit code."""
    try:
        cli.main(args=argv, prog_name="zcards", standalone_mode=False)
        sys.stdout.flush()  # a closed pipe shows here when the output fitted in its buffer
    except BrokenPipeError:
        closed_pipe_exit()
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)


def run() -> None:
    """The ``zcards`` command: :func:`main` in a process of its own. What is left at the end
    goes with the process, so it is frozen out of the interpreter's last cycle collection,
    which would walk every loaded module's objects once more (a tenth of a quick search)."""
    try:
        main()
    finally:
        gc.freeze()
