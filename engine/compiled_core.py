"""How a game's optional compiled core is loaded (issue 32): one way for every game's
`native` package to find its `_core` extension, check that it was built from the source
this Python expects, and hand it the engine's own tables.

A core that is not built, is stale or refuses the tables costs one warning line, then the
engine takes its pure-Python path: never a wrong answer. `AGON_PURE_PYTHON=1` in the
environment forces pure Python silently (tests and comparisons).
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable
from types import ModuleType

PURE_PYTHON_VARIABLE = "AGON_PURE_PYTHON"


def pure_python_asked() -> bool:
    return os.environ.get(PURE_PYTHON_VARIABLE, "") not in ("", "0")


def load_core(
    package: str,
    game: str,
    version: int,
    set_up: Callable[[ModuleType], object],
    logger: logging.Logger,
) -> ModuleType | None:
    """`package`'s `_core` once `set_up` has handed it the engine's tables; None, with one
    warning line naming `game` unless pure Python was asked for, where it cannot be used:
    not importable, built from another `version` of its source (its `VERSION`), or
    refusing the tables."""
    if pure_python_asked():
        return None
    try:
        core = importlib.import_module(f"{package}._core")
    except ImportError as error:
        logger.warning("%s: compiled core not available (%s); using pure Python", game, error)
        return None
    found = getattr(core, "VERSION", None)
    if found != version:
        logger.warning(
            "%s: compiled core is version %s, not %s (rebuild with `make venv`); using pure Python",
            game,
            found,
            version,
        )
        return None
    try:
        set_up(core)
    except (TypeError, ValueError, AttributeError, MemoryError) as error:
        logger.warning("%s: compiled core refused the tables (%s); using pure Python", game, error)
        return None
    return core
