"""The rules pages: `docs/rules/<game>.md` for each registered game, followed by the
game's decisions where the printed rules are silent (`docs/rules/<game>-decisions.md`)
when that file exists. Both are the repository's Markdown, rendered like the other
documents (raw HTML escaped); the rules get the game's pictures and component tables
where their insert lines ask for them (`agon.web.rules_inserts`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from agon.web.docs import DECISIONS_ANCHOR, RenderedDoc, docs_dir, file_render, fill_inserts
from agon.web.rules_inserts import rules_inserts
from engine.registry import game_ids


@dataclass(frozen=True)
class RulesPage:
    game_id: str
    rules: RenderedDoc
    decisions: RenderedDoc | None


def rules_dir() -> Path:
    return docs_dir() / "rules"


def rules_file(game_id: str) -> Path:
    return rules_dir() / f"{game_id}.md"


def decisions_file(game_id: str) -> Path:
    return rules_dir() / f"{game_id}-decisions.md"


def has_rules(game_id: str) -> bool:
    return game_id in game_ids() and rules_file(game_id).is_file()


def rules_render(game_id: str) -> RulesPage | None:
    """The rules page of a registered game; None for an unknown game or one without rules."""
    if not has_rules(game_id):
        return None
    decisions = decisions_file(game_id)
    rules = file_render(rules_file(game_id))
    return RulesPage(
        game_id,
        replace(rules, html=fill_inserts(rules.html, rules_inserts(game_id))),
        file_render(decisions, f"{DECISIONS_ANCHOR}-", below=True) if decisions.is_file() else None,
    )
