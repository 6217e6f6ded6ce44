"""The smallest useful Agon bot: a legal move chosen at random, for any game.

Try it:  agon-kit play --game akropolis --seed 1 --sandbox none random_bot.py builtin:greedy
"""

import random

from agon_bot import Bot, log, run


class RandomBot(Bot):
    def start(self, info):
        # Seeding from the seat keeps the bot's play repeatable from match to match.
        self.rng = random.Random(info["player"])
        log(f"playing {info['game']} as seat {info['player']} of {info['players']}")

    def act(self, observation, legal_actions):
        return legal_actions[self.rng.randrange(len(legal_actions))]


if __name__ == "__main__":
    run(RandomBot())
