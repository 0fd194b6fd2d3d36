"""The ``zcards`` command: a thin click layer over the library.

Each module in this package defines a ``COMMANDS`` list; they are registered here, so a new
area of the tool adds a module and touches nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import click

from zcards import __version__
from zcards.errors import ZcardsError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="zcards")
def cli() -> None:
    """Zombie CCG toolkit: card database, LackeyCCG plugin, proxies, queries and audits."""


def _register_commands() -> None:
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if module_info.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for command in getattr(module, "COMMANDS", ()):
            cli.add_command(command)


_register_commands()


def main(argv: list[str] | None = None) -> None:
    """Console entry point: library errors become one clear message and an exit code."""
    try:
        cli.main(args=argv, prog_name="zcards", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except ZcardsError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(error.exit_code)
    except OSError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(1)
