"""Format name -> the format's class (`competition.formats.protocol.Format`).

Adding a format is its module in this package and one line in `_FORMATS`. From that line
on the web form, the API and `agon tournament --format` offer it, tournaments store its
name, and the pages draw what its `PICTURE` names: nothing else names a format.

Each module is imported the first time its format is asked for.
"""

from __future__ import annotations

import importlib
from typing import cast

from competition.formats.protocol import Format

_FORMATS: dict[str, str] = {
    "round-robin": "competition.formats.round_robin:RoundRobin",
    "swiss": "competition.formats.swiss:Swiss",
    "knockout": "competition.formats.knockout:Knockout",
    "double-elimination": "competition.formats.knockout:DoubleElimination",
    "gauntlet": "competition.formats.gauntlet:Gauntlet",
}


class UnknownFormat(KeyError):
    def __str__(self) -> str:
        return f"the format is one of {', '.join(format_names())}"


def format_names() -> list[str]:
    """The registered formats' names, in the registry's order."""
    return list(_FORMATS)


def get_format(name: str) -> type[Format]:
    """The class of the format named `name` (UnknownFormat if none is)."""
    try:
        module, _, attribute = _FORMATS[name].partition(":")
    except KeyError:
        raise UnknownFormat(name) from None
    return cast("type[Format]", getattr(importlib.import_module(module), attribute))


def format_choices() -> list[tuple[str, str]]:
    """(name, label) of every registered format, for a form's or a serializer's choices."""
    return [(name, get_format(name).LABEL) for name in _FORMATS]
