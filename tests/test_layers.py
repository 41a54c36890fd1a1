"""The house's floors (``docs/architecture.md``): each package of fastttt sits on one floor, and
imports, function-level ones included (type-only ones not), run downward, or sideways within a
floor without a circle.

Issue 21 paid off the 15 imports that climbed and the 25-module circle they closed (the Game
protocol moved from the specs to each family's adapter), then gave each capability a package of
its own so that a floor is a folder: none of it may come back.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import fastttt

PACKAGE = Path(fastttt.__file__).parent

# The floors, lowest first: a module may import its own floor (no circle) and those below it.
FLOORS = (
    "ground",  # conventions, conversions, errors, Ctrl-C, files, the line filter, plain oracles
    "kernels",  # Numba kernels: NumPy and Numba only
    "games",  # the game model: registry, m,n,k and Ultimate specs and positions, move lists
    "tables",  # strong solutions: dense and layered solvers, stores, probes
    "search",  # alpha-beta, Connect Four, df-pn, threats, pairing, proofs, the portfolio
    "play",  # players, the game loop, matches, move values
    "views",  # text, SVG, plots, the web explorer
    "families",  # each family's Game adapter, above the players and views it hands out
    "top",  # the package's names, the CLI, the handouts' compat layer
)
GROUND, KERNELS, GAMES, TABLES, SEARCH, PLAY, VIEWS, FAMILIES, TOP = range(len(FLOORS))

# Every module's floor, by package (a module is on its longest listed prefix's floor)
PACKAGE_FLOORS = {
    "fastttt.codes": GROUND,
    "fastttt.values": GROUND,
    "fastttt.config": GROUND,
    "fastttt.numba_cache": GROUND,
    "fastttt.errors": GROUND,
    "fastttt.interrupt": GROUND,
    "fastttt.files": GROUND,
    "fastttt.memory": GROUND,
    "fastttt.processes": GROUND,
    "fastttt.filter": GROUND,
    "fastttt.reference": GROUND,  # plain oracles: the handouts' code and the proof checker
    "fastttt.kernels": KERNELS,
    "fastttt.games": GAMES,
    "fastttt.tables": TABLES,
    "fastttt.search": SEARCH,
    "fastttt.play": PLAY,
    "fastttt.views": VIEWS,
    "fastttt.families": FAMILIES,
    "fastttt": TOP,  # the package itself, __main__, cli/, compat/, the ultimate facade
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
    prefixes = [p for p in PACKAGE_FLOORS if name == p or name.startswith(p + ".")]
    if not prefixes:
        raise KeyError(name)
    return PACKAGE_FLOORS[max(prefixes, key=len)]


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
    described = [f"{a} ({FLOORS[floor(a)]}) -> {b} ({FLOORS[floor(b)]})" for a, b in new]
    assert not new, "imports that run upward:\n" + "\n".join(described)


@pytest.mark.parametrize("name", [n for n in module_names() if n.startswith("fastttt.kernels")])
def test_kernels_import_only_kernels_and_config(name):
    allowed = {"fastttt.config"}
    outside = {
        t for t in runtime_imports(name) if not t.startswith("fastttt.kernels") and t not in allowed
    }
    assert not outside, outside


def test_the_import_reader_sees_function_level_imports_only_at_run_time():
    # the registry imports Ultimate's spec in its loaders
    assert "fastttt.games.ultimate.spec" in runtime_imports("fastttt.games.registry")
    # fastttt/__init__.py imports open_table under TYPE_CHECKING and in __getattr__
    assert runtime_imports("fastttt") >= {"fastttt.tables.probe", "fastttt.games.mnk.board"}
    source = """
from typing import TYPE_CHECKING
from fastttt.errors import FastTTTError
from . import codes
if TYPE_CHECKING:
    from fastttt.search.alphabeta import Searcher
def late():
    from fastttt.tables import probe
    import fastttt.views.svg
"""
    found = imports_of_source(source, "fastttt")
    assert found == {"fastttt.errors", "fastttt.codes", "fastttt.tables.probe", "fastttt.views.svg"}


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
