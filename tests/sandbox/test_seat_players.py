"""`run_match` seats a caller's player in place of a seat's program (the platform's
human seat), and the boxed bots stay frozen all the while that player thinks: a bot
whose thread counts without rest counts nothing between its turns, however long the
other seat takes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence

from engine.core import JSON
from engine.players import Player
from sandbox.runner import Program, run_match
from tests.sandbox.support import require_backend

COUNTER_BOT = b"""\
import sys
import threading
import time

from agon_bot import run

count = 0


def spin():
    global count
    while True:
        count += 1


threading.Thread(target=spin, daemon=True).start()


def act(observation, legal_actions):
    before = count
    time.sleep(0.2)  # thawed: the counter runs
    print(f"counted {before} {count}", file=sys.stderr, flush=True)
    return legal_actions[0]


run(act)
"""


class SlowThinker(Player):
    """A seat that takes its time, as a person does: the first legal action, after a while."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.turns = 0

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        self.turns += 1
        time.sleep(self.seconds)
        return legal_actions[0]


def test_the_bot_counts_nothing_while_the_seat_in_its_place_thinks() -> None:
    require_backend("bwrap")
    thinker = SlowThinker(0.3)  # longer than the bot's 0.2 s a turn, as a person is
    record = run_match(
        game_id="akropolis",
        seed=4,
        options={},
        programs=[
            Program(bot_id="counter", package=COUNTER_BOT, filename="main.py"),
            Program(bot_id="human:someone"),
        ],
        sandbox="bwrap",
        seat_players={1: thinker},
    )
    assert record.replay.bots == ["counter", "human:someone"]
    assert not record.replay.faults
    assert thinker.turns >= 8
    counts = [
        (int(before), int(after))
        for line in record.seats[0].log.splitlines()
        if line.startswith("counted ")
        for before, after in [line.split()[1:]]
    ]
    assert len(counts) >= 8
    thawed = [after - before for before, after in counts]  # 0.2 s thawed, a turn
    between = [counts[k + 1][0] - counts[k][1] for k in range(len(counts) - 1)]
    # Between two of its turns (Akropolis alternates) the other seat thought 0.3 s;
    # frozen, the bot's thread counted only in the moments its box was thawed around its
    # replies. (Left thawed, it counts more between its turns than in them.)
    assert statistics.median(between) < 0.25 * statistics.median(thawed), (between, thawed)
