"""The layers: one import-linter contract orders the whole tree (the platform's interfaces,
its apps down to the matches, its plumbing, then the sandbox, the bot library and the
engine), Django stays above the sandbox, the platform reaches the sandbox through
`agon.sandboxing` alone, and no import hides inside a function unless a comment says why
(start-up speed, Django's app loading): never to break a cycle."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from agon.matches import outcome_registry, services, tasks
from agon.matches.models import Match

REPO = Path(__file__).resolve().parents[2]
SOURCE_FOLDERS = (
    "platform/agon",
    "platform/agon_kit",
    "platform/competition",
    "engine",
    "sandbox",
    "agon_bot",
)


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on `tree` (a checkout: its pyproject.toml and its source folders
    first on the path)."""
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint_imports is not None
    path = os.pathsep.join([str(tree), str(tree / "platform"), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(  # noqa: S603 - our own tool, no shell
        [lint_imports, "--no-cache", "--no-logo"],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        check=False,
    )


def test_it_keeps_the_import_contracts() -> None:
    done = _lint_imports(REPO)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


@pytest.mark.parametrize(
    ("module", "source", "broken"),
    [
        pytest.param(
            "platform/agon/matches/upward.py",
            "from agon.match_kinds import wiring\n",
            "agon.matches.upward -> agon.match_kinds.wiring (l.1)",
            id="an app calling up into the match kinds",
        ),
        pytest.param(
            "engine/upward.py",
            "import sandbox.runner\n",
            "engine.upward -> sandbox.runner (l.1)",
            id="the engine calling up into the sandbox",
        ),
        pytest.param(
            "sandbox/web.py",
            "import django.http\n",
            "sandbox.web -> django (l.1)",
            id="Django below the platform",
        ),
        pytest.param(
            "platform/agon/bots/boxes.py",
            "from sandbox.runner import run_match\n",
            "agon.bots.boxes -> sandbox.runner (l.1)",
            id="the sandbox reached around agon.sandboxing",
        ),
    ],
)
def test_the_contracts_refuse_an_import_that_breaks_them(
    tmp_path: Path, module: str, source: str, broken: str
) -> None:
    """On a copy of the tree with one module added: the checkout stays as it is for the
    tests that run beside this one."""
    for folder in SOURCE_FOLDERS:
        shutil.copytree(
            REPO / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    (tmp_path / module).write_text(source)
    done = _lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-2000:]
    assert broken in done.stdout


def test_every_module_of_the_tree_has_its_layer() -> None:
    """A new package or top-level module of the platform is given its place in the
    layers contract; one left out would be checked by none of its lines."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    named = {
        name.strip().strip("()") for layer in layers for name in layer.replace(":", "|").split("|")
    }
    platform = REPO / "platform" / "agon"
    modules = {
        f"agon.{path.stem}"
        for path in platform.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py") or (path / "__init__.py").exists()
    }
    assert modules - named == set()
    bot_library = {f"agon_bot.{path.stem}" for path in (REPO / "agon_bot").iterdir()}
    assert {
        name for name in bot_library if not name.startswith(("agon_bot.__", "agon_bot._"))
    } <= named
    assert set(config["root_packages"]) - {"agon", "agon_bot"} <= named


def _said_why(lines: list[str], node: ast.stmt, import_lines: set[int]) -> bool:
    """Whether a comment is on the import's lines or opens the block of imports (blank
    lines aside) that it is in."""
    assert node.end_lineno is not None
    if any("#" in lines[number - 1] for number in range(node.lineno, node.end_lineno + 1)):
        return True
    number = node.lineno - 1
    while number > 0:
        stripped = lines[number - 1].strip()
        if stripped.startswith("#"):
            return True
        if stripped and number not in import_lines:
            return False
        number -= 1
    return False


def _imports_in_functions(node: ast.AST, inside: bool = False) -> list[ast.stmt]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [node] if inside else []
    inside = inside or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    return [
        found
        for child in ast.iter_child_nodes(node)
        for found in _imports_in_functions(child, inside)
    ]


def _hidden_imports(path: Path) -> list[str]:
    """Imports inside a function without a comment saying why."""
    text = path.read_text()
    if "import " not in text:
        return []
    lines = text.splitlines()
    tree = ast.parse(text)
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    import_lines = {
        number for node in imports for number in range(node.lineno, (node.end_lineno or 0) + 1)
    }
    return [
        f"{path.relative_to(REPO)}:{node.lineno}: {lines[node.lineno - 1].strip()}"
        for node in _imports_in_functions(tree)
        if not _said_why(lines, node, import_lines)
    ]


def test_it_imports_at_the_top_unless_a_comment_says_why() -> None:
    hidden = [
        line
        for folder in SOURCE_FOLDERS
        for path in sorted((REPO / folder).rglob("*.py"))
        if "migrations" not in path.parts
        for line in _hidden_imports(path)
    ]
    assert not hidden, "\n".join(hidden)


def test_every_kind_of_match_has_its_outcome_installed() -> None:
    assert set(outcome_registry.installed()) == set(Match.Kind.values)


@pytest.mark.django_db
def test_it_refuses_to_end_a_match_of_a_kind_without_an_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(outcome_registry, "_outcomes", {})
    match = Match(kind=Match.Kind.CHALLENGE, game="akropolis", players=2, seed=1)
    with pytest.raises(outcome_registry.NoOutcome):
        outcome_registry.outcome_conclude(match)


def test_it_sends_matches_to_the_match_task_by_its_name() -> None:
    assert tasks.execute_queued_match.name == services.MATCH_TASK
