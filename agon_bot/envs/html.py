"""`render_mode="html"`: the position now as the site's replay viewer draws it, as one
self-contained page (the kit's offline viewer, `agon-kit view`: the viewer's script,
the game's renderer and the site's CSS inline, no network).

The page's timeline has one step, the table now, seen as a spectator of a finished match
sees it (`reveal`: hands and face-down tiles shown, as the text render shows them); its
header counts the moves played so far and, once the match is over, the ranks and scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agon_kit.view import replay_page
from engine.core import JSON
from engine.registry import get_spec
from engine.replay import Replay


def position_page(
    game_id: str,
    seed: int,
    agents: Sequence[str],
    options: Mapping[str, Any],
    moves: Sequence[JSON],
    result: Mapping[str, JSON] | None,
    state: Any,
) -> str:
    """The HTML page of `state`, reached from `seed` by `moves` (the match so far)."""
    spec = get_spec(game_id)
    view = spec.spectator().view(state, reveal=True)
    played = len(moves)
    step: dict[str, JSON] = {
        "view_patch": {"$set": view},
        "seat": None,
        "action": None,
        "text": f"the table after {played} move{'s' * (played != 1)}"
        if played
        else "the table after setup",
        "mark": None,
        "faults": [],
    }
    replay = Replay(
        game=game_id,
        engine_version=str(spec.game.rules_version),
        seed=seed,
        players=len(agents),
        options=dict(options),
        bots=list(agents),
        actions=list(moves),
        result=dict(result or {}),
    )
    so_far = f"{played} move{'s' * (played != 1)}"
    caption = f"Finished after {so_far}." if result else f"In play: {so_far} so far."
    return replay_page(replay, [step], caption)
