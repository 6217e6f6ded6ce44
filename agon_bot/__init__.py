"""agon_bot: write an Agon bot as one function.

    from agon_bot import run

    def act(observation, legal_actions):
        return legal_actions[0]

    if __name__ == "__main__":
        run(act)

`run` speaks the bot protocol on stdin/stdout for you; print your own notes to stderr
(`log(...)`), which your bot's owner page shows, and its own judgement of each turn
(`evaluation(0.7)`, a line `agon-eval 0.7`), drawn for you beside the match's analysis.
The same file runs unchanged on your machine
(`agon play --sandbox none my_bot.py builtin:greedy`) and in Agon's boxes, where this
library and the `engine` package are installed for you, so bots can look ahead with the
real rules: `Lookahead(game, observation)` rebuilds the position and scores any move on
it (`score_after`, `scores_after`, `lead_after`; a move is an action or an index into
`position.legal`, the cheaper); `engine.get_game(...)` gives the rules themselves.
"""

from __future__ import annotations

from agon_bot.runner import Bot, evaluation, log, run

TYPE_CHECKING = False  # not typing's: no `typing` at a bot's start (agon_bot.runner)
if TYPE_CHECKING:
    from typing import Any

    from agon_bot.lookahead import Lookahead

__all__ = ["Bot", "Lookahead", "evaluation", "log", "run"]


def __getattr__(name: str) -> Any:
    # Lookahead brings the whole engine: a bot that does not ask for it does not pay
    # for it at its start (which is timed).
    if name == "Lookahead":
        # Start-up speed: see above.
        from agon_bot.lookahead import Lookahead

        return Lookahead
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
