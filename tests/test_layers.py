"""The layers point one way: ``lackey_plugin`` (any Lackey game) never imports ``zcards`` (the
Zombie CCG application), and no module of either imports itself through others.

Imports are read from the source (the AST of every module, imports inside functions
included), so an import that only runs on some path still counts. The ``zcards`` check reads
``TYPE_CHECKING`` blocks too; the cycle check leaves them out, since they never run (the
packages' lazy export tables are such blocks: ``import zcards`` imports none of them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from support.paths import ROOT

PACKAGES = ("lackey_plugin", "zcards")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
}


@cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every test here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imported(name: str, path: Path, *, typing_only: bool = True) -> Iterator[tuple[str, int]]:
    """Every module name an import statement of ``path`` names, with its line: ``from a
    import b`` names ``a.b`` when that is a module of the project, else ``a``; relative
    imports are resolved. ``typing_only=False`` skips ``if TYPE_CHECKING:`` blocks."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = _tree(path)
    skipped: set[int] = set()
    if not typing_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
                skipped |= {id(inner) for inner in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                yield (submodule if submodule in MODULES else module), node.lineno


def dependencies(name: str) -> set[str]:
    """The project modules ``name`` imports (a name is cut back to the module it lies in)."""
    found = set()
    for target, _line in imported(name, MODULES[name], typing_only=False):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def test_every_module_is_seen() -> None:
    assert {"lackey_plugin.log.parser", "lackey_plugin.export", "zcards.game.definition"} <= set(
        MODULES
    )


def test_the_product_never_imports_test_support_code() -> None:
    """Mutators and log splicing are test code (tests/support); nothing shipped imports them."""
    offences = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for name, path in MODULES.items()
        for target, line in imported(name, path)
        if target.split(".")[0] in ("support", "tests")
    ]
    assert offences == []
    assert not list((ROOT / "zcards" / "sim").glob("mutators*.py"))


def test_lackey_plugin_imports_nothing_from_zcards() -> None:
    offences = [
        f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}"
        for name in MODULES
        if name.split(".")[0] == "lackey_plugin"
        for target, line in imported(name, MODULES[name])
        if target.split(".")[0] == "zcards"
    ]
    assert offences == []


def test_the_import_check_catches_function_level_imports(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "def f():\n    from zcards.game.definition import ZOMBIE_GAME\n", encoding="utf-8"
    )
    assert [target for target, _ in imported("lackey_plugin.sneaky", sneaky)] == [
        "zcards.game.definition"
    ]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_module_graph_has_no_cycle() -> None:
    assert cycles({name: dependencies(name) for name in MODULES}) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


# The pipeline's stages and the game, bottom up: a package imports only from the packages
# listed for it (and from lackey_plugin and zcards' top-level modules: errors, version, processes,
# resources). The audit (rules) and the simulator (sim) meet only in the game model.
STAGES: dict[str, frozenset[str]] = {
    "cards": frozenset(),
    "game": frozenset({"cards"}),
    "store": frozenset({"cards", "game"}),
    "ingest": frozenset({"cards", "game", "store"}),
    "query": frozenset({"cards", "game", "store"}),
    "publish": frozenset({"cards", "game", "store", "query", "ingest"}),
    "rules": frozenset({"cards", "game", "store"}),
    "sim": frozenset({"cards", "game", "store", "query"}),
}


def stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "zcards" and parts[1] in STAGES else None


def test_the_stages_import_only_downwards() -> None:
    offences = [
        f"{MODULES[name].relative_to(ROOT)} ({here}) imports {target}"
        for name in MODULES
        if (here := stage(name)) is not None
        for target in dependencies(name)
        if target.startswith("zcards.")
        and target.count(".") >= 1
        and target.split(".")[1] not in {"errors", "version", "resources", "processes"}
        and (there := stage(target) or target.split(".")[1]) != here
        and there not in STAGES[here]
    ]
    assert offences == []
