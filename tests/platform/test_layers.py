"""The platform's layers: a match's life goes one way (engine <- sandbox <- matches <-
{bots, ladders} <- match_kinds <- {api, web, cli}), the ratings below the ladders and reached
only through `agon.ratings`, checked by import-linter's contracts in pyproject.toml, and
no import of the project's own modules hides inside a function."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agon.matches import outcome_registry, services, tasks
from agon.matches.models import Match

REPO = Path(__file__).resolve().parents[2]
OWN_PACKAGES = ("agon", "engine", "sandbox", "agon_bot")


def test_it_keeps_the_import_contracts() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert lint_imports is not None
    done = subprocess.run(  # noqa: S603 - our own tool, no shell
        [lint_imports, "--no-cache"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _comment_above(lines: list[str], index: int) -> bool:
    """Whether a comment opens the block of imports the line at `index` is in."""
    for line in reversed(lines[:index]):
        stripped = line.strip()
        if stripped.startswith("#"):
            return True
        if not stripped.startswith(("from ", "import ")):
            return False
    return False


def _hidden_imports(path: Path) -> list[str]:
    """Imports of the project's own modules inside a function, without a comment on the
    line or the line above saying why."""
    lines = path.read_text().splitlines()
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom):
                names = [inner.module or ""]
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            else:
                continue
            if not any(name.split(".")[0] in OWN_PACKAGES for name in names):
                continue
            here = lines[inner.lineno - 1]
            if "#" not in here and not _comment_above(lines, inner.lineno - 1):
                found.append(f"{path.relative_to(REPO)}:{inner.lineno}: {here.strip()}")
    return found


def test_it_imports_the_projects_own_modules_at_the_top_unless_a_comment_says_why() -> None:
    hidden = [
        line
        for path in sorted((REPO / "platform" / "agon").rglob("*.py"))
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
