"""The engine's error for an action the rules refuse, in a module of its own: the parts a
bot loads at its start (`engine.legal`, a game's compact form) raise it without loading
`engine.core` (its dataclasses cost a bot's start more than the rest of its import)."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow in the current position."""
