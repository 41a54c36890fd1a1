"""The house's floors (``../shared/ARCHITECTURE.md``): every module of the package sits on one,
and imports, function-level ones included (type-only ones not), run downward or sideways only.

Issue 21 paid off the 15 imports that climbed and the 25-module circle they closed (the Game
protocol moved from the specs to each family's adapter): none may come back.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import fastttt

PACKAGE = Path(fastttt.__file__).parent

GROUND, KERNELS, GAMES, ENGINES, PLAY, VIEWS, TOP = range(7)
FLOOR_NAMES = ("ground", "kernels", "games", "tables and search", "play", "views", "cli/compat")

# packages whose modules all sit on one floor, by prefix
PACKAGE_FLOORS = {
    "fastttt.kernels": KERNELS,
    "fastttt.tables": ENGINES,
    "fastttt.web": VIEWS,
    "fastttt.cli": TOP,
    "fastttt.compat": TOP,
    "fastttt.reference": GROUND,  # plain oracles: the handouts' code, depending on nothing
}
MODULE_FLOORS = {
    # the ground floor: conventions, conversions, errors, Ctrl-C, files
    "fastttt.codes": GROUND,
    "fastttt.values": GROUND,
    "fastttt.config": GROUND,
    "fastttt.errors": GROUND,
    "fastttt.interrupt": GROUND,
    "fastttt.files": GROUND,
    "fastttt.memory": GROUND,
    # the package: the public names, and each family's adapter registered (issue 21)
    "fastttt": TOP,
    "fastttt.__main__": TOP,
    # the game model: rules, positions, move text, the registry
    "fastttt.board": GAMES,
    "fastttt.games": GAMES,
    "fastttt.registry": GAMES,
    "fastttt.movetext": GAMES,
    "fastttt.lineboard": GAMES,
    "fastttt.ultimate.spec": GAMES,
    "fastttt.ultimate.state": GAMES,
    # strong solutions and search
    "fastttt.solver": ENGINES,
    "fastttt.layout": ENGINES,
    "fastttt.queries": ENGINES,
    "fastttt.store": ENGINES,
    "fastttt.facts": ENGINES,
    "fastttt.search": ENGINES,
    "fastttt.connect4": ENGINES,
    "fastttt.filter": ENGINES,
    "fastttt.book": ENGINES,
    "fastttt.dfpn": ENGINES,
    "fastttt.threats": ENGINES,
    "fastttt.prove": ENGINES,
    "fastttt.pairing": ENGINES,
    "fastttt.heuristic": ENGINES,
    "fastttt.prooftree": ENGINES,
    "fastttt.proofcheck": GROUND,  # the independent checker: plain rules, nothing of ours
    "fastttt.ultimate.engine": ENGINES,
    "fastttt.ultimate.proof": ENGINES,
    "fastttt.ultimate.split": ENGINES,
    # players, the game loop, matches, move values
    "fastttt.players": PLAY,
    "fastttt.play": PLAY,
    "fastttt.match": PLAY,
    "fastttt.move_values": PLAY,
    "fastttt.ultimate.players": PLAY,
    # pictures and text
    "fastttt.render": VIEWS,
    "fastttt.svg": VIEWS,
    "fastttt.plot": VIEWS,
    "fastttt.ultimate.render": VIEWS,
    # each family's Game protocol: a thin adapter above the players and views it uses
    "fastttt.mnkgame": VIEWS,
    "fastttt.ultimate.game": VIEWS,
    "fastttt.ultimate": VIEWS,  # the family's names: rules, engine, players, text
}


@cache
def module_names() -> tuple[str, ...]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    return tuple(names)


def module_path(name: str) -> Path:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def floor(name: str) -> int:
    if name in MODULE_FLOORS:
        return MODULE_FLOORS[name]
    for prefix, level in PACKAGE_FLOORS.items():
        if name == prefix or name.startswith(prefix + "."):
            return level
    raise KeyError(name)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


@cache
def runtime_imports(name: str) -> frozenset[str]:
    """The fastttt modules ``name`` imports when it runs (at the top or in a function)."""
    package = name if module_path(name).name == "__init__.py" else name.rpartition(".")[0]
    return frozenset(imports_of_source(module_path(name).read_text(), package) - {name})


def imports_of_source(source: str, package: str) -> set[str]:
    """The fastttt modules a module's ``source`` (in ``package``) imports, but those under
    ``if TYPE_CHECKING:``."""
    tree = ast.parse(source)
    known = set(module_names())
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "fastttt")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[: len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            if base.split(".")[0] == "fastttt":
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.add(sub if sub in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def climbs() -> set[tuple[str, str]]:
    return {
        (name, target)
        for name in module_names()
        for target in runtime_imports(name)
        if floor(target) > floor(name)
    }


def test_every_module_has_a_floor():
    missing = [name for name in module_names() if _floor_or_none(name) is None]
    assert not missing, f"place these modules on a floor (tests/test_layers.py): {missing}"


def _floor_or_none(name: str) -> int | None:
    try:
        return floor(name)
    except KeyError:
        return None


def test_no_import_climbs():
    new = sorted(climbs())
    described = [f"{a} ({FLOOR_NAMES[floor(a)]}) -> {b} ({FLOOR_NAMES[floor(b)]})" for a, b in new]
    assert not new, "imports that run upward:\n" + "\n".join(described)


@pytest.mark.parametrize("name", [n for n in module_names() if n.startswith("fastttt.kernels")])
def test_kernels_import_only_kernels_and_config(name):
    allowed = {"fastttt.config"}
    outside = {
        t for t in runtime_imports(name) if not t.startswith("fastttt.kernels") and t not in allowed
    }
    assert not outside, outside


def test_the_import_reader_sees_function_level_imports_only_at_run_time():
    assert "fastttt.ultimate.spec" in runtime_imports("fastttt.registry")  # in its loaders
    # fastttt/__init__.py imports open_table under TYPE_CHECKING and in __getattr__
    assert runtime_imports("fastttt") >= {"fastttt.tables.probe", "fastttt.board"}
    source = """
from typing import TYPE_CHECKING
from fastttt.errors import FastTTTError
from . import codes
if TYPE_CHECKING:
    from fastttt.search import Searcher
def late():
    from fastttt.tables import probe
    import fastttt.svg
"""
    found = imports_of_source(source, "fastttt")
    assert found == {"fastttt.errors", "fastttt.codes", "fastttt.tables.probe", "fastttt.svg"}


def import_circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                circles.append(sorted(group))

    for v in edges:
        if v not in index:
            connect(v)
    return circles


def test_no_import_circle():
    assert import_circles({name: runtime_imports(name) for name in module_names()}) == []


def test_the_circle_reader_finds_circles():
    edges = {"a": {"b"}, "b": {"c", "e"}, "c": {"a"}, "d": {"a", "e"}, "e": {"f"}, "f": {"e"}}
    assert sorted(import_circles(edges)) == [["a", "b", "c"], ["e", "f"]]
