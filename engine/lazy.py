"""A package's names loaded when first asked for (PEP 562): a bot that imports one
module of the engine (a game's compact form, `engine.registry.legal_actions_expander`)
loads no more, and a bot's start is timed."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: a bot's start imports no `typing` (agon_bot.wire)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports each name of `homes` (name ->
    the module that defines it) when it is first read."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(home), name)

    return __getattr__


def import_module(name: str) -> Any:
    """The module of that absolute name, imported if need be: `importlib.import_module`
    without importing `importlib` (with `warnings`), which a bot's start need not pay for."""
    __import__(name)
    return sys.modules[name]
