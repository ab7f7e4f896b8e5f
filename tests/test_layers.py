"""The layers stay apart: the engine imports neither the network nor the interfaces,
the network library never imports the interfaces and commands (``cli/``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# folder -> (its import name, the import names it must never use)
LAYERS = {
    "president": ("president", ("president.net", "president.cli", "asyncio", "msgpack",
                                "zeroconf", "prompt_toolkit", "gettext", "babel", "socket")),
    "net": ("president.net", ("president.cli", "prompt_toolkit", "babel", "gettext")),
}


def imported_names(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against ``package``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def module_package(folder: str, package: str, path: Path) -> str:
    relative = path.relative_to(ROOT / folder).with_suffix("")
    parts = [package, *relative.parts]
    return ".".join(parts if path.name == "__init__.py" else parts[:-1])


@pytest.mark.parametrize("folder", sorted(LAYERS))
def test_a_layer_never_imports_what_sits_above_it(folder: str) -> None:
    package, forbidden = LAYERS[folder]
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path.name == "__main__.py":  # ``python -m president`` starts the command line
            continue
        for name in imported_names(path, module_package(folder, package, path)):
            if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "\n".join(found)


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The check itself can fail: a relative import that climbs into cli/ is caught."""
    module = tmp_path / "sneaky.py"
    module.write_text("from ..cli.text import Text\nimport president.cli.plain\n")
    names = imported_names(module, "president.net")
    assert "president.cli.text" in names and "president.cli.plain" in names


def import_graph(folder: str, package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (at the top or in a function, but
    not for type checking only: ``if TYPE_CHECKING:`` blocks are left out)."""
    graph: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        relative = path.relative_to(ROOT / folder).with_suffix("")
        parts = [package, *relative.parts]
        module = ".".join(parts[:-1] if path.name == "__init__.py" else parts)
        graph[module] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
                node.body = []  # (ast.walk reads the children after the parent)
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[module] = names
    return {module: {name for name in names if name in graph and name != module}
            for module, names in graph.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of imports in ``graph`` (its modules in order, the first repeated last),
    or an empty list. A package's ``__init__`` importing its own modules is no cycle."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module):], module]
        if module in done:
            return []
        for name in sorted(graph[module]):
            if module.startswith(name + "."):  # a module's own package (its __init__)
                continue
            found = visit(name, [*path, module])
            if found:
                return found
        done.add(module)
        return []

    for module in sorted(graph):
        found = visit(module, [])
        if found:
            return found
    return []


def test_the_engine_has_no_import_cycles() -> None:
    """No module of president/ imports, even from inside a function, one that imports it
    back: each module can be read (and loaded) after those it uses."""
    cycle = find_cycle(import_graph("president", "president"))
    assert not cycle, " -> ".join(cycle)


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"president.a": {"president.b"}, "president.b": {"president.c"},
             "president.c": {"president.a"}, "president": {"president.a"}}
    assert find_cycle(graph) == ["president.a", "president.b", "president.c", "president.a"]
    del graph["president.c"]
    graph["president.b"] = set()
    assert find_cycle(graph) == []
