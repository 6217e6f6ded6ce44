"""The sandbox's errors, in a module of their own: a command names them in its `except`
clauses without loading a backend, `subprocess` or the archive readers."""

from __future__ import annotations


class SandboxError(RuntimeError):
    """The sandbox itself failed (not the bot): a missing tool, a broken engine."""


class PackageError(ValueError):
    """A bot package that cannot be accepted; the message says why, for its author."""
