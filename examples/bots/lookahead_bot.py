"""A one-move lookahead bot built on Agon's own engine, for any game that can rebuild a
state from an observation (Akropolis can).

For each legal action it plays the move on a copy of the position and keeps the one
that leaves it furthest ahead of its best opponent; it watches the clock and answers
with the best move so far when its time runs short.

Try it:  agon play --game akropolis --seed 1 examples/bots/lookahead_bot.py builtin:greedy
"""

import time

import engine
from agon_bot import Bot, log, run

SAFETY = 0.6
"""Share of the time left that the bot allows itself."""


class LookaheadBot(Bot):
    def start(self, info):
        self.game = engine.get_game(info["game"])
        self.me = info["player"]

    def act(self, observation, legal_actions):
        deadline = time.monotonic() + SAFETY * (self.time_left_ms or 1000) / 1000
        position = self.game.state_from_observation(observation)
        best_action, best_value = legal_actions[0], None
        for checked, action in enumerate(legal_actions):
            if checked % 32 == 0 and time.monotonic() > deadline:
                log(f"turn {observation['turn']}: out of time after {checked} moves")
                break
            after = self.game.copy_state(position)
            self.game.apply(after, action)
            scores = self.game.result(after).scores
            lead = scores[self.me] - max(s for seat, s in enumerate(scores) if seat != self.me)
            if best_value is None or lead > best_value:
                best_action, best_value = action, lead
        return best_action


if __name__ == "__main__":
    run(LookaheadBot())
