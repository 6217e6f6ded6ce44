"""A game package's imports run one way (data -> state -> rules -> observation, render,
...): no two of its modules import each other, however indirectly, not even for type
checking only. Checked for the games whose packages were laid out so."""

from __future__ import annotations

import grimp
import pytest

ONE_WAY = ("akropolis", "architekton", "attika", "megalopolis")


def cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The groups of the package's modules that reach one another (Tarjan's strongly
    connected components of more than one module), each sorted."""
    modules = sorted(m for m in graph.modules if m.startswith(f"{package}."))
    imports = {
        module: sorted(
            m for m in graph.find_modules_directly_imported_by(module) if m.startswith(package)
        )
        for module in modules
    }
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in imports.get(module, []):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in order:
            visit(module)
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("engine", exclude_type_checking_imports=False)


@pytest.mark.parametrize("game", ONE_WAY)
def test_the_game_package_imports_run_one_way(graph: grimp.ImportGraph, game: str) -> None:
    assert cycles(graph, f"engine.{game}") == []


def test_a_cycle_is_found(graph: grimp.ImportGraph) -> None:
    state, rules = "engine.megalopolis.state", "engine.megalopolis.rules"
    graph.add_import(importer=state, imported=rules)
    try:
        assert any({state, rules} <= set(group) for group in cycles(graph, "engine.megalopolis"))
    finally:
        graph.remove_import(importer=state, imported=rules)
