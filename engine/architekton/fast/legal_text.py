"""Fast path of `compact_json(list(legal))`: the legal actions as the JSON text the bot
protocol sends, written from each action's text, kept. Checked against the plain
encoding by tests/engine/architekton/fast/test_message_text.py.
"""

from __future__ import annotations

import functools

from engine.architekton.actions import LegalActions, Raw, action_json
from engine.core import compact_json


class LegalActionsText(LegalActions):
    """The legal actions as `turns.legal_actions` gives them: `actions.LegalActions` that
    also write themselves as JSON text."""

    __slots__ = ()

    def compact_text(self) -> str:
        """`compact_json(list(self))`, written from each action's kept text."""
        return f"[{','.join(map(action_text, self.raw))}]"


@functools.lru_cache(maxsize=16384)
def action_text(raw: Raw) -> str:
    """`compact_json(action_json(raw))`, once per action."""
    return compact_json(action_json(raw))
