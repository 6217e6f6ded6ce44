from __future__ import annotations

import pytest

from competition.formats.core import ScheduledGame
from competition.formats.gauntlet import Gauntlet
from competition.sprt import ELO_CLAMP
from tests.competition.formats.support import draws, play_out, stronger_wins


def test_the_entrant_meets_every_opponent_in_pairs_of_games() -> None:
    gauntlet = Gauntlet(4, seed=1, meetings=3)
    games = gauntlet.next_games([])
    assert len(games) == 3 * 3 * 2
    assert all(0 in g.bots for g in games)
    assert sum(g.bots[0] == 0 for g in games) == len(games) // 2


def test_a_clean_sweep_is_clamped_and_even_play_is_zero() -> None:
    gauntlet = Gauntlet(3, seed=1, meetings=4)
    swept = play_out(gauntlet, stronger_wins)
    assert gauntlet.pentanomials(swept) == {1: [0, 0, 0, 0, 4], 2: [0, 0, 0, 0, 4]}
    assert gauntlet.performance(swept).elo == ELO_CLAMP
    level = play_out(gauntlet, draws)
    assert gauntlet.elo_by_opponent(level)[1].elo == pytest.approx(0.0)


def test_the_elo_to_an_opponent_follows_the_pairs() -> None:
    def one_pair_in_four_won(game: ScheduledGame) -> tuple[int, ...]:
        if game.index < 2:  # the first pair of each opponent: the entrant wins both games
            return (1, 2) if game.bots[0] == 0 else (2, 1)
        return (1, 1)

    gauntlet = Gauntlet(2, seed=1, meetings=4)
    estimate = gauntlet.elo_by_opponent(play_out(gauntlet, one_pair_in_four_won))[1]
    # a score of 5/8: 400 log10(5/3) = 88.7 Elo
    assert estimate.elo == pytest.approx(88.7, abs=0.1)
    assert estimate.low < 88.7 < estimate.high
