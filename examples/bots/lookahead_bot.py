"""A one-move lookahead bot built on Agon's own engine, for any game that can rebuild a
state from an observation (Akropolis, Megalopolis and Architekton can).

For each legal action it plays the move on a copy of the position and keeps the one
that leaves it furthest ahead of its best opponent; it watches the clock and answers
with the best move so far when its time runs short. `Lookahead` scores each try from
the scores the game keeps up to date (Akropolis: tens of thousands of moves a second),
not by rescoring the whole position.

Try it:  agon play --game akropolis --seed 1 examples/bots/lookahead_bot.py builtin:greedy
"""

import time

from agon_bot import Bot, Lookahead, log, run

SAFETY = 0.6
"""Share of the time left that the bot allows itself."""


class LookaheadBot(Bot):
    def start(self, info):
        self.game = info["game"]

    def act(self, observation, legal_actions):
        deadline = time.monotonic() + SAFETY * (self.time_left_ms or 1000) / 1000
        position = Lookahead(self.game, observation)
        best_action, best_lead = legal_actions[0], None
        for checked, action in enumerate(legal_actions):
            if checked % 32 == 0 and time.monotonic() > deadline:
                log(f"turn {observation['turn']}: out of time after {checked} moves")
                break
            lead = position.lead_after(action)
            if best_lead is None or lead > best_lead:
                best_action, best_lead = action, lead
        return best_action


if __name__ == "__main__":
    run(LookaheadBot())
