"""Every ``zcards`` command follows the same conventions: --help, usage errors exit 2,
``--format`` offers json for scripts from one vocabulary, and ``--db`` is spelled the same
everywhere."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from zcards.cli import COMMANDS as REGISTRY
from zcards.cli import cli

FORMAT_WORDS = {"text", "json", "jsonl", "csv", "tsv", "lackey"}  # lackey: a Lackey file


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        found.append((*prefix, name))
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
    return found


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command | None = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = command.get_command(click.Context(command), name)
    assert command is not None
    return command


COMMANDS = _commands(cli)


def test_the_tree_has_every_documented_command() -> None:
    names = {" ".join(path) for path in COMMANDS}
    assert {
        "import",
        "changes",
        "build",
        "search",
        "card",
        "stats",
        "deck check",
        "deck convert",
        "plugin export",
        "plugin lint",
        "plugin verify",
        "plugin checksum",
        "proxies",
        "log parse",
        "audit",
        "simulate",
    } <= names


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Usage: cli {' '.join(path)} ")
    assert _command(path).help, "a command without a docstring shows no help text"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_an_unknown_option_is_a_usage_error(
    path: tuple[str, ...], sample_db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Also for the query commands, which take ``-word`` as a negated term, not an option."""
    monkeypatch.setenv("ZCARDS_DB", str(sample_db_path))
    result = CliRunner().invoke(cli, [*path, "--no-such-option"])
    assert result.exit_code == 2, result.output
    assert "Error: No such option" in result.output and "--no-such-option" in result.output


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_format_and_db_options_are_spelled_alike(path: tuple[str, ...]) -> None:
    options = {
        param.name: param for param in _command(path).params if isinstance(param, click.Option)
    }
    if "output_format" in options:
        formatter = options["output_format"]
        assert formatter.opts == ["--format"]
        assert isinstance(formatter.type, click.Choice) and "json" in formatter.type.choices
        assert set(formatter.type.choices) <= FORMAT_WORDS, formatter.type.choices
    if "db_path" in options:
        assert options["db_path"].opts == ["--db"]
    assert not {"format", "db"} & set(options), "use the output_format / db_path names"


def test_the_lazy_registry_names_every_command_with_its_own_help() -> None:
    """``zcards --help`` lists commands from a table without importing them: the table must
    hold every module's commands, and the short help each command would show itself."""
    import importlib
    import pkgutil

    import zcards.cli

    declared = {}
    for info in pkgutil.iter_modules(zcards.cli.__path__):
        module = importlib.import_module(f"zcards.cli.{info.name}")
        for command in getattr(module, "COMMANDS", ()):
            declared[command.name] = (module.__name__, command)
    assert set(declared) == set(REGISTRY)
    for name, (module_name, command) in declared.items():
        registered_module, attribute, short_help = REGISTRY[name]
        assert registered_module == module_name
        assert getattr(importlib.import_module(module_name), attribute) is command
        assert short_help == command.get_short_help_str(limit=1000)


def test_old_format_spellings_still_work_but_are_not_offered() -> None:
    search = _command(("search",))
    formatter = next(p for p in search.params if p.name == "output_format")
    assert isinstance(formatter.type, click.Choice)
    assert list(formatter.type.choices) == ["text", "json", "jsonl", "csv", "tsv"]
    assert formatter.type.convert("ndjson", formatter, None) == "jsonl"
    assert formatter.type.convert("table", formatter, None) == "text"
    to = next(p for p in _command(("deck", "convert")).params if p.name == "to")
    assert isinstance(to.type, click.Choice)
    assert list(to.type.choices) == ["dek", "text", "json"]
    assert to.type.convert("txt", to, None) == "text"
