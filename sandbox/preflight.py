"""A bot's Python read before any match: a syntax error or a module the box does not
have is told to its author at upload, not found out through a failed validation.

Nothing of the bot runs here: its files are only parsed (`ast.parse`, for the box's
Python version), from `main.py` through the bot's own modules it imports. An import is
a problem when no module of that name is in the box (Python's standard library,
`BOX_LIBRARIES`) or in the package, unless the import is guarded (inside a `try` that
catches ImportError, or under `if TYPE_CHECKING:`): such a bot has a fallback. Imports
made at run time (`importlib`, `__import__`) are not followed; the validation match
remains the judge of whether a bot works.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

BOX_PYTHON = (3, 11)
"""The Python of every box (Debian bookworm's python3, on each backend)."""
BOX_LIBRARIES = frozenset({"numpy", "agon_bot", "engine"})
"""What a box offers besides the standard library."""
BOX_DESCRIPTION = "Python 3.11 with its standard library, NumPy, agon_bot and engine"
"""For messages; docs/bot-protocol.md says more."""
ENTRY_POINT = PurePosixPath("main.py")
MAX_PROBLEMS_SHOWN = 5
MAX_FILE_BYTES = 1024 * 1024
"""A larger file (weights written as a literal, say) is left to the validation match:
its syntax tree would cost the upload far more memory than it is worth."""
MAX_PARSED_BYTES = 4 * 1024 * 1024
"""Parsing stops here; the rest is left to the validation match."""

_IMPORT_GUARDS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


@dataclass(frozen=True)
class Problem:
    path: PurePosixPath
    line: int | None
    text: str

    def __str__(self) -> str:
        where = str(self.path) if self.line is None else f"{self.path}, line {self.line}"
        return f"{where}: {self.text}"


@dataclass(frozen=True)
class _Import:
    module: str
    """Absolute dotted name (relative imports are resolved against their package)."""
    line: int
    guarded: bool


def box_modules() -> frozenset[str]:
    """Top-level module names every box can import."""
    return frozenset(sys.stdlib_module_names) | BOX_LIBRARIES


def python_problems(sources: Mapping[PurePosixPath, bytes]) -> list[Problem]:
    """What keeps the bot whose `.py` files are `sources` (paths from the package's top)
    from starting: syntax errors and missing modules, in the files `main.py` reaches."""
    own_top = {path.parts[0].removesuffix(".py") for path in sources}
    available = box_modules() | own_top
    problems: list[Problem] = []
    seen: set[PurePosixPath] = set()
    queue = [ENTRY_POINT]
    parsed = 0
    while queue:
        path = queue.pop(0)
        if path in seen or path not in sources or len(sources[path]) > MAX_FILE_BYTES:
            continue
        seen.add(path)
        parsed += len(sources[path])
        if parsed > MAX_PARSED_BYTES:
            break
        try:
            tree = ast.parse(sources[path], filename=str(path), feature_version=BOX_PYTHON)
        except SyntaxError as error:
            problems.append(Problem(path, error.lineno, f"syntax error: {error.msg}"))
            continue
        except (RecursionError, MemoryError):
            problems.append(Problem(path, None, "nested too deeply for Python to compile"))
            continue
        for found in sorted(_imports(tree, _package_of(path)), key=lambda found: found.line):
            top = found.module.partition(".")[0]
            if top not in available and not found.guarded:
                problems.append(
                    Problem(path, found.line, f"imports {top}, which the box does not have")
                )
            queue += _own_files(found.module, sources)
    return problems


def _package_of(path: PurePosixPath) -> tuple[str, ...]:
    """The dotted package a file's relative imports start from."""
    return path.parent.parts


def _imports(tree: ast.Module, package: tuple[str, ...]) -> Iterator[_Import]:
    # Iterative: a tree the parser accepted can still be too deep to walk recursively.
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, guarded = stack.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield _Import(alias.name, node.lineno, guarded)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            if base is not None:
                yield _Import(base, node.lineno, guarded)
                for alias in node.names:  # `from pkg import module`
                    yield _Import(f"{base}.{alias.name}", node.lineno, guarded=True)
        if isinstance(node, ast.Try | ast.TryStar):
            protected = guarded or any(_catches_import_errors(h) for h in node.handlers)
            stack += [(child, protected) for child in node.body]
            rest = [*node.handlers, *node.orelse, *node.finalbody]
            stack += [(child, guarded) for child in rest]
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack += [(child, True) for child in node.body]
            stack += [(child, guarded) for child in node.orelse]
        else:
            stack += [(child, guarded) for child in ast.iter_child_nodes(node)]


def _absolute(module: str | None, level: int, package: tuple[str, ...]) -> str | None:
    if level == 0:
        return module
    if level - 1 > len(package):
        return None  # beyond the top: Python will say so; not ours to guess
    parts = list(package[: len(package) - (level - 1)])
    if module:
        parts.append(module)
    return ".".join(parts) or None


def _catches_import_errors(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(name, ast.Name) and name.id in _IMPORT_GUARDS for name in names)


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _own_files(module: str, sources: Mapping[PurePosixPath, bytes]) -> list[PurePosixPath]:
    """The package's files that importing `module` runs: each package's `__init__.py` on
    the way, and the module itself."""
    parts = module.split(".")
    files = []
    for depth in range(1, len(parts) + 1):
        folder = PurePosixPath(*parts[:depth])
        files += [folder / "__init__.py", folder.with_name(folder.name + ".py")]
    return [path for path in files if path in sources]
