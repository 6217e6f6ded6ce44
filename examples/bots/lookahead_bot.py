"""A one-move lookahead bot built on Agon's own engine, for any game that can rebuild a
state from an observation (Akropolis, Megalopolis and Architekton can).

For each legal action it plays the move on a copy of the position and keeps the one
that leaves it furthest ahead of its best opponent (it tries the position's own legal
actions by index, which Akropolis applies without checking them again); it watches the
clock and answers with the best move so far when its time runs short. `Lookahead`
scores each try from the scores the game keeps up to date (Akropolis: 70,000 to 90,000
moves a second), not by rescoring the whole position.

Try it:  agon-kit play --game akropolis --seed 1 --sandbox none lookahead_bot.py builtin:greedy
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
        # The position's own legal actions, tried by index (not checked again); they
        # are those the referee sent, in the same order.
        best_index, best_lead = 0, None
        for index in range(len(position.legal)):
            if index % 32 == 0 and time.monotonic() > deadline:
                log(f"turn {observation['turn']}: out of time after {index} moves")
                break
            lead = position.lead_after(index)
            if best_lead is None or lead > best_lead:
                best_index, best_lead = index, lead
        best_action = position.legal[best_index] if best_lead is not None else None
        # Whatever the rebuilt position guessed, answer with one of the referee's actions.
        return best_action if best_action in legal_actions else legal_actions[0]


if __name__ == "__main__":
    run(LookaheadBot())
