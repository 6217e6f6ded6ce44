"""The Akropolis package's imports run one way (components and geometry, the city and
the state, the rules, then what players and spectators see and the game object): no
module imports one that imports it back, not even for type checking only or inside a
function. The plain rules need none of the fast paths but `fast.city_cache`, which the
city keeps."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import engine.akropolis

PACKAGE = Path(engine.akropolis.__file__).parent


def imports_within_the_package() -> dict[str, set[str]]:
    """Each module's imports of the package's modules, wherever they are written."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(("engine", "akropolis", *path.relative_to(PACKAGE).with_suffix("").parts))
        name = name.removesuffix(".__init__")
        found = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            found.update(t for t in targets if t.startswith("engine.akropolis.") and t != name)
    return {name: {t for t in targets if t in graph} for name, targets in graph.items()}


def test_the_package_has_no_import_cycle() -> None:
    graph = imports_within_the_package()
    try:
        graphlib.TopologicalSorter(graph).static_order()
    except graphlib.CycleError as error:
        raise AssertionError(f"an import cycle: {' -> '.join(error.args[1])}") from None


def test_the_plain_rules_read_without_the_fast_paths() -> None:
    graph = imports_within_the_package()
    plain_rules = ("components", "geometry", "scoring", "rules", "state", "city")
    for module in plain_rules:
        fast = {t for t in graph[f"engine.akropolis.{module}"] if ".fast." in t}
        assert fast <= {"engine.akropolis.fast.city_cache", "engine.akropolis.fast.running_score"}
