"""The engine's errors, in a module of their own: the parts a bot loads at its start
(`engine.legal`, a game's compact form) raise an illegal action, and a command's options
name bad match options, without loading `engine.core` (its dataclasses cost a bot's
start more than the rest of its import)."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules do not allow in the current position."""


class InvalidOptions(ValueError):
    """Match options a game does not accept."""
